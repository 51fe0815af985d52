// SPDX-License-Identifier: MIT
/*
 * Both layouts of the memory bitmap against a model, on the host under
 * ASan and in the kernel: sparse zones with holes between them and a
 * partial last leaf, random set/clear/test, lookups outside every zone,
 * walks with memory_bm_next_pfn() and clears on the way, the radix tree's
 * shape, allocation failure part way, and swsusp_free()'s two ways, which
 * must release the same pages. The seed's patches 1-3 ran both layouts side
 * by side in the same way while the tree was written.
 */
#include <pagoda/ktest.h>
#include <pagoda/memory_bitmap.h>
#include <pagoda/random.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

struct page_counter {
	long allocated, freed, fail_after; /* fail_after < 0: never */
};

static void *t_alloc_page(void *ctx)
{
	struct page_counter *c = ctx;

	if (c->fail_after >= 0 && c->allocated >= c->fail_after)
		return NULL;
	c->allocated++;
	return kzalloc(BM_PAGE_SIZE, GFP_KERNEL);
}

static void t_free_page(void *ctx, void *page)
{
	struct page_counter *c = ctx;

	c->freed++;
	kfree(page);
}

/* Three zones: holes between them, one leaf and a bit, and a far one. */
static const struct bm_zone_range zones[] = {
	{ 16, 16 + 40000 },
	{ 1UL << 20, (1UL << 20) + 70000 },
	{ 1UL << 33, (1UL << 33) + 5000 },
};
#define MODEL_BITS (40000 + 70000 + 5000)

static u8 model[MODEL_BITS];

/* The model's index of pfn, or -1 outside every zone. */
static long model_index(unsigned long pfn)
{
	long base = 0;

	for (unsigned int z = 0; z < ARRAY_SIZE(zones); z++) {
		if (pfn >= zones[z].start_pfn && pfn < zones[z].end_pfn)
			return base + (long)(pfn - zones[z].start_pfn);
		base += (long)(zones[z].end_pfn - zones[z].start_pfn);
	}
	return -1;
}

static unsigned long model_pfn(long index)
{
	for (unsigned int z = 0; z < ARRAY_SIZE(zones); z++) {
		long n = (long)(zones[z].end_pfn - zones[z].start_pfn);

		if (index < n)
			return zones[z].start_pfn + (unsigned long)index;
		index -= n;
	}
	return BM_END_OF_MAP;
}

/* A pfn inside a zone most of the time, else anywhere near one. */
static unsigned long random_pfn(struct rng *r)
{
	const struct bm_zone_range *z = &zones[rng_below(r, ARRAY_SIZE(zones))];

	if (rng_below(r, 8))
		return z->start_pfn + rng_below(r, z->end_pfn - z->start_pfn);
	return z->start_pfn - 40 + rng_below(r, z->end_pfn - z->start_pfn + 80);
}

static void test_layouts_agree_with_model(struct ktest *t)
{
	struct page_counter c = { 0, 0, -1 };
	struct bm_page_ops ops = { t_alloc_page, t_free_page, &c };
	struct memory_bitmap tree, list;
	struct rng r;
	long mismatches = 0, walked = 0;
	unsigned long pt, pl;
	long m;

	KASSERT_EQ(t, memory_bm_create(&tree, BM_RTREE, zones, ARRAY_SIZE(zones), &ops), 0);
	KASSERT_EQ(t, memory_bm_create(&list, BM_LIST, zones, ARRAY_SIZE(zones), &ops), 0);
	memset(model, 0, sizeof(model));
	rng_seed(&r, 42);
	for (int i = 0; i < 60000; i++) {
		unsigned long pfn = random_pfn(&r);
		long idx = model_index(pfn);
		unsigned int op = (unsigned int)rng_below(&r, 4);

		if (op == 0) {
			int et = memory_bm_set_bit_check(&tree, pfn);
			int el = memory_bm_set_bit_check(&list, pfn);

			mismatches += et != el || (et != 0) != (idx < 0);
			if (idx >= 0)
				model[idx] = 1;
		} else if (op == 1) {
			memory_bm_clear_bit(&tree, pfn);
			memory_bm_clear_bit(&list, pfn);
			if (idx >= 0)
				model[idx] = 0;
		} else {
			bool bt = memory_bm_test_bit(&tree, pfn), bl = memory_bm_test_bit(&list, pfn);

			mismatches += bt != bl || bt != (idx >= 0 && model[idx]);
			mismatches += memory_bm_pfn_present(&tree, pfn) != (idx >= 0);
			mismatches += memory_bm_pfn_present(&list, pfn) != (idx >= 0);
		}
	}
	KEXPECT_EQ(t, mismatches, 0);

	/* Walk all three in step, clearing every third pfn on the way. */
	memory_bm_position_reset(&tree);
	memory_bm_position_reset(&list);
	m = -1;
	do {
		do
			m++;
		while (m < MODEL_BITS && !model[m]);
		pt = memory_bm_next_pfn(&tree);
		pl = memory_bm_next_pfn(&list);
		if (pt != pl || pt != (m < MODEL_BITS ? model_pfn(m) : BM_END_OF_MAP)) {
			mismatches++;
			break;
		}
		if (pt != BM_END_OF_MAP && walked++ % 3 == 0) {
			/* A lookup elsewhere must not move the walk. */
			memory_bm_test_bit(&tree, zones[2].start_pfn);
			memory_bm_test_bit(&list, zones[0].start_pfn);
			memory_bm_clear_current(&tree);
			memory_bm_clear_current(&list);
			model[m] = 0;
		}
	} while (pt != BM_END_OF_MAP);
	KEXPECT_EQ(t, mismatches, 0);
	KEXPECT_GT(t, walked, 1000);
	for (long i = 0; i < MODEL_BITS; i += 7)
		mismatches += memory_bm_test_bit(&tree, model_pfn(i)) != model[i] ||
			      memory_bm_test_bit(&list, model_pfn(i)) != model[i];
	KEXPECT_EQ(t, mismatches, 0);
	ktest_log(t, "%ld set bits walked; the list layout stepped over %lu blocks",
		  walked, list.list_steps);
	memory_bm_free(&tree);
	memory_bm_free(&list);
	KEXPECT_EQ(t, c.allocated, c.freed);
}

static void test_rtree_shape(struct ktest *t)
{
	/* 600 leaves: more than one inner node's 512, so two inner levels. */
	const struct bm_zone_range big[] = { { 0, 600 * BM_BITS_PER_BLOCK - 5 }, { 0, 0 } };
	const struct bm_zone_range one[] = { { 7, 9 } };
	struct page_counter c = { 0, 0, -1 };
	struct bm_page_ops ops = { t_alloc_page, t_free_page, &c };
	struct memory_bitmap bm;
	struct mem_zone_bm_rtree *z;

	KASSERT_EQ(t, memory_bm_create(&bm, BM_RTREE, big, ARRAY_SIZE(big), &ops), 0);
	z = list_first_entry(&bm.zones, struct mem_zone_bm_rtree, list);
	KEXPECT_EQ(t, z->blocks, 600u);
	KEXPECT_EQ(t, z->levels, 2);
	KEXPECT_EQ(t, list_count(&z->leaves), 600u);
	KEXPECT_EQ(t, list_count(&z->nodes), 3u); /* a root over two level-1 nodes */
	KEXPECT_EQ(t, list_count(&bm.zones), 1u); /* the empty zone makes nothing */
	memory_bm_set_bit(&bm, 600 * BM_BITS_PER_BLOCK - 6);
	memory_bm_position_reset(&bm);
	KEXPECT_EQ(t, memory_bm_next_pfn(&bm), 600 * BM_BITS_PER_BLOCK - 6);
	KEXPECT_EQ(t, memory_bm_next_pfn(&bm), BM_END_OF_MAP);
	KEXPECT_EQ(t, memory_bm_set_bit_check(&bm, 600 * BM_BITS_PER_BLOCK - 5), -EFAULT);
	memory_bm_free(&bm);

	KASSERT_EQ(t, memory_bm_create(&bm, BM_RTREE, one, 1, &ops), 0);
	z = list_first_entry(&bm.zones, struct mem_zone_bm_rtree, list);
	KEXPECT_EQ(t, z->levels, 0); /* the root is the only leaf */
	KEXPECT_EQ(t, memory_bm_set_bit_check(&bm, 8), 0);
	KEXPECT_EQ(t, memory_bm_set_bit_check(&bm, 9), -EFAULT);
	KEXPECT_TRUE(t, memory_bm_test_bit(&bm, 8));
	memory_bm_free(&bm);
	KEXPECT_EQ(t, c.allocated, c.freed);
}

/* Every page short of what a bitmap needs: -ENOMEM, and nothing kept. */
static void test_allocation_failure_frees_everything(struct ktest *t)
{
	for (int kind = 0; kind < 2; kind++) {
		struct page_counter c = { 0, 0, -1 };
		struct bm_page_ops ops = { t_alloc_page, t_free_page, &c };
		struct memory_bitmap bm;
		long need;

		KASSERT_EQ(t, memory_bm_create(&bm, kind ? BM_LIST : BM_RTREE, zones,
					       ARRAY_SIZE(zones), &ops), 0);
		need = c.allocated;
		KEXPECT_EQ(t, (long)memory_bm_pages(&bm), need);
		memory_bm_free(&bm);
		for (long after = 0; after < need; after++) {
			c = (struct page_counter){ 0, 0, after };
			KEXPECT_EQ(t, memory_bm_create(&bm, kind ? BM_LIST : BM_RTREE, zones,
						       ARRAY_SIZE(zones), &ops), -ENOMEM);
			KEXPECT_EQ(t, c.allocated, c.freed);
		}
	}
}

struct released {
	unsigned long n, sum, last;
	bool ordered;
};

static void note_release(unsigned long pfn, void *arg)
{
	struct released *r = arg;

	r->ordered &= !r->n || pfn > r->last;
	r->n++;
	r->sum += pfn * 2654435761UL;
	r->last = pfn;
}

static void test_swsusp_free_ways_agree(struct ktest *t)
{
	struct page_counter c = { 0, 0, -1 };
	struct bm_page_ops ops = { t_alloc_page, t_free_page, &c };
	struct memory_bitmap fb[2], fr[2];
	struct released a = { 0, 0, 0, true }, b = { 0, 0, 0, true };
	unsigned long both = 0;
	struct rng r;

	for (int i = 0; i < 2; i++) {
		KASSERT_EQ(t, memory_bm_create(&fb[i], i ? BM_LIST : BM_RTREE, zones,
					       ARRAY_SIZE(zones), &ops), 0);
		KASSERT_EQ(t, memory_bm_create(&fr[i], i ? BM_LIST : BM_RTREE, zones,
					       ARRAY_SIZE(zones), &ops), 0);
	}
	memset(model, 0, sizeof(model));
	rng_seed(&r, 7);
	for (int i = 0; i < 5000; i++) {
		long idx = (long)rng_below(&r, MODEL_BITS);
		unsigned long pfn = model_pfn(idx);
		unsigned int what = (unsigned int)rng_below(&r, 3); /* forbidden, free, both */

		for (int k = 0; k < 2; k++) {
			if (what != 1)
				memory_bm_set_bit(&fb[k], pfn);
			if (what != 0)
				memory_bm_set_bit(&fr[k], pfn);
		}
		model[idx] |= (u8)(what == 0 ? 1 : what == 1 ? 2 : 3);
	}
	for (long i = 0; i < MODEL_BITS; i++)
		both += model[i] == 3;
	KEXPECT_EQ(t, swsusp_free_bits(&fb[0], &fr[0], note_release, &a), both);
	KEXPECT_EQ(t, swsusp_free_pfns(&fb[1], &fr[1], zones, ARRAY_SIZE(zones), note_release,
				       &b), both);
	KEXPECT_EQ(t, a.sum, b.sum);
	KEXPECT_TRUE(t, a.ordered && b.ordered);
	/* What was in one map only is still there; what was in both is gone. */
	for (long i = 0; i < MODEL_BITS; i += 3) {
		unsigned long pfn = model_pfn(i);

		for (int k = 0; k < 2; k++) {
			KEXPECT_EQ(t, memory_bm_test_bit(&fb[k], pfn), model[i] == 1);
			KEXPECT_EQ(t, memory_bm_test_bit(&fr[k], pfn), model[i] == 2);
		}
	}
	for (int i = 0; i < 2; i++) {
		memory_bm_free(&fb[i]);
		memory_bm_free(&fr[i]);
	}
	KEXPECT_EQ(t, c.allocated, c.freed);
}

static struct ktest_case memory_bitmap_cases[] = {
	KTEST_CASE(test_layouts_agree_with_model),
	KTEST_CASE(test_rtree_shape),
	KTEST_CASE(test_allocation_failure_frees_everything),
	KTEST_CASE(test_swsusp_free_ways_agree),
	{}
};
KTEST_SUITE(memory_bitmap, memory_bitmap_cases);
