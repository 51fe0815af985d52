// SPDX-License-Identifier: MIT
/*
 * The placement policies' own behaviour (mm/policy.h), on simulated nodes
 * so it runs in the kernel and on the host alike (the invariants under
 * each policy are in page_alloc_test.c):
 *   - the registry finds every policy by name and nothing else, and
 *     memsim_create_policy refuses what it cannot build;
 *   - a pick hook's choice is what the caller gets, the core splitting the
 *     free block around it;
 *   - the colour policy spreads two owners over the cache where in-order
 *     placement stacks them on the same colours, with no conflict at all,
 *     and fills a window with distinct colours on fragmented memory.
 */
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>
#include "lab/cache_model.h"
#include "internal.h"
#include "memsim.h"
#include "policy.h"

#define SIM_NID 4

static const struct memsim_range one_range[] = { { 0, 16 * 1024, false } }; /* 64 MiB */
static const unsigned long one_zones[MAX_NR_ZONES] = { 0, 0, 16 * 1024 };

/*
 * What holds for every registered policy, however many there are: a
 * student's added policy (docs/labs/placement-policy.md) is checked with
 * the built-in ones, not counted against them.
 */
static void test_registry(struct ktest *t)
{
	static const char *const builtin[] = {
		"inorder", "shuffle", "shuffle-entropy",
		"colour",
	};
	const struct page_alloc_policy *p, *q;
	unsigned int i, j;

	KEXPECT_GE(t, page_alloc_nr_policies, ARRAY_SIZE(builtin));
	for (i = 0; i < ARRAY_SIZE(builtin); i++) {
		p = page_alloc_policy_find(builtin[i]);
		KASSERT_TRUE(t, p != NULL);
		KEXPECT_STREQ(t, p->name, builtin[i]);
	}
	for_each_page_alloc_policy(p, i) {
		KASSERT_TRUE(t, p->name && p->name[0]);
		KEXPECT_TRUE(t, p->desc && p->desc[0]);
		KEXPECT_TRUE(t, page_alloc_policy_find(p->name) == p);
		for_each_page_alloc_policy(q, j)
			KEXPECT_TRUE(t, i == j || strcmp(p->name, q->name));
	}
	/* page_alloc.policy= offers exactly auto and the registry, in order. */
	KEXPECT_STREQ(t, page_alloc_policy_param_names[0], "auto");
	for_each_page_alloc_policy(p, i)
		KEXPECT_STREQ(t, page_alloc_policy_param_names[i + 1], p->name);
	KEXPECT_TRUE(t, page_alloc_policy_param_names[page_alloc_nr_policies + 1] == NULL);
	KEXPECT_TRUE(t, page_alloc_policy_find("auto") == NULL);
	KEXPECT_TRUE(t, page_alloc_policy_find("shuffl") == NULL);
	KEXPECT_TRUE(t, memsim_create_policy(SIM_NID, one_range, 1, one_zones, "nope", 0, 1) == NULL);
	KEXPECT_TRUE(t, memsim_create_policy(SIM_NID, one_range, 1, one_zones, NULL, 0, 1) == NULL);
	/* colours need the cache to be a multiple of 4 MiB */
	KEXPECT_TRUE(t, memsim_create_policy(SIM_NID, one_range, 1, one_zones, "colour",
					     6 * SZ_1M, 1) == NULL);
	KEXPECT_TRUE(t, NODE_DATA(SIM_NID) == NULL); /* nothing left behind */
}

/* A policy for this test only: the last 2^order frames of the first block
 * on the biggest non-empty list, so every split keeps the upper half. */
static struct page *pick_last(struct zone *zone, unsigned int order, int mt)
{
	for (int o = MAX_ORDER - 1; o >= (int)order; o--) {
		struct list_head *l = &zone->free_area[o].free_list[mt];

		if (!list_empty(l))
			return list_first_entry(l, struct page, lru) +
			       (1UL << o) - (1UL << order);
	}
	return NULL;
}

static const struct page_alloc_policy last_policy = {
	.name = "test-last", .desc = "test: upper ends first", .pick = pick_last,
};

static void test_pick_is_honoured(struct ktest *t)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, one_range, 1, one_zones,
							 "inorder", 0, 1);
	unsigned long base, free0;
	struct page *a, *b;
	char why[160];

	KASSERT_TRUE(t, pgdat != NULL);
	base = pgdat->node_start_pfn;
	KEXPECT_EQ(t, policy_attach(pgdat, &last_policy, NULL), 0);
	free0 = pgdat->node_zones[ZONE_NORMAL].free_pages;
	/* order 2 from the first 4 MiB block: its last 4 frames */
	a = alloc_pages_node(SIM_NID, __GFP_MOVABLE, 2);
	KASSERT_TRUE(t, a != NULL);
	KEXPECT_EQ(t, page_to_pfn(a) - base, 1024 - 4);
	/* the split left lower halves free (0-511 the biggest), so the next
	 * pick is again the end of a whole 4 MiB block: the second one */
	b = alloc_pages_node(SIM_NID, __GFP_MOVABLE, 3);
	KASSERT_TRUE(t, b != NULL);
	KEXPECT_EQ(t, page_to_pfn(b) >> (MAX_ORDER - 1), (base >> (MAX_ORDER - 1)) + 1);
	KEXPECT_EQ(t, page_to_pfn(b) - base, 2048 - 8);
	KEXPECT_EQ(t, page_alloc_verify(pgdat, why, sizeof(why)), 0);
	__free_pages(a, 2);
	__free_pages(b, 3);
	KEXPECT_EQ(t, pgdat->node_zones[ZONE_NORMAL].free_pages, free0);
	KEXPECT_EQ(t, pgdat->node_zones[ZONE_NORMAL].free_area[MAX_ORDER - 1].nr_free, 16);
	KEXPECT_EQ(t, pgdat->bad_picks, 0);
	KEXPECT_EQ(t, page_alloc_verify(pgdat, why, sizeof(why)), 0);
	memsim_destroy(pgdat);
}

/*
 * Where a split lists its halves: at the head, so the next allocation is
 * served from the block just split. On the core's own path the lists a
 * split fills are empty (take_smallest() split the smallest block), so
 * only a pick that splits a bigger block can show it: the second pick
 * here leaves an order-8 half at pfn 1536 while one from the first pick
 * (512) still waits, and the core's next order-8 block is 1536's.
 */
static void test_split_halves_at_head(struct ktest *t)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, one_range, 1, one_zones,
							 "inorder", 0, 1);
	struct page *a, *b, *c;
	unsigned long base;
	char why[160];

	KASSERT_TRUE(t, pgdat != NULL);
	base = pgdat->node_start_pfn;
	KEXPECT_EQ(t, policy_attach(pgdat, &last_policy, NULL), 0);
	a = alloc_pages_node(SIM_NID, __GFP_MOVABLE, 2);  /* 1020-1023: lists 512-767 at order 8 */
	b = alloc_pages_node(SIM_NID, __GFP_MOVABLE, 3);  /* 2040-2047: lists 1536-1791 */
	KASSERT_TRUE(t, a != NULL && b != NULL);
	KEXPECT_EQ(t, page_to_pfn(b) - base, 2048 - 8);
	policy_detach(pgdat);                             /* the core chooses from here */
	c = alloc_pages_node(SIM_NID, __GFP_MOVABLE, 8);
	KASSERT_TRUE(t, c != NULL);
	ktest_log(t, "order 8 after two picks: pfn %lu (the later split's half: 1536)",
		  page_to_pfn(c) - base);
	KEXPECT_EQ(t, page_to_pfn(c) - base, 1536);
	__free_pages(c, 8);
	__free_pages(b, 3);
	__free_pages(a, 2);
	KEXPECT_EQ(t, pgdat->node_zones[ZONE_NORMAL].free_area[MAX_ORDER - 1].nr_free, 16);
	KEXPECT_EQ(t, page_alloc_verify(pgdat, why, sizeof(why)), 0);
	memsim_destroy(pgdat);
}

/*
 * The seed's contrived case, on one node: a 64 MiB direct-mapped cache
 * (16384 colours) in front of a node whose memory starts cache-aligned,
 * with a hole of half a cache after its first half-cache of memory
 * ([0, 8K) and [16K, 48K) present). Two owners take half a cache each,
 * one after the other. In order, the first gets [0, 8K) and the second
 * [16K, 24K): the same colours, every line in conflict. Free memory of
 * every colour is there; the colour policy should find it.
 */
#define CACHE (64 * SZ_1M)
#define COLOURS ((int)(CACHE / PAGE_SIZE))
#define HALF (COLOURS / 2)

static const struct memsim_range holey[] = {
	{ 0, HALF, false }, { COLOURS, 3 * COLOURS, false },
};
static const unsigned long holey_zones[MAX_NR_ZONES] = { 0, 0, 3 * COLOURS };
static unsigned long owner_pfns[COLOURS];
static struct page *owner_pages[COLOURS];
static u32 scratch[COLOURS];

/* Conflict rate (ppm) of the two owners' pages under the policy, or -1. */
static long two_owners(struct ktest *t, const char *policy)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, holey, ARRAY_SIZE(holey),
							 holey_zones, policy, CACHE, 2024);
	struct msc_model m;
	long ppm;

	if (!pgdat || msc_init(&m, CACHE, 64))
		return -1;
	for (int i = 0; i < COLOURS; i++) { /* first owner, then second */
		owner_pages[i] = alloc_pages_node(SIM_NID, __GFP_MOVABLE | __GFP_NOWARN, 0);
		if (!owner_pages[i]) {
			memsim_destroy(pgdat);
			return -1;
		}
		owner_pfns[i] = page_to_pfn(owner_pages[i]);
	}
	ppm = (long)msc_conflict_ppm(&m, owner_pfns, COLOURS, scratch);
	for (int i = 0; i < COLOURS; i++)
		__free_page(owner_pages[i]);
	drain_all_pages(pgdat);
	KEXPECT_EQ(t, pgdat->bad_picks, 0);
	memsim_destroy(pgdat);
	return ppm;
}

static void test_colour_spreads_two_owners(struct ktest *t)
{
	long inorder = two_owners(t, "inorder");
	long shuffle = two_owners(t, "shuffle-entropy");
	long colour = two_owners(t, "colour");

	ktest_log(t, "conflicts: inorder %ld ppm, shuffle-entropy %ld ppm, colour %ld ppm",
		  inorder, shuffle, colour);
	KASSERT_TRUE(t, inorder >= 0 && shuffle >= 0 && colour >= 0);
	KEXPECT_GT(t, inorder, 990000); /* the stacked case really is stacked */
	/* every colour has free memory, and each owner takes one window of
	 * order-0 pages: a policy that always finds an unused colour has no
	 * conflict at all */
	KEXPECT_EQ(t, colour, 0);
	KEXPECT_LT(t, colour, shuffle);
}

/*
 * On fragmented memory the colour policy still fills a window with
 * distinct colours while free pages of unused colours remain. A 64 MiB
 * node behind a 16 MiB cache (4096 colours, 4 copies each) is filled,
 * which ends exactly four windows, and then a scattered half of it is
 * freed: about one colour in 16 has no free copy, and the free blocks are
 * small and all over the lists. The next K allocations, K the colours that
 * have a free page, open a new window and must each get a different one.
 * A pick that settled for a used colour, or ran out of tries, shows as a
 * colour counted twice.
 */
#define FRAG_CACHE (16 * SZ_1M)
#define FRAG_COLOURS ((unsigned long)(FRAG_CACHE / PAGE_SIZE))
#define FRAG_PAGES 16384 /* one_range */

static void test_colour_fills_window_on_fragmented_memory(struct ktest *t)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, one_range, 1, one_zones,
							 "colour", FRAG_CACHE, 7);
	bool saved_pcp = page_alloc_pcp;
	unsigned long k = 0, sum = 0, twice = 0, nr_live = 0;
	u64 x = 12345;
	char why[160];

	KASSERT_TRUE(t, pgdat != NULL);
	KASSERT_EQ(t, colour_count(pgdat), FRAG_COLOURS);
	page_alloc_pcp = false; /* every page straight from the buddy lists */
	for (int i = 0; i < FRAG_PAGES; i++) {
		owner_pages[i] = alloc_pages_node(SIM_NID, __GFP_MOVABLE | __GFP_NOWARN, 0);
		if (!owner_pages[i])
			break;
		nr_live++;
	}
	KEXPECT_EQ(t, nr_live, FRAG_PAGES);
	memset(scratch, 0, sizeof(scratch));
	for (unsigned long i = 0; i < nr_live; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (x >> 63) {
			scratch[page_to_pfn(owner_pages[i]) % FRAG_COLOURS] = 1;
			__free_page(owner_pages[i]);
			owner_pages[i] = NULL;
		}
	}
	for (unsigned long c = 0; c < FRAG_COLOURS; c++)
		k += scratch[c];
	ktest_log(t, "%lu of %lu colours have a free page", k, FRAG_COLOURS);
	KEXPECT_LT(t, k, FRAG_COLOURS); /* the case is not the easy one */

	for (unsigned long i = 0, got = 0; i < nr_live && got < k; i++) {
		if (owner_pages[i])
			continue;
		owner_pages[i] = alloc_pages_node(SIM_NID, __GFP_MOVABLE | __GFP_NOWARN, 0);
		KASSERT_TRUE(t, owner_pages[i] != NULL);
		got++;
	}
	for (unsigned long c = 0; c < FRAG_COLOURS; c++) {
		sum += colour_load(pgdat, c);
		twice += colour_load(pgdat, c) > 1;
	}
	KEXPECT_EQ(t, sum, k); /* all in the new window */
	KEXPECT_EQ(t, twice, 0);

	for (unsigned long i = 0; i < nr_live; i++)
		if (owner_pages[i])
			__free_page(owner_pages[i]);
	page_alloc_pcp = saved_pcp;
	KEXPECT_EQ(t, pgdat->bad_picks, 0);
	KEXPECT_EQ(t, page_alloc_verify(pgdat, why, sizeof(why)), 0);
	memsim_destroy(pgdat);
}

static struct ktest_case policy_cases[] = {
	KTEST_CASE(test_registry),
	KTEST_CASE(test_pick_is_honoured),
	KTEST_CASE(test_split_halves_at_head),
	KTEST_CASE(test_colour_spreads_two_owners),
	KTEST_CASE(test_colour_fills_window_on_fragmented_memory),
	{}
};
KTEST_SUITE(page_alloc_policy, policy_cases);
