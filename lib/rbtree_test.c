// SPDX-License-Identifier: MIT
/*
 * The red-black tree against its rules, after every insert and erase of a
 * pseudo-random sequence: in order, parent links right, no red child of a
 * red node, the same black count on every path, height within 2 log2(n+1).
 */
#include <pagoda/ktest.h>
#include <pagoda/rbtree.h>

#define NKEYS 512

struct item {
	struct rb_node rb;
	unsigned int key;
	bool in;
};

static struct item items[NKEYS];

static void insert(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < rb_entry(parent, struct item, rb)->key ? &parent->left :
									  &parent->right;
	}
	rb_link_node(&it->rb, parent, link);
	rb_insert_color(&it->rb, root);
	it->in = true;
}

/* Black height of n's subtree, or -1 when a rule is broken below it. */
static int check_node(const struct rb_node *n, const struct rb_node *parent, int depth,
		      int *height)
{
	int l, r;

	if (!n)
		return 1;
	if (n->parent != parent || (n->red && parent && parent->red))
		return -1;
	if (depth + 1 > *height)
		*height = depth + 1;
	l = check_node(n->left, n, depth + 1, height);
	r = check_node(n->right, n, depth + 1, height);
	if (l < 0 || l != r)
		return -1;
	return l + !n->red;
}

/* 0 when root holds exactly the items marked in, in order, by the rules. */
static int check_tree(const struct rb_root *root)
{
	int height = 0, n = 0, want = 0, limit = 0;
	const struct rb_node *prev = NULL;

	if (root->rb_node && root->rb_node->red)
		return 1;
	if (check_node(root->rb_node, NULL, 0, &height) < 0)
		return 2;
	for (const struct rb_node *x = rb_first(root); x; prev = x, x = rb_next(x)) {
		if (prev && rb_entry(prev, struct item, rb)->key > rb_entry(x, struct item, rb)->key)
			return 3;
		if (rb_next(x) && rb_prev(rb_next(x)) != x)
			return 4;
		n++;
	}
	if (prev != rb_last(root))
		return 5;
	for (int i = 0; i < NKEYS; i++)
		want += items[i].in;
	if (n != want)
		return 6;
	/* height <= 2 log2(n + 1) */
	while ((1 << limit) <= n + 1)
		limit++;
	return height > 2 * limit ? 7 : 0;
}

static void test_rbtree_random(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	unsigned int seed = 2024;
	int bad = 0;

	for (int i = 0; i < NKEYS; i++) {
		seed = seed * 1103515245 + 12345;
		items[i] = (struct item){ .key = (seed >> 8) % 1000 }; /* with duplicates */
	}
	for (int i = 0; i < NKEYS && !bad; i++) {
		insert(&root, &items[i]);
		bad = check_tree(&root);
	}
	KEXPECT_EQ(t, bad, 0);
	/* Erase in a scrambled order, inserting some back on the way. */
	for (int round = 0; round < 3 * NKEYS && !bad; round++) {
		struct item *it;

		seed = seed * 1103515245 + 12345;
		it = &items[(seed >> 8) % NKEYS];
		if (it->in) {
			rb_erase(&it->rb, &root);
			it->in = false;
		} else if (round % 3 == 0) {
			insert(&root, it);
		}
		bad = check_tree(&root);
	}
	KEXPECT_EQ(t, bad, 0);
	for (int i = 0; i < NKEYS; i++)
		if (items[i].in) {
			rb_erase(&items[i].rb, &root);
			items[i].in = false;
		}
	KEXPECT_TRUE(t, root.rb_node == NULL);
	KEXPECT_TRUE(t, rb_first(&root) == NULL);
}

static void test_rbtree_replace(struct ktest *t)
{
	struct rb_root root = RB_ROOT;
	struct item spare = { .key = 5 };

	for (int i = 0; i < 10; i++) {
		items[i] = (struct item){ .key = (unsigned int)i };
		insert(&root, &items[i]);
	}
	for (int i = 10; i < NKEYS; i++)
		items[i].in = false;
	rb_replace_node(&items[5].rb, &spare.rb, &root);
	items[5].in = false;
	spare.in = true;
	KEXPECT_EQ(t, check_tree(&root), 6); /* spare is not in items[]: one more than marked */
	KEXPECT_TRUE(t, rb_next(&items[4].rb) == &spare.rb);
	KEXPECT_TRUE(t, rb_prev(&items[6].rb) == &spare.rb);
	rb_erase(&spare.rb, &root);
	KEXPECT_EQ(t, check_tree(&root), 0);
}

static struct ktest_case rbtree_cases[] = {
	KTEST_CASE(test_rbtree_random),
	KTEST_CASE(test_rbtree_replace),
	{}
};
KTEST_SUITE(rbtree, rbtree_cases);
