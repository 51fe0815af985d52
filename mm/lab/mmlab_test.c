// SPDX-License-Identifier: MIT
/*
 * The allocator-policy lab (mm/lab/mmlab.c), in the kernel and on the host:
 *   - fresh in-order memory is contiguous: every cache colour holds exactly
 *     ratio/100 working-set pages;
 *   - the contrived case conflicts completely in order and about half as
 *     much shuffled (the seed's "3X" case);
 *   - the same arguments give the same numbers, another seed other ones;
 *   - bad arguments are refused with a reason, and a run gives back every
 *     page it took, on a simulated node and on node 0.
 */
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>
#include "../policy.h"
#include "mmlab.h"

/* Small enough for a 1 GiB QEMU guest and quick under TCG. */
static void small(struct mmlab_config *c)
{
	mmlab_defaults(c);
	c->node = 256ULL << 20;
	c->cache = 16ULL << 20;
}

static int run(struct ktest *t, const struct mmlab_config *c, struct mmlab_result *r)
{
	char why[256];
	int err = mmlab_run(c, r, why, sizeof(why));

	if (err)
		ktest_log(t, "mmlab_run: %s", why);
	return err;
}

static void test_fresh_inorder_is_contiguous(struct ktest *t)
{
	struct mmlab_config c;
	struct mmlab_result r;

	small(&c);
	KEXPECT_EQ(t, run(t, &c, &r), 0);
	KEXPECT_EQ(t, r.pages, 3UL * (16 << 20) / PAGE_SIZE);
	KEXPECT_EQ(t, r.max_per_colour, 3u);
	KEXPECT_EQ(t, r.cover_ppm, 1000000ULL);
	KEXPECT_TRUE(t, r.hot > 0 && r.hot < r.pages / 10);
	/* each hot page meets two others on its colour, each hot with p = 4% */
	KEXPECT_TRUE(t, r.conflict_ppm > 20000 && r.conflict_ppm < 160000);
}

static void test_contrived_inorder_vs_shuffle(struct ktest *t)
{
	struct mmlab_config c;
	struct mmlab_result inorder, shuffled;

	small(&c);
	c.cache = 64ULL << 20; /* 16 shuffle blocks of 4 MiB per node */
	c.workload = MMLAB_CONTRIVED;
	KEXPECT_EQ(t, run(t, &c, &inorder), 0);
	/* both instances start at colour 0 of their node: all collide */
	KEXPECT_EQ(t, inorder.conflict_ppm, 1000000ULL);
	KEXPECT_EQ(t, inorder.cover_ppm, 500000ULL);
	strlcpy(c.policy, "shuffle", sizeof(c.policy));
	KEXPECT_EQ(t, run(t, &c, &shuffled), 0);
	/* each block of one meets the other's half of the node: ~50% */
	KEXPECT_TRUE(t, shuffled.conflict_ppm > 100000 && shuffled.conflict_ppm < 900000);
	KEXPECT_TRUE(t, shuffled.cover_ppm > inorder.cover_ppm);
}

static void test_same_seed_same_answer(struct ktest *t)
{
	struct mmlab_config c;
	struct mmlab_result a, b, other;

	small(&c);
	c.workload = MMLAB_AGED;
	c.aging = 2;
	strlcpy(c.policy, "shuffle-entropy", sizeof(c.policy));
	c.seed = 7;
	KEXPECT_EQ(t, run(t, &c, &a), 0);
	KEXPECT_EQ(t, run(t, &c, &b), 0);
	KEXPECT_TRUE(t, !memcmp(&a, &b, sizeof(a)));
	KEXPECT_TRUE(t, a.churn_allocs > 0 && a.survivors > 0);
	c.seed = 8;
	KEXPECT_EQ(t, run(t, &c, &other), 0);
	KEXPECT_TRUE(t, memcmp(&a, &other, sizeof(a)) != 0);
}

static void test_bad_arguments(struct ktest *t)
{
	static const char *const bad[] = {
		"ratio=x", "workload=stale", "cache=", "hot=101%", "hot=-1", "noequals",
		"=3", "colour=1", "aging=1000001", "node=0", "policy=bogus", "order=11",
		"seed=-1", "policy=",
	};
	struct mmlab_config c;
	struct mmlab_result r;
	char why[256];

	small(&c);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		why[0] = '\0';
		KEXPECT_EQ(t, mmlab_parse_arg(&c, bad[i], why, sizeof(why)), -EINVAL);
		KEXPECT_TRUE(t, why[0] != '\0');
	}
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "hot=2.5%", why, sizeof(why)), 0);
	KEXPECT_EQ(t, c.hot_ppm, 25000u);
	/* a refused argument changes nothing */
	small(&c);
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "ratio=x", why, sizeof(why)), -EINVAL);
	KEXPECT_EQ(t, c.ratio, 300u);
	/* the reason names what the key takes */
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "policy=bogus", why, sizeof(why)), -EINVAL);
	/* every registered policy is named, however many a student adds */
	KEXPECT_TRUE(t, strstr(why, "one of inorder|shuffle|shuffle-entropy") != NULL);
	{
		const struct page_alloc_policy *p;
		unsigned int i;

		for_each_page_alloc_policy(p, i)
			KEXPECT_TRUE(t, strstr(why, p->name) != NULL);
	}
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "ratio=x", why, sizeof(why)), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "integer 0..100000 expected (not understood)") != NULL);
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "colour=1", why, sizeof(why)), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "unknown key; the keys are workload= policy=") != NULL);
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "policy=shuffle-entropy", why, sizeof(why)), 0);
	KEXPECT_STREQ(t, c.policy, "shuffle-entropy");
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "workload=interleaved", why, sizeof(why)), 0);
	KEXPECT_EQ(t, c.workload, MMLAB_INTERLEAVED);
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "node=real", why, sizeof(why)), 0);
	KEXPECT_TRUE(t, c.real);
	KEXPECT_EQ(t, mmlab_parse_arg(&c, "node=64M", why, sizeof(why)), 0);
	KEXPECT_TRUE(t, !c.real && c.node == 64ULL << 20);

	small(&c);
	strlcpy(c.policy, "no-such-policy", sizeof(c.policy));
	KEXPECT_EQ(t, mmlab_run(&c, &r, why, sizeof(why)), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "no such placement policy") != NULL);
	small(&c);
	c.ratio = 2000; /* 320 MiB on a 256 MiB node */
	KEXPECT_EQ(t, mmlab_run(&c, &r, why, sizeof(why)), -EINVAL);
	/* the sizes and the way out */
	KEXPECT_TRUE(t, strstr(why, "(320 MiB), is larger than node=256M: give node=320M") != NULL);
	small(&c);
	c.cache = 5000;
	KEXPECT_EQ(t, mmlab_run(&c, &r, why, sizeof(why)), -EINVAL);
	small(&c);
	c.real = true;
	c.workload = MMLAB_CONTRIVED;
	KEXPECT_EQ(t, mmlab_run(&c, &r, why, sizeof(why)), -EINVAL);
	/* a failed run leaves no simulated node behind */
	for (int nid = 1; nid < MAX_NUMNODES; nid++)
		KEXPECT_TRUE(t, NODE_DATA(nid) == NULL);
}

/* On node 0 the churn and the working set must give back every page. */
static void test_real_node_gives_everything_back(struct ktest *t)
{
	struct mmlab_config c;
	struct mmlab_result r;
	unsigned long before;

	if (ktest_on_host()) {
		ktest_skip(t, "node 0 exists only in the kernel");
		return;
	}
	small(&c);
	c.real = true;
	c.cache = 4ULL << 20;
	c.workload = MMLAB_AGED;
	c.aging = 1;
	c.live_pct = 20;
	before = nr_free_pages();
	KEXPECT_EQ(t, run(t, &c, &r), 0);
	KEXPECT_TRUE(t, r.survivors > 0);
	KEXPECT_EQ(t, r.pages, 3UL * (4 << 20) / PAGE_SIZE);
	/* per-CPU lists may hold a few pages either way */
	KEXPECT_TRUE(t, nr_free_pages() + 4096 > before && nr_free_pages() < before + 4096);
}

static struct ktest_case mmlab_cases[] = {
	KTEST_CASE(test_fresh_inorder_is_contiguous),
	KTEST_CASE(test_contrived_inorder_vs_shuffle),
	KTEST_CASE(test_same_seed_same_answer),
	KTEST_CASE(test_bad_arguments),
	KTEST_CASE(test_real_node_gives_everything_back),
	{},
};
KTEST_SUITE(mmlab, mmlab_cases);
