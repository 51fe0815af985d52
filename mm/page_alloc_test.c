// SPDX-License-Identifier: MIT
/*
 * The page allocator's invariants, on simulated nodes (mm/memsim.c) so the
 * same cases run in the kernel and on the host under ASan/UBSan:
 *   - no frame is handed out twice, and page_alloc_verify() holds after
 *     every step of a random workload;
 *   - freeing everything restores exactly the initial set of free blocks
 *     (coalescing is complete);
 *   - the shuffle permutes the free lists without changing the free set;
 *   - without shuffle, allocation follows physical order; with it, the
 *     rank correlation of block order is near zero; a fixed seed repeats;
 *   - zones, zone fallback, migratetypes, fault injection, bad frees;
 *   - every placement policy (mm/policy.h) keeps all of the above under
 *     the same churn, and a fixed seed repeats under each.
 */
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/preempt.h>
#include <pagoda/random.h>
#include <pagoda/string.h>
#include "internal.h"
#include "memsim.h"
#include "policy.h"
#include "policy_shuffle.h"

#define SIM_NID 3

/*
 * 80 MiB span with holes: DMA ends at 16 MiB, DMA32 at 48 MiB, Normal
 * above; holes at 11.7-13.7 MiB, 40-41 MiB and 60-64 MiB; an odd end.
 */
static const struct memsim_range sim_ranges[] = {
	{ 1, 3000, false }, { 3500, 10240, false }, { 10496, 15360, false },
	{ 16384, 20000, false }, { 20011, 20480, false },
};
static const unsigned long sim_zones[MAX_NR_ZONES] = { 4096, 12288, 20480 };

static struct pglist_data *sim_node(struct ktest *t, bool shuffle, u64 seed)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, sim_ranges,
							 ARRAY_SIZE(sim_ranges), sim_zones,
							 shuffle ? "shuffle-entropy" : "inorder",
							 0, seed);

	if (!pgdat)
		KEXPECT_TRUE(t, pgdat != NULL);
	return pgdat;
}

/* sim_node()'s layout with only the first init_pages struct pages written (memsim.h). */
static struct pglist_data *sim_deferred(const char *policy, unsigned long init_pages)
{
	return memsim_create_deferred(SIM_NID, sim_ranges, ARRAY_SIZE(sim_ranges), sim_zones,
				      policy, 1, init_pages);
}

static unsigned long node_free_pages(struct pglist_data *pgdat)
{
	unsigned long n = 0;
	struct zone *z;

	for_each_zone_in_node(z, pgdat)
		n += z->free_pages;
	return n;
}

static void expect_consistent(struct ktest *t, struct pglist_data *pgdat)
{
	char why[160];
	int err = page_alloc_verify(pgdat, why, sizeof(why));

	if (err)
		ktest_log(t, "verify: %s", why);
	KEXPECT_EQ(t, err, 0);
}

/* The free set as (pfn, order) pairs in pfn order, walked from the memmap. */
static size_t free_set(struct pglist_data *pgdat, unsigned long *out, size_t max)
{
	size_t n = 0;

	for (unsigned long i = 0; i < pgdat->node_spanned_pages; i++) {
		struct page *p = &pgdat->node_mem_map[i];

		if (PageBuddy(p)) {
			if (n < max)
				out[n] = (i << 4) | p->order;
			n++;
			i += (1UL << p->order) - 1;
		}
	}
	return n;
}

/* A long, hole-free simulated node so there are many whole 4 MiB blocks. */
static const struct memsim_range big_range[] = { { 0, 64 * 1024, false } }; /* 256 MiB */
static const unsigned long big_zones[MAX_NR_ZONES] = { 0, 0, 64 * 1024 };

#define MAX_SET 4096
static unsigned long set_a[MAX_SET], set_b[MAX_SET];

/* --- the random workload ------------------------------------------------------ */

#define MAX_LIVE 2048
static struct page *live[MAX_LIVE];
static u8 live_order[MAX_LIVE];
static u8 owner_map[20480]; /* one byte per simulated frame: allocated? */

static bool mark(struct pglist_data *pgdat, struct page *p, unsigned int order, u8 v)
{
	unsigned long rel = page_to_pfn(p) - pgdat->node_start_pfn;

	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (rel + i >= ARRAY_SIZE(owner_map) || owner_map[rel + i] == v)
			return false;
		owner_map[rel + i] = v;
	}
	return true;
}

/*
 * 20000 random allocations and frees of mixed orders, zones and
 * migratetypes, checking the invariants as it goes; then free everything
 * and expect exactly the initial free set back.
 */
static void random_workload(struct ktest *t, struct pglist_data *pgdat)
{
	struct rng r;
	size_t n0, n1;
	int nlive = 0;
	bool twice = false;
	unsigned long before;

	before = node_free_pages(pgdat);
	n0 = free_set(pgdat, set_a, MAX_SET);
	KASSERT_TRUE(t, n0 <= MAX_SET);
	memset(owner_map, 0, sizeof(owner_map));
	rng_seed(&r, 42);
	for (int step = 0; step < 20000; step++) {
		bool do_alloc = nlive == 0 || (nlive < MAX_LIVE && rng_below(&r, 100) < 55);

		if (do_alloc) {
			unsigned int order = rng_below(&r, 4) ? (unsigned int)rng_below(&r, 3)
							      : (unsigned int)rng_below(&r, MAX_ORDER);
			gfp_t gfp = (rng_below(&r, 2) ? __GFP_MOVABLE : 0) |
				    (rng_below(&r, 8) ? 0 : __GFP_DMA32) | __GFP_NOWARN;
			struct page *p = alloc_pages_node(SIM_NID, gfp, order);

			if (!p)
				continue;
			if (!mark(pgdat, p, order, 1))
				twice = true;
			live[nlive] = p;
			live_order[nlive++] = (u8)order;
		} else {
			int i = (int)rng_below(&r, (u64)nlive);

			mark(pgdat, live[i], live_order[i], 0);
			__free_pages(live[i], live_order[i]);
			live[i] = live[--nlive];
			live_order[i] = live_order[nlive];
		}
		if (step % 2500 == 0)
			expect_consistent(t, pgdat);
	}
	KEXPECT_FALSE(t, twice);
	while (nlive) {
		nlive--;
		__free_pages(live[nlive], live_order[nlive]);
	}
	drain_all_pages(pgdat);
	expect_consistent(t, pgdat);
	KEXPECT_EQ(t, node_free_pages(pgdat), before);
	n1 = free_set(pgdat, set_b, MAX_SET);
	KEXPECT_EQ(t, n1, n0);
	KEXPECT_TRUE(t, n0 == n1 && !memcmp(set_a, set_b, n0 * sizeof(set_a[0])));
	KEXPECT_EQ(t, pgdat->bad_pages, 0);
	KEXPECT_EQ(t, pgdat->bad_picks, 0);
}

/* Run body on a fresh simulated node, then take the node down. */
static void on_sim_node(struct ktest *t, bool shuffle, u64 seed,
			void (*body)(struct ktest *t, struct pglist_data *pgdat))
{
	struct pglist_data *pgdat = sim_node(t, shuffle, seed);

	if (!pgdat)
		return;
	body(t, pgdat);
	memsim_destroy(pgdat);
}

static void test_random_workload_restores_free_lists(struct ktest *t)
{
	on_sim_node(t, false, 1, random_workload);
}

/* Take every page one by one, none twice, then give them all back. */
static void drain_node_completely(struct ktest *t, struct pglist_data *pgdat)
{
	unsigned long total, got = 0;
	struct list_head taken;
	struct page *p, *n;
	bool twice = false;

	total = node_free_pages(pgdat);
	memset(owner_map, 0, sizeof(owner_map));
	INIT_LIST_HEAD(&taken);
	while ((p = alloc_pages_node(SIM_NID, __GFP_NOWARN, 0))) {
		if (!mark(pgdat, p, 0, 1))
			twice = true;
		list_add(&p->lru, &taken);
		got++;
	}
	KEXPECT_FALSE(t, twice);
	KEXPECT_EQ(t, got, total); /* simulated nodes keep no watermark */
	expect_consistent(t, pgdat);
	list_for_each_entry_safe(p, n, &taken, lru) {
		list_del(&p->lru);
		__free_page(p);
	}
	drain_all_pages(pgdat);
	KEXPECT_EQ(t, node_free_pages(pgdat), total);
	expect_consistent(t, pgdat);
}

static void test_everything_allocatable_once(struct ktest *t)
{
	on_sim_node(t, true, 7, drain_node_completely);
}

/* Pages the colour policy counts as handed out in its current window. */
static unsigned long colour_total(struct pglist_data *pgdat)
{
	unsigned long sum = 0;

	for (unsigned long c = 0; c < colour_count(pgdat); c++)
		sum += colour_load(pgdat, c);
	return sum;
}

/* The holey node under each policy: the churn, then every page once. */
static void test_every_policy_keeps_invariants(struct ktest *t)
{
	const struct page_alloc_policy *policy;
	unsigned int i;

	for_each_page_alloc_policy(policy, i) {
		struct pglist_data *pgdat =
			memsim_create_policy(SIM_NID, sim_ranges, ARRAY_SIZE(sim_ranges),
					     sim_zones, policy->name, 16 * SZ_1M, 11 + i);

		ktest_log(t, "policy %s", policy->name);
		KASSERT_TRUE(t, pgdat != NULL);
		KEXPECT_TRUE(t, pgdat->policy == policy);
		expect_consistent(t, pgdat);
		random_workload(t, pgdat);
		drain_node_completely(t, pgdat);
		/* colour counts only the current allocation window: never
		 * more pages than one window (nr_colours) holds */
		KEXPECT_LE(t, colour_total(pgdat), colour_count(pgdat));
		memsim_destroy(pgdat);
	}
}

/* Allocation order of the first blocks of mixed orders on a fresh node. */
static void first_allocations(struct pglist_data *pgdat, unsigned long *pfns, int n)
{
	struct page *pages[64];

	for (int i = 0; i < n && i < 64; i++) {
		pages[i] = alloc_pages_node(SIM_NID, __GFP_MOVABLE | __GFP_NOWARN, i % 4);
		pfns[i] = pages[i] ? page_to_pfn(pages[i]) : 0;
	}
	for (int i = 0; i < n && i < 64; i++)
		__free_pages(pages[i], i % 4);
	drain_all_pages(pgdat);
}

static void test_every_policy_repeats_with_a_seed(struct ktest *t)
{
	const struct page_alloc_policy *policy;
	unsigned long a[64], b[64];
	unsigned int i;

	for_each_page_alloc_policy(policy, i) {
		for (int run = 0; run < 2; run++) {
			struct pglist_data *pgdat =
				memsim_create_policy(SIM_NID, big_range, 1, big_zones,
						     policy->name, 64 * SZ_1M, 77);

			KASSERT_TRUE(t, pgdat != NULL);
			first_allocations(pgdat, run ? b : a, 64);
			memsim_destroy(pgdat);
		}
		if (memcmp(a, b, sizeof(a)))
			ktest_log(t, "policy %s: two runs with seed 77 differ", policy->name);
		KEXPECT_TRUE(t, !memcmp(a, b, sizeof(a)));
	}
}

/* --- order of allocation ------------------------------------------------------- */

/*
 * Allocate every order-0 page and record the order in which the 4 MiB
 * blocks are first touched; return Spearman's rank correlation between
 * that order and the blocks' addresses, times 1000.
 */
static long block_order_correlation(struct pglist_data *pgdat, unsigned long *seq,
				    size_t *nseq)
{
	static u8 seen[64];
	struct list_head taken;
	struct page *p, *n;
	long long d2 = 0;
	size_t k = 0;

	memset(seen, 0, sizeof(seen));
	INIT_LIST_HEAD(&taken);
	while ((p = alloc_pages_node(SIM_NID, __GFP_NOWARN, 0))) {
		unsigned long blk = (page_to_pfn(p) - pgdat->node_start_pfn) >> (MAX_ORDER - 1);

		if (blk < ARRAY_SIZE(seen) && !seen[blk]) {
			seen[blk] = 1;
			seq[k++] = blk;
		}
		list_add(&p->lru, &taken);
	}
	list_for_each_entry_safe(p, n, &taken, lru) {
		list_del(&p->lru);
		__free_page(p);
	}
	drain_all_pages(pgdat);
	*nseq = k;
	/* ranks: position i in seq vs. rank of the block among those seen */
	for (size_t i = 0; i < k; i++) {
		long long rank = 0;

		for (size_t j = 0; j < k; j++)
			rank += seq[j] < seq[i];
		d2 += ((long long)i - rank) * ((long long)i - rank);
	}
	if (k < 2)
		return 1000;
	return 1000 - (long)(6000 * d2 / ((long long)k * ((long long)k * k - 1)));
}


static void test_unshuffled_allocation_follows_address_order(struct ktest *t)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, big_range, 1, big_zones,
							 "inorder", 0, 1);
	unsigned long seq[64];
	size_t n;
	long rho;

	KASSERT_TRUE(t, pgdat != NULL);
	rho = block_order_correlation(pgdat, seq, &n);
	KEXPECT_EQ(t, n, 64);
	KEXPECT_EQ(t, rho, 1000);
	memsim_destroy(pgdat);
}

static void test_shuffled_allocation_uncorrelated(struct ktest *t)
{
	unsigned long seq[64];
	long worst = 0;
	size_t n;

	/* Several seeds: each correlation is near zero (|rho| < 0.4; for 64
	 * random blocks its standard deviation is 0.126). */
	for (u64 seed = 1; seed <= 4; seed++) {
		struct pglist_data *pgdat = memsim_create_policy(SIM_NID, big_range, 1, big_zones,
								 "shuffle-entropy", 0, seed);
		struct policy_stats st;
		long rho;

		KASSERT_TRUE(t, pgdat != NULL);
		policy_stats(pgdat, &st);
		KEXPECT_GT(t, st.moved, 32);
		rho = block_order_correlation(pgdat, seq, &n);
		KEXPECT_EQ(t, n, 64);
		worst = MAX(worst, rho < 0 ? -rho : rho);
		memsim_destroy(pgdat);
	}
	ktest_log(t, "largest |rank correlation| over 4 seeds: 0.%03ld", worst);
	KEXPECT_LT(t, worst, 400);
}

static void test_shuffle_permutes_free_set(struct ktest *t)
{
	struct pglist_data *plain = memsim_create_policy(SIM_NID, sim_ranges,
							 ARRAY_SIZE(sim_ranges), sim_zones,
							 "inorder", 0, 1);
	struct pglist_data *shuf;
	size_t n0, n1;

	KASSERT_TRUE(t, plain != NULL);
	n0 = free_set(plain, set_a, MAX_SET);
	memsim_destroy(plain);
	shuf = sim_node(t, true, 99);
	KASSERT_TRUE(t, shuf != NULL);
	n1 = free_set(shuf, set_b, MAX_SET);
	KEXPECT_EQ(t, n0, n1);
	KEXPECT_TRUE(t, n0 == n1 && !memcmp(set_a, set_b, n0 * sizeof(set_a[0])));
	expect_consistent(t, shuf);
	memsim_destroy(shuf);
}

static void test_fixed_seed_reproduces(struct ktest *t)
{
	unsigned long a[64], b[64], c[64];
	size_t na, nb, nc;
	struct pglist_data *p;

	p = memsim_create_policy(SIM_NID, big_range, 1, big_zones, "shuffle-entropy", 0, 1234);
	KASSERT_TRUE(t, p != NULL);
	block_order_correlation(p, a, &na);
	memsim_destroy(p);
	p = memsim_create_policy(SIM_NID, big_range, 1, big_zones, "shuffle-entropy", 0, 1234);
	KASSERT_TRUE(t, p != NULL);
	block_order_correlation(p, b, &nb);
	memsim_destroy(p);
	p = memsim_create_policy(SIM_NID, big_range, 1, big_zones, "shuffle-entropy", 0, 1235);
	KASSERT_TRUE(t, p != NULL);
	block_order_correlation(p, c, &nc);
	memsim_destroy(p);
	KEXPECT_EQ(t, na, nb);
	KEXPECT_TRUE(t, na == nb && !memcmp(a, b, na * sizeof(a[0])));
	KEXPECT_TRUE(t, na != nc || memcmp(a, c, na * sizeof(a[0])) != 0);
}

/* Entropy on free: shuffle-order blocks go to either end of their list. */
static void test_entropy_on_free_uses_both_ends(struct ktest *t)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, big_range, 1, big_zones,
							 "shuffle-entropy", 0, 5);
	struct zone *z;
	struct page *blocks[32];
	int heads = 0, tails = 0;

	KASSERT_TRUE(t, pgdat != NULL);
	z = &pgdat->node_zones[ZONE_NORMAL];
	for (int i = 0; i < 32; i++) {
		blocks[i] = alloc_pages_node(SIM_NID, __GFP_MOVABLE, MAX_ORDER - 1);
		KASSERT_TRUE(t, blocks[i] != NULL);
	}
	for (int i = 0; i < 32; i++) {
		struct list_head *l = &z->free_area[MAX_ORDER - 1].free_list[MIGRATE_MOVABLE];

		__free_pages(blocks[i], MAX_ORDER - 1);
		if (l->next == &blocks[i]->lru)
			heads++;
		else if (l->prev == &blocks[i]->lru)
			tails++;
	}
	ktest_log(t, "32 frees: %d to the head, %d to the tail", heads, tails);
	KEXPECT_EQ(t, heads + tails, 32);
	KEXPECT_GT(t, heads, 4);
	KEXPECT_GT(t, tails, 4);
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

/* --- zones, migratetypes, failures --------------------------------------------- */

/*
 * Zones that end inside a max-order block (DMA at 4608 frames, DMA32 at
 * 11776: not multiples of 1024). The last block of DMA has its buddy in
 * DMA32: merging the two would put frames of one zone on the other's free
 * lists, which the verifier reports as a block outside its zone. Every
 * other simulated node has max-order-aligned zone ends, where no buddy
 * ever lies across a boundary.
 */
static void test_zone_end_inside_a_block(struct ktest *t)
{
	static const unsigned long zones[MAX_NR_ZONES] = { 4096 + 512, 12288 - 512, 20480 };
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, sim_ranges,
							 ARRAY_SIZE(sim_ranges), zones,
							 "inorder", 0, 1);
	struct list_head taken;
	struct page *p, *n;
	unsigned long before;

	KASSERT_TRUE(t, pgdat != NULL);
	expect_consistent(t, pgdat);
	before = node_free_pages(pgdat);
	/* Take everything in order-9 pieces and give it back: each free merges. */
	INIT_LIST_HEAD(&taken);
	while ((p = alloc_pages_node(SIM_NID, __GFP_DMA | __GFP_NOWARN, 9)))
		list_add(&p->lru, &taken);
	while ((p = alloc_pages_node(SIM_NID, __GFP_NOWARN, 9)))
		list_add(&p->lru, &taken);
	list_for_each_entry_safe(p, n, &taken, lru) {
		list_del(&p->lru);
		__free_pages(p, 9);
	}
	drain_all_pages(pgdat);
	KEXPECT_EQ(t, node_free_pages(pgdat), before);
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

static void test_zones_and_fallback(struct ktest *t)
{
	struct pglist_data *pgdat = sim_node(t, false, 1);
	unsigned long base;
	struct list_head taken;
	struct page *p, *n;
	bool dma_ok = true, dma32_ok = true;

	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	INIT_LIST_HEAD(&taken);
	for (int i = 0; i < 100; i++) {
		p = alloc_pages_node(SIM_NID, __GFP_DMA, 0);
		KASSERT_TRUE(t, p != NULL);
		dma_ok = dma_ok && page_to_pfn(p) - base < sim_zones[ZONE_DMA];
		list_add(&p->lru, &taken);
		p = alloc_pages_node(SIM_NID, __GFP_DMA32, 1);
		KASSERT_TRUE(t, p != NULL);
		dma32_ok = dma32_ok && page_to_pfn(p) - base < sim_zones[ZONE_DMA32];
		__free_pages(p, 1);
	}
	KEXPECT_TRUE(t, dma_ok);
	KEXPECT_TRUE(t, dma32_ok);
	/* Empty Normal: GFP_KERNEL must fall back to DMA32, then DMA. */
	while ((p = alloc_pages_node(SIM_NID, __GFP_NOWARN, 0)) &&
	       page_zone(p)->idx == ZONE_NORMAL)
		list_add(&p->lru, &taken);
	KASSERT_TRUE(t, p != NULL);
	KEXPECT_EQ(t, page_zone(p)->idx, ZONE_DMA32);
	list_add(&p->lru, &taken);
	/* A DMA request never climbs: with DMA empty it fails. */
	while ((p = alloc_pages_node(SIM_NID, __GFP_DMA | __GFP_NOWARN, 0)))
		list_add(&p->lru, &taken);
	KEXPECT_EQ(t, pgdat->node_zones[ZONE_DMA].free_pages, 0);
	KEXPECT_GT(t, pgdat->node_zones[ZONE_DMA32].free_pages, 0);
	list_for_each_entry_safe(p, n, &taken, lru) {
		list_del(&p->lru);
		__free_page(p);
	}
	drain_all_pages(pgdat);
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

static void test_migratetype_steal(struct ktest *t)
{
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, big_range, 1, big_zones,
							 "inorder", 0, 1);
	struct page *u, *m;

	KASSERT_TRUE(t, pgdat != NULL);
	/* Everything starts movable; the first unmovable request steals. */
	u = alloc_pages_node(SIM_NID, GFP_KERNEL, 3);
	KASSERT_TRUE(t, u != NULL);
	KEXPECT_EQ(t, get_pageblock_migratetype(u), MIGRATE_UNMOVABLE);
	/* Its neighbours came along: the next unmovable one is close by. */
	m = alloc_pages_node(SIM_NID, GFP_KERNEL, 3);
	KASSERT_TRUE(t, m != NULL);
	KEXPECT_EQ(t, page_to_pfn(m) >> pageblock_order, page_to_pfn(u) >> pageblock_order);
	__free_pages(m, 3);
	/* A movable request is served from another pageblock. */
	m = alloc_pages_node(SIM_NID, __GFP_MOVABLE, 3);
	KASSERT_TRUE(t, m != NULL);
	KEXPECT_EQ(t, get_pageblock_migratetype(m), MIGRATE_MOVABLE);
	KEXPECT_NE(t, page_to_pfn(m) >> pageblock_order, page_to_pfn(u) >> pageblock_order);
	__free_pages(m, 3);
	__free_pages(u, 3);
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

static void test_fail_page_alloc(struct ktest *t)
{
	struct pglist_data *pgdat = sim_node(t, false, 1);
	unsigned long before = fail_page_alloc_injected();
	int failed_at[4], nfail = 0;

	if (!pgdat)
		return;
	fail_page_alloc_set(3, 100, 2); /* every 3rd call, twice */
	for (int i = 1; i <= 12; i++) {
		struct page *p = alloc_pages_node(SIM_NID, __GFP_NOWARN, 2);

		if (!p) {
			if (nfail < 4)
				failed_at[nfail] = i;
			nfail++;
		} else {
			__free_pages(p, 2);
		}
	}
	fail_page_alloc_set(1, 100, 0); /* off */
	KEXPECT_EQ(t, nfail, 2);
	KEXPECT_EQ(t, failed_at[0], 3);
	KEXPECT_EQ(t, failed_at[1], 6);
	KEXPECT_EQ(t, fail_page_alloc_injected() - before, 2);
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

static void test_impossible_requests(struct ktest *t)
{
	struct pglist_data *pgdat = sim_node(t, false, 1);
	struct page *p;

	if (!pgdat)
		return;
	KEXPECT_TRUE(t, alloc_pages_node(SIM_NID, __GFP_NOWARN, MAX_ORDER) == NULL);
	KEXPECT_TRUE(t, alloc_pages_node(SIM_NID, __GFP_NOWARN, 40) == NULL);
	/* The DMA zone's holes leave one whole 4 MiB block (pfns 1024-2047):
	 * one order-10 DMA request succeeds, the next cannot. */
	p = alloc_pages_node(SIM_NID, __GFP_DMA | __GFP_NOWARN, MAX_ORDER - 1);
	KASSERT_TRUE(t, p != NULL);
	KEXPECT_EQ(t, page_to_pfn(p) - pgdat->node_start_pfn, 1024);
	KEXPECT_TRUE(t, alloc_pages_node(SIM_NID, __GFP_DMA | __GFP_NOWARN,
					 MAX_ORDER - 1) == NULL);
	__free_pages(p, MAX_ORDER - 1);
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

static void test_bad_frees_refused(struct ktest *t)
{
	struct pglist_data *pgdat = sim_node(t, false, 1);
	struct page *p, *q;
	unsigned long free_before;

	if (!pgdat)
		return;
	p = alloc_pages_node(SIM_NID, 0, 2);
	KASSERT_TRUE(t, p != NULL);
	__free_pages(p, 2);
	drain_all_pages(pgdat);
	free_before = node_free_pages(pgdat);
	ktest_expect_reports(t, true);	/* three "bad free" reports follow */
	__free_pages(p, 2); /* double free */
	KEXPECT_EQ(t, pgdat->bad_pages, 1);
	KEXPECT_EQ(t, node_free_pages(pgdat), free_before);
	/* A frame in a hole was never the allocator's to take back. */
	__free_pages(pfn_to_page(pgdat->node_start_pfn + 3200), 0);
	KEXPECT_EQ(t, pgdat->bad_pages, 2);
	/* Freed with the wrong order. */
	q = alloc_pages_node(SIM_NID, 0, 3);
	KASSERT_TRUE(t, q != NULL);
	__free_pages(q, 2);
	ktest_expect_reports(t, false);
	KEXPECT_EQ(t, pgdat->bad_pages, 3);
	__free_pages(q, 3);
	KEXPECT_EQ(t, pgdat->bad_pages, 3);
	drain_all_pages(pgdat);
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

/*
 * split_page(): an order-9 block (a transparent huge page's, mm/memory.c)
 * comes back as 512 frees of order 0, in any order, and the buddy merge
 * restores the free set the allocation took it from; a split page freed
 * at the block's order is a bad free.
 */
static void test_split_page(struct ktest *t)
{
	struct pglist_data *pgdat = sim_node(t, false, 1);
	unsigned long before;
	struct page *p;
	size_t n0;

	if (!pgdat)
		return;
	drain_all_pages(pgdat);
	before = node_free_pages(pgdat);
	n0 = free_set(pgdat, set_a, MAX_SET);
	p = alloc_pages_node(SIM_NID, __GFP_NOWARN, 9);
	KASSERT_TRUE(t, p != NULL);
	split_page(p, 9);
	for (unsigned int i = 0; i < 512; i++)
		KEXPECT_TRUE(t, p[i].refcount == 1 && p[i].order == 0 && !PageHead(&p[i]));
	/* odd pages first, then even ones, backwards: no order helps the merge */
	for (int i = 1; i < 512; i += 2)
		__free_page(&p[i]);
	for (int i = 510; i >= 0; i -= 2)
		__free_page(&p[i]);
	KEXPECT_EQ(t, pgdat->bad_pages, 0);
	drain_all_pages(pgdat);
	expect_consistent(t, pgdat);
	KEXPECT_EQ(t, node_free_pages(pgdat), before);
	KEXPECT_EQ(t, free_set(pgdat, set_b, MAX_SET), n0);
	KEXPECT_TRUE(t, !memcmp(set_a, set_b, n0 * sizeof(set_a[0])));
	p = alloc_pages_node(SIM_NID, __GFP_NOWARN, 9);
	KASSERT_TRUE(t, p != NULL);
	split_page(p, 9);
	ktest_expect_reports(t, true);
	__free_pages(p, 9);
	ktest_expect_reports(t, false);
	KEXPECT_EQ(t, pgdat->bad_pages, 1);
	for (int i = 0; i < 512; i++)
		__free_page(&p[i]);
	KEXPECT_EQ(t, pgdat->bad_pages, 1);
	drain_all_pages(pgdat);
	expect_consistent(t, pgdat);
	KEXPECT_EQ(t, node_free_pages(pgdat), before);
	memsim_destroy(pgdat);
}

/*
 * The seed's hot-add path: half the memory arrives later; onlining it
 * shuffles the zone again, so the new blocks are not handed out in order.
 */
static void test_online_later_is_shuffled(struct ktest *t)
{
	static const struct memsim_range halves[] = {
		{ 0, 32 * 1024, false }, { 32 * 1024, 64 * 1024, true },
	};
	struct pglist_data *pgdat = memsim_create_policy(SIM_NID, halves, 2, big_zones,
							 "shuffle-entropy", 0, 3);
	struct policy_stats before, after;
	unsigned long seq[64];
	size_t n;
	long rho;

	KASSERT_TRUE(t, pgdat != NULL);
	KEXPECT_EQ(t, pgdat->node_zones[ZONE_NORMAL].managed_pages, 32 * 1024);
	KEXPECT_EQ(t, memsim_online(pgdat, 0, 16), 0); /* already online */
	policy_stats(pgdat, &before);
	KEXPECT_EQ(t, memsim_online(pgdat, 32 * 1024, 64 * 1024), 32 * 1024);
	KEXPECT_EQ(t, pgdat->node_zones[ZONE_NORMAL].managed_pages, 64 * 1024);
	policy_stats(pgdat, &after);
	KEXPECT_GT(t, after.moved, before.moved + 16);
	expect_consistent(t, pgdat);
	rho = block_order_correlation(pgdat, seq, &n);
	KEXPECT_EQ(t, n, 64);
	ktest_log(t, "rank correlation after onlining: %ld/1000", rho);
	KEXPECT_LT(t, rho < 0 ? -rho : rho, 400);
	memsim_destroy(pgdat);
}

/*
 * Deferred struct page init (page_alloc.c): a node built with no struct
 * page written hands out the very same frames as one written whole (on a
 * layout of whole max-order blocks, where the fully written node has no
 * small block elsewhere to offer first), stays consistent while partly
 * written, and ends with the same free memory once completed.
 */
static unsigned long deferred_workload(int nid, unsigned long *pfns, int n)
{
	static const gfp_t gfps[] = { GFP_KERNEL, __GFP_DMA32, __GFP_DMA,
				      GFP_KERNEL | __GFP_MOVABLE };
	struct pglist_data *pgdat = NODE_DATA(nid);
	struct page *live[64] = { NULL };
	unsigned int live_order[64];
	struct rng r;
	unsigned long got = 0;

	rng_seed(&r, 7);
	for (int i = 0; i < n; i++) {
		unsigned int slot = rng_u32(&r) % 64, order = rng_u32(&r) % 5;
		struct page *p;

		if (live[slot]) {
			__free_pages(live[slot], live_order[slot]);
			live[slot] = NULL;
		}
		p = alloc_pages_node(nid, gfps[i % 4] | __GFP_NOWARN, order);
		pfns[i] = p ? page_to_pfn(p) - pgdat->node_start_pfn : ~0UL;
		live[slot] = p;
		live_order[slot] = order;
		got += p != NULL;
	}
	for (int i = 0; i < 64; i++)
		if (live[i])
			__free_pages(live[i], live_order[i]);
	drain_all_pages(pgdat);
	return got;
}

static void test_deferred_init_same_pages(struct ktest *t)
{
	static const struct memsim_range aligned[] = {
		{ 0, 3072, false }, { 4096, 12288, false }, { 13312, 20480, false },
	};
	static const unsigned long zones[MAX_NR_ZONES] = { 2048, 8192, 20480 };
	static unsigned long full_pfns[4000], deferred_pfns[4000];
	struct pglist_data *full, *deferred;
	unsigned long full_free, got;
	struct zone *z;
	char why[160];

	full = memsim_create_deferred(SIM_NID, aligned, ARRAY_SIZE(aligned), zones,
				      "inorder", 1, ~0UL);
	KASSERT_TRUE(t, full != NULL);
	KEXPECT_FALSE(t, full->deferred_pending);
	got = deferred_workload(SIM_NID, full_pfns, ARRAY_SIZE(full_pfns));
	full_free = node_free_pages(full);
	memsim_destroy(full);

	deferred = memsim_create_deferred(SIM_NID, aligned, ARRAY_SIZE(aligned), zones,
					  "inorder", 1, 0);
	KASSERT_TRUE(t, deferred != NULL);
	KEXPECT_TRUE(t, deferred->deferred_pending);
	KEXPECT_EQ(t, node_free_pages(deferred), 0);
	KEXPECT_EQ(t, deferred_workload(SIM_NID, deferred_pfns, ARRAY_SIZE(deferred_pfns)), got);
	KEXPECT_TRUE(t, !memcmp(full_pfns, deferred_pfns, sizeof(full_pfns)));
	/* part written: what is there is consistent, and not all is there */
	KEXPECT_EQ(t, page_alloc_verify(deferred, why, sizeof(why)), 0);
	KEXPECT_TRUE(t, deferred->deferred_pending);
	deferred_init_all(deferred);
	KEXPECT_FALSE(t, deferred->deferred_pending);
	for_each_zone_in_node(z, deferred)
		KEXPECT_EQ(t, z->first_deferred_pfn, zone_end_pfn(z));
	KEXPECT_EQ(t, node_free_pages(deferred), full_free);
	expect_consistent(t, deferred);
	memsim_destroy(deferred);

	/* holes, odd ends and zone edges: a partly written node stays sound */
	deferred = sim_deferred("inorder", 2048);
	KASSERT_TRUE(t, deferred != NULL);
	deferred_workload(SIM_NID, deferred_pfns, 1000);
	expect_consistent(t, deferred);
	while (deferred_init_chunk(deferred))
		expect_consistent(t, deferred);
	full = NULL;
	memsim_destroy(deferred);
	full = sim_node(t, false, 1);
	KASSERT_TRUE(t, full != NULL);
	full_free = node_free_pages(full);
	memsim_destroy(full);
	deferred = sim_deferred("inorder", 0);
	KASSERT_TRUE(t, deferred != NULL);
	deferred_init_all(deferred);
	KEXPECT_EQ(t, node_free_pages(deferred), full_free);
	expect_consistent(t, deferred);
	memsim_destroy(deferred);
	/* a policy that needs the whole node is never deferred */
	deferred = sim_deferred("shuffle", 0);
	KASSERT_TRUE(t, deferred != NULL);
	KEXPECT_FALSE(t, deferred->deferred_pending);
	KEXPECT_EQ(t, node_free_pages(deferred), full_free);
	memsim_destroy(deferred);
}

/*
 * A hash of every buddy free list of the node, in list order: equal for
 * two nodes only if the same blocks are on the same lists in the same order.
 */
static u64 free_lists_hash(struct pglist_data *pgdat)
{
	u64 h = 1469598103934665603ULL;
	struct zone *z;

	for_each_zone_in_node(z, pgdat)
		for (int o = 0; o < MAX_ORDER; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct page *p;

				list_for_each_entry(p, &z->free_area[o].free_list[mt], lru)
					h = (h ^ page_to_pfn(p)) * 1099511628211ULL;
				h = (h ^ (u64)(o * MIGRATE_TYPES + mt + 1)) * 1099511628211ULL;
			}
	return h;
}

/*
 * Fragment the node the same way each time: allocations of mixed orders
 * from a fixed seed, every third one freed again (the rest stay).
 */
static void fragment_node(struct rng *r, struct page **kept, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int order = rng_u32(r) % 4;
		struct page *p = alloc_pages_node(SIM_NID, __GFP_NOWARN, order);

		kept[i] = NULL;
		if (p && i % 3 == 0)
			__free_pages(p, order);
		else
			kept[i] = p;
	}
}

/* A hash of this CPU's pcp lists of the node, in list order. */
static u64 pcp_lists_hash(struct pglist_data *pgdat)
{
	u64 h = 1469598103934665603ULL;
	struct zone *z;

	for_each_zone_in_node(z, pgdat)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct page *p;

			list_for_each_entry(p, &z->pcp[smp_processor_id()].lists[mt], lru)
				h = (h ^ page_to_pfn(p)) * 1099511628211ULL;
			h = (h ^ (u64)(mt + 1)) * 1099511628211ULL;
		}
	return h;
}

/*
 * One run for the test below: build and fragment the holey node, then
 * allocate order-0 pages of both migratetypes (so that refills also steal)
 * with the per-CPU lists on; the frames handed out go to pfns, the state
 * of the free lists and pcp lists to the hashes.
 */
static unsigned long refill_run(struct ktest *t, bool carve, unsigned long *pfns,
				unsigned int n, u64 *free_hash, u64 *pcp_hash)
{
	static struct page *kept[300];
	bool saved_carve = page_alloc_bulk_carve;
	struct pglist_data *pgdat = sim_node(t, false, 1);
	unsigned long got = 0;
	struct rng r;

	if (!pgdat)
		return 0;
	page_alloc_pcp = false;
	rng_seed(&r, 99);
	fragment_node(&r, kept, ARRAY_SIZE(kept));
	/* one CPU's lists throughout: this CPU's refills are what is compared */
	preempt_disable();
	page_alloc_pcp = true;
	page_alloc_bulk_carve = carve;
	for (unsigned int i = 0; i < n; i++) {
		gfp_t gfp = __GFP_NOWARN | (i % 5 == 4 ? __GFP_MOVABLE : 0);
		struct page *p = alloc_pages_node(SIM_NID, gfp, 0);

		if (!p)
			break;
		pfns[got++] = page_to_pfn(p);
	}
	page_alloc_bulk_carve = saved_carve;
	*free_hash = free_lists_hash(pgdat);
	*pcp_hash = pcp_lists_hash(pgdat);
	preempt_enable();
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
	return got;
}

/*
 * The per-CPU refill cuts whole blocks at once (rmqueue_bulk()): it must
 * hand out the very frames, in the very order, that refilling page by
 * page does, and leave the same free lists and pcp lists behind, also
 * when it runs out of a migratetype and steals from the other.
 */
static void test_pcp_refill_same_as_page_by_page(struct ktest *t)
{
	enum { N = 3000 };
	static unsigned long pfns_cut[N], pfns_one[N];
	bool saved = page_alloc_pcp;
	u64 free_cut, free_one, pcp_cut, pcp_one;
	unsigned long got_cut, got_one;

	got_cut = refill_run(t, true, pfns_cut, N, &free_cut, &pcp_cut);
	got_one = refill_run(t, false, pfns_one, N, &free_one, &pcp_one);
	page_alloc_pcp = saved;
	KEXPECT_EQ(t, got_cut, (unsigned long)N);
	KEXPECT_EQ(t, got_one, got_cut);
	KEXPECT_TRUE(t, !memcmp(pfns_cut, pfns_one, sizeof(pfns_cut)));
	KEXPECT_EQ(t, free_cut, free_one);
	KEXPECT_EQ(t, pcp_cut, pcp_one);
}

/*
 * One run for the test below: on the fragmented holey node, a burst of
 * order-0 pages of both migratetypes with the per-CPU lists on, then
 * freed in several orders (allocation order, runs that cross pageblocks,
 * backwards, every other page), so that the lists go over their high
 * mark many times; hashes of the lists after the frees and after a full
 * drain.
 */
static void drain_run(struct ktest *t, bool runs, u64 hash[3])
{
	enum { N = 3000 };
	static struct page *kept[300], *got[N];
	bool saved_runs = page_alloc_drain_runs;
	struct pglist_data *pgdat = sim_node(t, false, 1);
	unsigned int n = 0;
	struct rng r;

	if (!pgdat)
		return;
	page_alloc_pcp = false;
	rng_seed(&r, 7);
	fragment_node(&r, kept, ARRAY_SIZE(kept));
	preempt_disable();
	page_alloc_pcp = true;
	page_alloc_drain_runs = runs;
	for (; n < N; n++) {
		gfp_t gfp = __GFP_NOWARN | (n % 7 == 6 ? __GFP_MOVABLE : 0);

		got[n] = alloc_pages_node(SIM_NID, gfp, 0);
		if (!got[n])
			break;
	}
	KEXPECT_EQ(t, n, (unsigned int)N);
	/* the first third in allocation order */
	for (unsigned int i = 0; i < n / 3; i++)
		__free_pages(got[i], 0);
	/* the next third backwards, */
	for (unsigned int i = 2 * n / 3; i-- > n / 3;)
		if (i % 2)
			__free_pages(got[i], 0);
	for (unsigned int i = 2 * n / 3; i-- > n / 3;)
		if (!(i % 2))
			__free_pages(got[i], 0);
	/* the last third every other page, then the rest */
	for (unsigned int i = 2 * n / 3; i < n; i += 2)
		__free_pages(got[i], 0);
	hash[0] = free_lists_hash(pgdat);
	for (unsigned int i = 2 * n / 3 + 1; i < n; i += 2)
		__free_pages(got[i], 0);
	hash[1] = free_lists_hash(pgdat) ^ pcp_lists_hash(pgdat);
	drain_zone_pages(&pgdat->node_zones[ZONE_NORMAL]);
	drain_zone_pages(&pgdat->node_zones[ZONE_DMA32]);
	drain_zone_pages(&pgdat->node_zones[ZONE_DMA]);
	hash[2] = free_lists_hash(pgdat);
	page_alloc_drain_runs = saved_runs;
	preempt_enable();
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
}

/*
 * A per-CPU drain frees a run of consecutive frames as the aligned
 * blocks it makes up (free_pcp_run()): the free lists must end exactly
 * as freeing the pages one by one leaves them, block for block and in
 * the same places on the lists.
 */
static void test_pcp_drain_runs_same_as_page_by_page(struct ktest *t)
{
	bool saved = page_alloc_pcp;
	u64 with_runs[3], one_by_one[3];

	drain_run(t, true, with_runs);
	drain_run(t, false, one_by_one);
	page_alloc_pcp = saved;
	for (int i = 0; i < 3; i++)
		KEXPECT_EQ(t, with_runs[i], one_by_one[i]);
}

/*
 * Pageblock-order blocks wait on the per-CPU cache when freed and are
 * handed out again from it; the cache holds at most PCP_MAX_BLOCKS, the
 * invariants hold with blocks cached, an allocation that needs a cached
 * block's memory gets it (the slow path gives the blocks back and tries
 * again), and a policy with hooks never caches.
 */
/*
 * A node whose memory all lies below 4 GiB has no Normal zone (a 1 GiB
 * machine): its GFP_KERNEL allocations start in DMA32, whose per-CPU
 * caches its frees fill, so a freed block is what the next request gets
 * (before, the request looked in the empty Normal zone's cache first and
 * reached DMA32 through the fallback, past the cache).
 */
static void test_first_zone_without_normal(struct ktest *t)
{
	static const unsigned long low_zones[MAX_NR_ZONES] = { 0, 64 * 1024, 64 * 1024 };
	bool saved = page_alloc_pcp, saved_blocks = page_alloc_pcp_blocks;
	struct per_cpu_pages *pcp;
	struct pglist_data *pgdat;
	struct page *a, *b;

	pgdat = memsim_create_policy(SIM_NID, big_range, 1, low_zones, "inorder", 0, 1);
	KASSERT_TRUE(t, pgdat != NULL);
	KEXPECT_TRUE(t, zone_is_empty(&pgdat->node_zones[ZONE_NORMAL]));
	page_alloc_pcp = true;
	page_alloc_pcp_blocks = true;
	preempt_disable();
	pcp = &pgdat->node_zones[ZONE_DMA32].pcp[smp_processor_id()];
	a = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
	KEXPECT_TRUE(t, a && page_zone(a) == &pgdat->node_zones[ZONE_DMA32]);
	if (a) {
		__free_pages(a, pageblock_order);
		KEXPECT_EQ(t, pcp->nr_blocks, 1);
		b = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
		KEXPECT_TRUE(t, b == a); /* from DMA32's cache */
		KEXPECT_EQ(t, pcp->nr_blocks, 0);
		if (b)
			__free_pages(b, pageblock_order);
	}
	preempt_enable();
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
	page_alloc_pcp = saved;
	page_alloc_pcp_blocks = saved_blocks;
}

/* A policy that only counts the blocks freed back to the buddy lists. */
static unsigned long count_frees;

static void count_freed(struct pglist_data *pgdat, unsigned long pfn, unsigned int order)
{
	count_frees++;
}

static const struct page_alloc_policy count_frees_policy = {
	.name = "count-frees", .desc = "test: counts frees", .freed = count_freed,
};

static void test_pcp_blocks(struct ktest *t)
{
	enum { NR = 64 };           /* order-10 blocks of the 256 MiB node */
	static struct page *big[NR];
	bool saved = page_alloc_pcp, saved_blocks = page_alloc_pcp_blocks;
	struct page *a, *b, *c, *d;
	struct pglist_data *pgdat;
	struct per_cpu_pages *pcp;
	unsigned long got = 0;

	pgdat = memsim_create_policy(SIM_NID, big_range, 1, big_zones, "inorder", 0, 1);
	KASSERT_TRUE(t, pgdat != NULL);
	page_alloc_pcp = true;
	page_alloc_pcp_blocks = true;
	/* one CPU's cache throughout */
	preempt_disable();
	pcp = &pgdat->node_zones[ZONE_NORMAL].pcp[smp_processor_id()];
	a = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
	b = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
	c = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
	KEXPECT_TRUE(t, a && b && c);
	/* in address order: a and b are buddies, one order-10 block */
	KEXPECT_EQ(t, page_to_pfn(b), page_to_pfn(a) + pageblock_nr_pages);
	__free_pages(a, pageblock_order);
	KEXPECT_EQ(t, pcp->nr_blocks, 1);
	d = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
	KEXPECT_TRUE(t, d == a); /* from the cache */
	KEXPECT_EQ(t, pcp->nr_blocks, 0);
	__free_pages(d, pageblock_order);
	__free_pages(b, pageblock_order);
	__free_pages(c, pageblock_order); /* over the limit: to the buddy lists */
	KEXPECT_EQ(t, pcp->nr_blocks, PCP_MAX_BLOCKS);
	KEXPECT_EQ(t, node_free_pages(pgdat) + pcp_free_pages(pcp),
		   big_range[0].end - big_range[0].start);
	expect_consistent(t, pgdat);
	/* every order-10 block, the one a and b make included */
	while (got < NR && (big[got] = alloc_pages_node(SIM_NID, __GFP_NOWARN, MAX_ORDER - 1)))
		got++;
	KEXPECT_EQ(t, got, (unsigned long)NR);
	KEXPECT_EQ(t, pcp->nr_blocks, 0);
	while (got)
		__free_pages(big[--got], MAX_ORDER - 1);
	preempt_enable();
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);

	/* a policy that counts frees: nothing is cached, the count is
	 * owed every block that comes back (as the colour policy's is) */
	pgdat = memsim_create_policy(SIM_NID, big_range, 1, big_zones, "inorder", 0, 1);
	KASSERT_TRUE(t, pgdat != NULL);
	policy_set(pgdat, &count_frees_policy);
	count_frees = 0;
	preempt_disable();
	pcp = &pgdat->node_zones[ZONE_NORMAL].pcp[smp_processor_id()];
	a = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
	KEXPECT_TRUE(t, a != NULL);
	if (a)
		__free_pages(a, pageblock_order);
	KEXPECT_EQ(t, pcp->nr_blocks, 0);
	KEXPECT_EQ(t, count_frees, a ? 1UL : 0UL);
	preempt_enable();
	policy_set(pgdat, &policy_inorder);
	memsim_destroy(pgdat);

	/*
	 * The shuffle's entropy on free decides only where a block is
	 * listed: the block waits on the cache, and is given its random
	 * end when it is drained (one bit of the policy's stream drawn).
	 */
	pgdat = memsim_create_policy(SIM_NID, big_range, 1, big_zones, "shuffle-entropy", 0, 1);
	KASSERT_TRUE(t, pgdat != NULL);
	preempt_disable();
	pcp = &pgdat->node_zones[ZONE_NORMAL].pcp[smp_processor_id()];
	a = alloc_pages_node(SIM_NID, __GFP_NOWARN, pageblock_order);
	KEXPECT_TRUE(t, a != NULL);
	if (a) {
		struct shuffle_state *s = pgdat->policy_data;
		unsigned int bits;

		__free_pages(a, pageblock_order);
		KEXPECT_EQ(t, pcp->nr_blocks, 1);
		bits = s->rand_nbits;
		drain_zone_pages(&pgdat->node_zones[ZONE_NORMAL]);
		KEXPECT_EQ(t, pcp->nr_blocks, 0);
		/* merged with its buddy to the shuffle's order: one bit asked */
		KEXPECT_EQ(t, s->rand_nbits, bits ? bits - 1 : 63);
	}
	KEXPECT_EQ(t, node_free_pages(pgdat), big_range[0].end - big_range[0].start);
	preempt_enable();
	expect_consistent(t, pgdat);
	memsim_destroy(pgdat);
	page_alloc_pcp = saved;
	page_alloc_pcp_blocks = saved_blocks;
}

static struct ktest_case page_alloc_cases[] = {
	KTEST_CASE(test_deferred_init_same_pages),
	KTEST_CASE(test_random_workload_restores_free_lists),
	KTEST_CASE(test_everything_allocatable_once),
	KTEST_CASE(test_every_policy_keeps_invariants),
	KTEST_CASE(test_every_policy_repeats_with_a_seed),
	KTEST_CASE(test_unshuffled_allocation_follows_address_order),
	KTEST_CASE(test_shuffled_allocation_uncorrelated),
	KTEST_CASE(test_shuffle_permutes_free_set),
	KTEST_CASE(test_fixed_seed_reproduces),
	KTEST_CASE(test_split_page),
	KTEST_CASE(test_entropy_on_free_uses_both_ends),
	KTEST_CASE(test_zones_and_fallback),
	KTEST_CASE(test_zone_end_inside_a_block),
	KTEST_CASE(test_migratetype_steal),
	KTEST_CASE(test_fail_page_alloc),
	KTEST_CASE(test_impossible_requests),
	KTEST_CASE(test_bad_frees_refused),
	KTEST_CASE(test_online_later_is_shuffled),
	KTEST_CASE(test_pcp_refill_same_as_page_by_page),
	KTEST_CASE(test_pcp_drain_runs_same_as_page_by_page),
	KTEST_CASE(test_pcp_blocks),
	KTEST_CASE(test_first_zone_without_normal),
	{}
};
KTEST_SUITE(page_alloc, page_alloc_cases);
