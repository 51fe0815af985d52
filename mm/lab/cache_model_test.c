// SPDX-License-Identifier: MIT
/* The cache model against small cases worked out by hand. */
#include <pagoda/arch.h>
#include <pagoda/ktest.h>
#include "cache_model.h"

/* 16 KiB, 64-byte lines: 256 sets, 4 page colours. */
static void test_geometry(struct ktest *t)
{
	struct msc_model m;

	KASSERT_EQ(t, msc_init(&m, 16384, 64), 0);
	KEXPECT_EQ(t, m.nr_sets, 256);
	KEXPECT_EQ(t, m.nr_colours, 4);
	KEXPECT_EQ(t, msc_set(&m, 0), 0);
	KEXPECT_EQ(t, msc_set(&m, 64 * 255), 255);
	KEXPECT_EQ(t, msc_set(&m, 16384 + 128), 2);
	KEXPECT_EQ(t, msc_init(&m, 16384, 48), -EINVAL);   /* not a power of two */
	KEXPECT_EQ(t, msc_init(&m, 16384, 8192), -EINVAL); /* line > page */
	KEXPECT_EQ(t, msc_init(&m, 10000, 64), -EINVAL);   /* not whole pages */
}

static void test_conflict_rate(struct ktest *t)
{
	struct msc_model m;
	u32 counts[4];
	static const unsigned long distinct[] = { 0, 1, 2, 3 };
	static const unsigned long pair[] = { 0, 4 };
	static const unsigned long one_pair[] = { 0, 1, 5 };
	static const unsigned long three_x[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };

	KASSERT_EQ(t, msc_init(&m, 16384, 64), 0);
	KEXPECT_EQ(t, msc_conflict_ppm(&m, distinct, 4, counts), 0);
	KEXPECT_EQ(t, msc_conflict_ppm(&m, pair, 2, counts), 1000000);
	KEXPECT_EQ(t, msc_conflict_ppm(&m, one_pair, 3, counts), 666666); /* 1 and 5 */
	/* three times the cache, in order: every line shares its set */
	KEXPECT_EQ(t, msc_conflict_ppm(&m, three_x, 12, counts), 1000000);
	KEXPECT_EQ(t, msc_conflict_ppm(&m, three_x, 0, counts), 0);
}

static void test_replay_misses(struct ktest *t)
{
	struct msc_model m;
	static u64 tags[256];
	static const phys_addr_t thrash[] = { 0, 16384, 0, 16384 };
	static const phys_addr_t fits[] = { 0, 64, 0, 64, 4096, 0 };

	KASSERT_EQ(t, msc_init(&m, 16384, 64), 0);
	KEXPECT_EQ(t, msc_replay(&m, thrash, 4, tags), 4);   /* same set, evict each other */
	KEXPECT_EQ(t, msc_replay(&m, fits, 6, tags), 3);     /* three cold misses */
}

static struct ktest_case cache_model_cases[] = {
	KTEST_CASE(test_geometry),
	KTEST_CASE(test_conflict_rate),
	KTEST_CASE(test_replay_misses),
	{}
};
KTEST_SUITE(cache_model, cache_model_cases);
