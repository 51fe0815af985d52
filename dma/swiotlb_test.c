// SPDX-License-Identifier: MIT
/*
 * The SWIOTLB slot allocator against a model (runs on the host under ASan
 * and in the kernel): random map/unmap sequences with every alignment and
 * size up to a segment, area hashing, exhaustion falling back to a
 * transient pool and then failing cleanly, growth, restricted pools.
 *
 * The memory comes from kmalloc through the test ops with a byte budget
 * (swiotlb_test_ops.h).
 */
#include <pagoda/ktest.h>
#include <pagoda/random.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>
#include "swiotlb_test_ops.h"

static void setup(struct io_tlb_mem *mem, struct device *dev, unsigned long nslabs,
		  unsigned int nareas, bool can_grow, long bytes)
{
	struct io_tlb_pool *pool;

	tlb_state.budget = bytes;
	tlb_state.cpu = 0;
	tlb_state.grow_requests = 0;
	swiotlb_mem_init(mem, &swiotlb_test_ops, nslabs, nareas, can_grow);
	pool = swiotlb_alloc_pool(mem, nslabs, nareas, ~0ULL, true);
	if (pool)
		swiotlb_add_pool(mem, pool);
	*dev = (struct device){ .name = "swiotlbtest", .dma_mask = ~0ULL };
}

/* Every slot's free count must be what the used slots imply. */
static int check_lists(struct io_tlb_pool *pool)
{
	unsigned long i, run = 0;

	for (i = pool->nslabs; i-- > 0;) {
		if ((i + 1) % IO_TLB_SEGSIZE == 0)
			run = 0;
		if (pool->slots[i].orig_addr != INVALID_PHYS_ADDR)
			run = 0;
		else
			run++;
		if (pool->slots[i].list != run)
			return -1;
	}
	return 0;
}

/* Could any area of the pool hold nslots slots aligned like this? */
static bool model_fits(struct io_tlb_pool *pool, unsigned long nslots, u64 mask, u64 match)
{
	unsigned long i, j;

	for (i = 0; i < pool->nslabs; i++) {
		if (((pool->start + (i << IO_TLB_SHIFT)) & mask) != match)
			continue;
		if (i / IO_TLB_SEGSIZE != (i + nslots - 1) / IO_TLB_SEGSIZE ||
		    i + nslots > pool->nslabs)
			continue;
		for (j = 0; j < nslots; j++)
			if (pool->slots[i + j].orig_addr != INVALID_PHYS_ADDR)
				break;
		if (j == nslots)
			return true;
	}
	return false;
}

struct live {
	phys_addr_t tlb;
	size_t size;
};

#define NLIVE 48
#define SRC_SIZE (1 << 20)

/*
 * nsegs segments of IO_TLB_SEGSIZE slots in nareas areas: with more than
 * one segment per area, a free run that is renumbered past its segment's
 * start (from the area's instead) shows in check_lists().
 */
static void random_against_model(struct ktest *t, unsigned long nsegs, unsigned int nareas)
{
	static const unsigned int min_masks[] = { 0, 0x3f, 0x7ff, 0xfff, 0x3fff };
	static const unsigned int align_masks[] = { 0, 0x7ff, 0xfff, 0x7fff };
	struct live live[NLIVE] = {};
	struct io_tlb_mem mem;
	struct io_tlb_pool *pool;
	struct device dev;
	u8 *src = kmalloc(SRC_SIZE, GFP_KERNEL);
	unsigned long maps = 0, fails = 0;
	int step, i;

	KASSERT_TRUE(t, src != NULL);
	for (i = 0; i < SRC_SIZE; i++)
		src[i] = (u8)(i * 7 + (i >> 9));
	setup(&mem, &dev, nsegs * IO_TLB_SEGSIZE, nareas, false, 64L << 20);
	ktest_expect_reports(t, true);	/* full pools and misuse are reported */
	pool = list_first_entry(&mem.pools, struct io_tlb_pool, node);
	KASSERT_EQ(t, pool->nareas, nareas);
	for (step = 0; step < 6000; step++) {
		struct live *l = &live[get_random_u32() % NLIVE];

		tlb_state.cpu = get_random_u32() % 8;
		if (l->size) {
			u8 *bounce = (u8 *)(uintptr_t)l->tlb;
			u8 *orig;
			struct io_tlb_pool *p = swiotlb_find_pool(&mem, l->tlb);
			unsigned long idx = (l->tlb - p->start) >> IO_TLB_SHIFT;

			orig = (u8 *)(uintptr_t)(p->slots[idx].orig_addr +
						 ((l->tlb - p->start) & (IO_TLB_SIZE - 1)));
			memset(bounce, 0xa5, l->size);
			swiotlb_tbl_unmap_single(&dev, &mem, l->tlb, l->size, DMA_FROM_DEVICE);
			KEXPECT_TRUE(t, orig[0] == 0xa5 && orig[l->size - 1] == 0xa5);
			for (size_t k = 0; k < l->size; k++)
				orig[k] = (u8)(((uintptr_t)&orig[k] - (uintptr_t)src) * 7 +
					       (((uintptr_t)&orig[k] - (uintptr_t)src) >> 9));
			l->size = 0;
		} else {
			unsigned int min_mask = min_masks[get_random_u32() % 5];
			unsigned int align = align_masks[get_random_u32() % 4];
			size_t max = swiotlb_max_mapping_size(&dev);
			size_t size, off;
			phys_addr_t orig, tlb;
			u64 amask, match, total;
			bool fits;

			dev.dma_min_align_mask = min_mask;
			max = swiotlb_max_mapping_size(&dev);
			size = 1 + get_random_u32() % (get_random_u32() % 4 ? 8192 : max);
			off = get_random_u32() % (SRC_SIZE - size);
			orig = (phys_addr_t)(uintptr_t)(src + off);
			amask = (min_mask | align) & ~(u64)(IO_TLB_SIZE - 1);
			match = orig & min_mask & amask;
			total = size + (orig & min_mask & (IO_TLB_SIZE - 1));
			fits = model_fits(pool, (total + IO_TLB_SIZE - 1) >> IO_TLB_SHIFT,
					       amask, match);

			tlb = swiotlb_tbl_map_single(&dev, &mem, orig, size, size, align,
						     DMA_TO_DEVICE);
			if (tlb == INVALID_PHYS_ADDR) {
				fails++;
				KEXPECT_FALSE(t, fits);
				continue;
			}
			maps++;
			KEXPECT_TRUE(t, fits);
			KEXPECT_TRUE(t, tlb >= pool->start && tlb + size <= pool->end);
			KEXPECT_EQ(t, tlb & min_mask, orig & min_mask);
			/* Where the two masks disagree, min_align_mask wins. */
			KEXPECT_EQ(t, (tlb & ~(u64)(IO_TLB_SIZE - 1)) & align & ~min_mask, 0);
			/* One segment: first and last slot in the same one. */
			KEXPECT_EQ(t, ((tlb - pool->start) >> IO_TLB_SHIFT) / IO_TLB_SEGSIZE,
				   ((tlb + size - 1 - pool->start) >> IO_TLB_SHIFT) / IO_TLB_SEGSIZE);
			KEXPECT_EQ(t, memcmp((void *)(uintptr_t)tlb, src + off, size), 0);
			l->tlb = tlb;
			l->size = size;
		}
		if (check_lists(pool)) {
			KEXPECT_TRUE(t, !"free counts disagree with used slots");
			break;
		}
	}
	for (i = 0; i < NLIVE; i++)
		if (live[i].size)
			swiotlb_tbl_unmap_single(&dev, &mem, live[i].tlb, live[i].size,
						 DMA_TO_DEVICE);
	KEXPECT_EQ(t, mem.total_used, 0);
	KEXPECT_EQ(t, swiotlb_pool_used(pool), 0);
	KEXPECT_EQ(t, check_lists(pool), 0);
	KEXPECT_GT(t, maps, 1000);
	KEXPECT_GT(t, fails, 0); /* the sequence did reach a full pool */
	ktest_log(t, "%lu maps, %lu refused, high-water %lu of %lu slots", maps, fails,
		  mem.used_hiwater, mem.nslabs);
	swiotlb_mem_destroy(&mem);
	kfree(src);
}

static void test_random_against_model(struct ktest *t)
{
	random_against_model(t, 4, 4);	/* one segment per area */
	random_against_model(t, 8, 2);	/* four segments per area */
}

/*
 * The search in an area goes on from where the last one ended (Linux's
 * next fit), not from the area's start: a slot just given back is not
 * handed out again at once, which spreads wear and catches a driver that
 * still uses a buffer it unmapped.
 */
static void test_search_goes_on(struct ktest *t)
{
	struct io_tlb_mem mem;
	struct io_tlb_pool *pool;
	struct device dev;
	u8 buf[64];
	phys_addr_t a, b, c;

	setup(&mem, &dev, 4 * IO_TLB_SEGSIZE, 4, false, 4L << 20);
	pool = list_first_entry(&mem.pools, struct io_tlb_pool, node);
	tlb_state.cpu = 1;
	a = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 64, 64, 0,
				   DMA_TO_DEVICE);
	b = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 64, 64, 0,
				   DMA_TO_DEVICE);
	KASSERT_NE(t, a, INVALID_PHYS_ADDR);
	KASSERT_NE(t, b, INVALID_PHYS_ADDR);
	swiotlb_tbl_unmap_single(&dev, &mem, a, 64, DMA_TO_DEVICE);
	c = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 64, 64, 0,
				   DMA_TO_DEVICE);
	KASSERT_NE(t, c, INVALID_PHYS_ADDR);
	/* All three in CPU 1's area; the third after the second, not in the first's slot. */
	KEXPECT_EQ(t, ((a - pool->start) >> IO_TLB_SHIFT) / pool->area_nslabs, 1);
	KEXPECT_EQ(t, c, b + IO_TLB_SIZE);
	swiotlb_tbl_unmap_single(&dev, &mem, b, 64, DMA_TO_DEVICE);
	swiotlb_tbl_unmap_single(&dev, &mem, c, 64, DMA_TO_DEVICE);
	KEXPECT_EQ(t, swiotlb_pool_used(pool), 0);
	swiotlb_mem_destroy(&mem);
}

static void test_area_hashing(struct ktest *t)
{
	struct io_tlb_mem mem;
	struct io_tlb_pool *pool;
	struct device dev;
	u8 buf[64];
	phys_addr_t tlb;

	setup(&mem, &dev, 4 * IO_TLB_SEGSIZE, 4, false, 4L << 20);
	ktest_expect_reports(t, true);	/* full pools and misuse are reported */
	pool = list_first_entry(&mem.pools, struct io_tlb_pool, node);
	for (tlb_state.cpu = 0; tlb_state.cpu < 6; tlb_state.cpu++) {
		tlb = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 64, 64, 0,
					     DMA_TO_DEVICE);
		KASSERT_NE(t, tlb, INVALID_PHYS_ADDR);
		/* CPU n starts in area n mod 4. */
		KEXPECT_EQ(t, ((tlb - pool->start) >> IO_TLB_SHIFT) / pool->area_nslabs,
			   tlb_state.cpu % 4);
	}
	KEXPECT_EQ(t, swiotlb_pool_used(pool), 6);
	swiotlb_mem_destroy(&mem);
}

static void test_bounce_directions(struct ktest *t)
{
	struct io_tlb_mem mem;
	struct device dev;
	u8 buf[3000];
	phys_addr_t tlb;
	u8 *b;

	setup(&mem, &dev, IO_TLB_SEGSIZE, 1, false, 1L << 20);
	ktest_expect_reports(t, true);	/* full pools and misuse are reported */
	memset(buf, 1, sizeof(buf));
	tlb = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, sizeof(buf),
				     sizeof(buf), 0, DMA_BIDIRECTIONAL);
	KASSERT_NE(t, tlb, INVALID_PHYS_ADDR);
	b = (u8 *)(uintptr_t)tlb;
	KEXPECT_EQ(t, b[2999], 1);
	memset(buf, 2, sizeof(buf));
	swiotlb_sync_single_for_device(&dev, &mem, tlb, sizeof(buf), DMA_TO_DEVICE);
	KEXPECT_EQ(t, b[2999], 2);
	memset(b, 3, sizeof(buf));
	/* TO_DEVICE: a sync for the CPU copies nothing back. */
	swiotlb_sync_single_for_cpu(&dev, &mem, tlb, sizeof(buf), DMA_TO_DEVICE);
	KEXPECT_EQ(t, buf[0], 2);
	swiotlb_sync_single_for_cpu(&dev, &mem, tlb, sizeof(buf), DMA_FROM_DEVICE);
	KEXPECT_EQ(t, buf[0], 3);
	KEXPECT_EQ(t, buf[2999], 3);
	memset(b, 4, sizeof(buf));
	swiotlb_tbl_unmap_single(&dev, &mem, tlb, sizeof(buf), DMA_TO_DEVICE);
	KEXPECT_EQ(t, buf[0], 3); /* no copy back for TO_DEVICE */
	KEXPECT_EQ(t, mem.bounced_to_device, 2 * sizeof(buf));
	KEXPECT_EQ(t, mem.bounced_from_device, sizeof(buf));
	/* Unmapping twice is reported and changes nothing. */
	swiotlb_tbl_unmap_single(&dev, &mem, tlb, sizeof(buf), DMA_TO_DEVICE);
	KEXPECT_EQ(t, mem.total_used, 0);
	swiotlb_mem_destroy(&mem);
}

static void test_max_mapping_size(struct ktest *t)
{
	struct io_tlb_mem mem;
	struct device dev;
	u8 *buf = kmalloc(IO_TLB_SEGSIZE * IO_TLB_SIZE + 4096, GFP_KERNEL);
	phys_addr_t orig = (phys_addr_t)(uintptr_t)buf;
	phys_addr_t tlb;

	KASSERT_TRUE(t, buf != NULL);
	setup(&mem, &dev, IO_TLB_SEGSIZE, 1, false, 1L << 20);
	ktest_expect_reports(t, true);	/* full pools and misuse are reported */
	KEXPECT_EQ(t, swiotlb_max_mapping_size(&dev), IO_TLB_SEGSIZE * IO_TLB_SIZE);
	tlb = swiotlb_tbl_map_single(&dev, &mem, orig, IO_TLB_SEGSIZE * IO_TLB_SIZE,
				     IO_TLB_SEGSIZE * IO_TLB_SIZE, 0, DMA_TO_DEVICE);
	KEXPECT_NE(t, tlb, INVALID_PHYS_ADDR);
	swiotlb_tbl_unmap_single(&dev, &mem, tlb, IO_TLB_SEGSIZE * IO_TLB_SIZE, DMA_TO_DEVICE);
	KEXPECT_EQ(t, swiotlb_tbl_map_single(&dev, &mem, orig, IO_TLB_SEGSIZE * IO_TLB_SIZE + 1,
					     IO_TLB_SEGSIZE * IO_TLB_SIZE + 1, 0,
					     DMA_TO_DEVICE), INVALID_PHYS_ADDR);
	dev.dma_min_align_mask = 0xfff;
	KEXPECT_EQ(t, swiotlb_max_mapping_size(&dev), IO_TLB_SEGSIZE * IO_TLB_SIZE - 4096);
	/* The worst offset still fits the advertised size. */
	tlb = swiotlb_tbl_map_single(&dev, &mem, orig | 0xfff, swiotlb_max_mapping_size(&dev),
				     swiotlb_max_mapping_size(&dev), 0, DMA_TO_DEVICE);
	KEXPECT_NE(t, tlb, INVALID_PHYS_ADDR);
	KEXPECT_EQ(t, mem.map_failed, 1);
	swiotlb_mem_destroy(&mem);
	kfree(buf);
}

/* Fill the pool with one-slot mappings; return how many were made. */
static int fill(struct io_tlb_mem *mem, struct device *dev, u8 *buf, phys_addr_t *tlbs, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		tlbs[i] = swiotlb_tbl_map_single(dev, mem, (phys_addr_t)(uintptr_t)buf, 16, 16,
						 0, DMA_TO_DEVICE);
		if (tlbs[i] == INVALID_PHYS_ADDR)
			break;
	}
	return i;
}

static void test_exhaustion_transient_growth(struct ktest *t)
{
	struct io_tlb_mem mem;
	struct io_tlb_pool *pool;
	struct device dev;
	static phys_addr_t tlbs[3 * IO_TLB_SEGSIZE];
	u8 buf[4096];
	phys_addr_t tr, tr2;
	long left;
	int n, i;

	for (i = 0; i < (int)sizeof(buf); i++)
		buf[i] = (u8)i;
	setup(&mem, &dev, IO_TLB_SEGSIZE, 1, true, IO_TLB_SEGSIZE * IO_TLB_SIZE + 4 * IO_TLB_SIZE);
	ktest_expect_reports(t, true);	/* full pools and misuse are reported */
	pool = list_first_entry(&mem.pools, struct io_tlb_pool, node);
	n = fill(&mem, &dev, buf, tlbs, IO_TLB_SEGSIZE);
	KASSERT_EQ(t, n, IO_TLB_SEGSIZE);
	KEXPECT_EQ(t, tlb_state.grow_requests, 0);

	/* Full: a transient pool sized to the request, and one grow request. */
	tr = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 3000, 3000, 0,
				    DMA_BIDIRECTIONAL);
	KASSERT_NE(t, tr, INVALID_PHYS_ADDR);
	KEXPECT_TRUE(t, swiotlb_find_pool(&mem, tr)->transient);
	KEXPECT_EQ(t, swiotlb_find_pool(&mem, tr)->nslabs, 2);
	KEXPECT_EQ(t, mem.transient_live, 1);
	KEXPECT_EQ(t, tlb_state.grow_requests, 1);
	KEXPECT_EQ(t, memcmp((void *)(uintptr_t)tr, buf, 3000), 0);
	/* Two more slots' worth: still within the budget; no second request. */
	tr2 = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 16, 16, 0,
				     DMA_TO_DEVICE);
	KASSERT_NE(t, tr2, INVALID_PHYS_ADDR);
	KEXPECT_EQ(t, tlb_state.grow_requests, 1);
	KEXPECT_EQ(t, mem.transient_live, 2);
	/* Memory gone too: a clear failure, and nothing else disturbed. */
	left = tlb_state.budget;
	KEXPECT_EQ(t, swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 4096,
					     4096, 0, DMA_TO_DEVICE), INVALID_PHYS_ADDR);
	KEXPECT_EQ(t, tlb_state.budget, left);
	KEXPECT_EQ(t, mem.transient_live, 2);
	KEXPECT_EQ(t, mem.map_failed, 1);
	KEXPECT_EQ(t, check_lists(pool), 0);
	memset((void *)(uintptr_t)tr, 0x5a, 3000);
	swiotlb_tbl_unmap_single(&dev, &mem, tr, 3000, DMA_BIDIRECTIONAL);
	KEXPECT_EQ(t, buf[2999], 0x5a);
	swiotlb_tbl_unmap_single(&dev, &mem, tr2, 16, DMA_TO_DEVICE);
	KEXPECT_EQ(t, mem.transient_live, 0);
	KEXPECT_EQ(t, mem.transient_total, 2);
	KEXPECT_EQ(t, tlb_state.budget, (long)(4 * IO_TLB_SIZE)); /* transient memory given back */

	/* The worker: too little memory for a full pool means no pool at all. */
	swiotlb_dyn_alloc(&mem);
	KEXPECT_EQ(t, mem.pools_grown, 0);
	KEXPECT_EQ(t, mem.grow_failed, 1);
	/* With memory, it adds a pool, and mappings land there, not in transients. */
	tlb_state.budget += 2 * IO_TLB_SEGSIZE * IO_TLB_SIZE;
	swiotlb_dyn_alloc(&mem);
	KEXPECT_EQ(t, mem.pools_grown, 1);
	KEXPECT_EQ(t, mem.nslabs, 2 * IO_TLB_SEGSIZE);
	n = fill(&mem, &dev, buf, tlbs + IO_TLB_SEGSIZE, IO_TLB_SEGSIZE);
	KEXPECT_EQ(t, n, IO_TLB_SEGSIZE);
	KEXPECT_EQ(t, mem.transient_total, 2);
	for (i = 0; i < 2 * IO_TLB_SEGSIZE; i++)
		swiotlb_tbl_unmap_single(&dev, &mem, tlbs[i], 16, DMA_TO_DEVICE);
	KEXPECT_EQ(t, mem.total_used, 0);
	KEXPECT_EQ(t, mem.used_hiwater, 2 * IO_TLB_SEGSIZE);
	swiotlb_mem_destroy(&mem);
}

static void test_restricted_never_grows(struct ktest *t)
{
	struct io_tlb_mem mem;
	struct device dev;
	static phys_addr_t tlbs[IO_TLB_SEGSIZE];
	u8 buf[16];
	int i;

	setup(&mem, &dev, IO_TLB_SEGSIZE, 1, false, 64L << 20);
	ktest_expect_reports(t, true);	/* full pools and misuse are reported */
	KASSERT_EQ(t, fill(&mem, &dev, buf, tlbs, IO_TLB_SEGSIZE), IO_TLB_SEGSIZE);
	KEXPECT_EQ(t, swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 16, 16,
					     0, DMA_TO_DEVICE), INVALID_PHYS_ADDR);
	KEXPECT_EQ(t, tlb_state.grow_requests, 0);
	KEXPECT_EQ(t, mem.transient_total, 0);
	for (i = 0; i < IO_TLB_SEGSIZE; i++)
		swiotlb_tbl_unmap_single(&dev, &mem, tlbs[i], 16, DMA_TO_DEVICE);
	swiotlb_mem_destroy(&mem);
}

/* Beyond the seed: grown pools go back when idle; the boot pool stays. */
static void test_shrink_gives_back_idle_pools(struct ktest *t)
{
	struct io_tlb_mem mem;
	struct io_tlb_pool *boot;
	struct device dev;
	static phys_addr_t tlbs[2 * IO_TLB_SEGSIZE + 1];
	u8 buf[16];
	long full;
	int i;

	setup(&mem, &dev, IO_TLB_SEGSIZE, 1, true, 3 * IO_TLB_SEGSIZE * IO_TLB_SIZE);
	boot = list_first_entry(&mem.pools, struct io_tlb_pool, node);
	full = tlb_state.budget;
	swiotlb_dyn_alloc(&mem);
	swiotlb_dyn_alloc(&mem);
	KASSERT_EQ(t, mem.pools_grown, 2);
	KEXPECT_EQ(t, tlb_state.budget, 0);
	/* One mapping in each pool: nothing can go. */
	KASSERT_EQ(t, fill(&mem, &dev, buf, tlbs, 2 * IO_TLB_SEGSIZE + 1), 2 * IO_TLB_SEGSIZE + 1);
	for (i = 0; i < 2 * IO_TLB_SEGSIZE; i++)
		if (i != IO_TLB_SEGSIZE + 5)
			swiotlb_tbl_unmap_single(&dev, &mem, tlbs[i], 16, DMA_TO_DEVICE);
	/* tlbs[2 * SEGSIZE] is in the second grown pool, tlbs[SEGSIZE + 5] in the first. */
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 2);
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 2);
	KEXPECT_EQ(t, mem.pools_freed, 0);
	/* The second grown pool empties: it goes at the second pass after that. */
	swiotlb_tbl_unmap_single(&dev, &mem, tlbs[2 * IO_TLB_SEGSIZE], 16, DMA_TO_DEVICE);
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 2);
	KEXPECT_EQ(t, mem.pools_freed, 0);
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 1);
	KEXPECT_EQ(t, mem.pools_freed, 1);
	KEXPECT_EQ(t, mem.nslabs, 2 * IO_TLB_SEGSIZE);
	KEXPECT_EQ(t, tlb_state.budget, (long)(IO_TLB_SEGSIZE * IO_TLB_SIZE));
	/* A pool in use at a pass starts its count again: two idle passes from then. */
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 1);
	swiotlb_tbl_unmap_single(&dev, &mem, tlbs[IO_TLB_SEGSIZE + 5], 16, DMA_TO_DEVICE);
	tlbs[0] = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)buf, 16, 16, 0,
					 DMA_TO_DEVICE);
	KASSERT_NE(t, tlbs[0], INVALID_PHYS_ADDR);
	KEXPECT_EQ(t, swiotlb_find_pool(&mem, tlbs[0]), boot);
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 1);
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 0);
	KEXPECT_EQ(t, mem.pools_freed, 2);
	KEXPECT_EQ(t, tlb_state.budget, full);
	/* The boot pool is never given back, busy or not. */
	swiotlb_tbl_unmap_single(&dev, &mem, tlbs[0], 16, DMA_TO_DEVICE);
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 0);
	KEXPECT_EQ(t, swiotlb_shrink(&mem), 0);
	KEXPECT_EQ(t, mem.nslabs, IO_TLB_SEGSIZE);
	KEXPECT_TRUE(t, list_first_entry(&mem.pools, struct io_tlb_pool, node) == boot);
	KEXPECT_EQ(t, check_lists(boot), 0);
	/* And the allocator still works: the whole boot pool maps again. */
	KEXPECT_EQ(t, fill(&mem, &dev, buf, tlbs, IO_TLB_SEGSIZE), IO_TLB_SEGSIZE);
	KEXPECT_EQ(t, mem.transient_total, 0);
	for (i = 0; i < IO_TLB_SEGSIZE; i++)
		swiotlb_tbl_unmap_single(&dev, &mem, tlbs[i], 16, DMA_TO_DEVICE);
	swiotlb_mem_destroy(&mem);
}

static struct ktest_case swiotlb_cases[] = {
	KTEST_CASE(test_random_against_model),
	KTEST_CASE(test_search_goes_on),
	KTEST_CASE(test_area_hashing),
	KTEST_CASE(test_bounce_directions),
	KTEST_CASE(test_max_mapping_size),
	KTEST_CASE(test_exhaustion_transient_growth),
	KTEST_CASE(test_restricted_never_grows),
	KTEST_CASE(test_shrink_gives_back_idle_pools),
	{}
};
KTEST_SUITE(swiotlb, swiotlb_cases);
