// SPDX-License-Identifier: MIT
/*
 * The list primitives others build on: splicing keeps order and empties
 * the source, splicing an empty list changes nothing, and an RCU unlink
 * hides an entry from new walks while a walker standing on it still
 * reaches the rest of the list.
 */
#include <pagoda/ktest.h>
#include <pagoda/rculist.h>

struct item {
	int v;
	struct list_head node;
};

/* The values on h, in order, as decimal digits (each v < 10). */
static int digits(struct list_head *h)
{
	struct item *it;
	int n = 0;

	list_for_each_entry(it, h, node)
		n = n * 10 + it->v;
	return n;
}

/* a holds 1 2, b holds 3 4. */
static void fill(struct list_head *a, struct list_head *b, struct item it[4])
{
	INIT_LIST_HEAD(a);
	INIT_LIST_HEAD(b);
	for (int i = 0; i < 4; i++) {
		it[i].v = i + 1;
		list_add_tail(&it[i].node, i < 2 ? a : b);
	}
}

/*
 * Splice b (3 4) into a (1 2) at the tail or the head: want is a's order
 * after, before1 the value in front of 1 (the links were all mended).
 */
static void check_splice(struct ktest *t, bool tail, int want, int before1)
{
	struct list_head a, b;
	struct item it[4];

	fill(&a, &b, it);
	if (tail)
		list_splice_tail_init(&b, &a);
	else
		list_splice_init(&b, &a);
	KEXPECT_EQ(t, digits(&a), want);
	KEXPECT_TRUE(t, list_empty(&b));
	KEXPECT_EQ(t, list_last_entry(&a, struct item, node)->v, want % 10);
	KEXPECT_TRUE(t, it[0].node.prev == (before1 ? &it[before1 - 1].node : &a));
}

static void test_splice_tail_init(struct ktest *t)
{
	check_splice(t, true, 1234, 0);
}

static void test_splice_init(struct ktest *t)
{
	check_splice(t, false, 3412, 4);
}

static void test_splice_empty(struct ktest *t)
{
	struct list_head a, b, empty;
	struct item it[4];

	fill(&a, &b, it);
	INIT_LIST_HEAD(&empty);
	list_splice_init(&empty, &a);
	list_splice_tail_init(&empty, &a);
	KEXPECT_EQ(t, digits(&a), 12);
	KEXPECT_TRUE(t, list_empty(&empty));
}

static void test_rcu_unlink_keeps_the_way_on(struct ktest *t)
{
	struct list_head h, unused;
	struct item it[4], *pos;
	int n = 0;

	fill(&h, &unused, it);
	list_add_tail_rcu(&it[2].node, &h);
	list_add_tail_rcu(&it[3].node, &h);
	list_for_each_entry_rcu(pos, &h, node)
		n = n * 10 + pos->v;
	KEXPECT_EQ(t, n, 1234);
	/* A reader standing on 2 when it goes still walks on to 3 and 4. */
	list_del_rcu(&it[1].node);
	KEXPECT_TRUE(t, it[1].node.next == &it[2].node);
	KEXPECT_EQ(t, digits(&h), 134);
	synchronize_rcu();
}

static struct ktest_case list_cases[] = {
	KTEST_CASE(test_splice_tail_init),
	KTEST_CASE(test_splice_init),
	KTEST_CASE(test_splice_empty),
	KTEST_CASE(test_rcu_unlink_keeps_the_way_on),
	{}
};
KTEST_SUITE(list, list_cases);
