// SPDX-License-Identifier: MIT
/*
 * The memory bitmap as Linux kept it before the radix tree (until 3.17):
 * the same one-page blocks of bits, on one linked list in pfn order, each
 * knowing its [start_pfn, end_pfn). A lookup starts from the block of the
 * last lookup and walks the list, backward or forward, to the block that
 * holds the pfn. Sequential access is cheap; random access walks, on
 * average, a third of the list: about 131072 blocks for 16 TiB. That walk
 * is what the seed measured at 76 s for a resume on 12 TB.
 *
 * Kept for comparison (hibernate.bitmap=list) and checked against the
 * tree by the tests: both must answer every query the same.
 */
#include <pagoda/bitops.h>
#include <pagoda/string.h>

#include "bitmap.h"

int bm_list_create(struct memory_bitmap *bm, const struct bm_zone_range *zones,
		   unsigned int nr_zones)
{
	for (unsigned int z = 0; z < nr_zones; z++) {
		for (unsigned long pfn = zones[z].start_pfn; pfn < zones[z].end_pfn;
		     pfn += BM_BITS_PER_BLOCK) {
			struct bm_block *b = chain_alloc(&bm->ca, sizeof(*b));

			if (!b)
				return -ENOMEM;
			b->start_pfn = pfn;
			b->end_pfn = MIN(pfn + BM_BITS_PER_BLOCK, zones[z].end_pfn);
			b->data = bm_get_page(bm);
			if (!b->data)
				return -ENOMEM;
			list_add_tail(&b->hook, &bm->blocks);
		}
	}
	return 0;
}

int bm_list_find_bit(struct memory_bitmap *bm, unsigned long pfn, unsigned long **addr,
		     unsigned int *bit)
{
	struct bm_block *bb = bm->cur.block;
	unsigned long steps = 0;

	if (!bb)
		bb = list_first_entry_or_null(&bm->blocks, struct bm_block, hook);
	if (!bb)
		return -EFAULT;
	/* Back toward the start, then forward: the old walk, from the cache. */
	while (pfn < bb->start_pfn && bb->hook.prev != &bm->blocks) {
		bb = list_entry(bb->hook.prev, struct bm_block, hook);
		steps++;
	}
	while (pfn >= bb->end_pfn && bb->hook.next != &bm->blocks) {
		bb = list_next_entry(bb, hook);
		steps++;
	}
	bm->list_steps += steps;
	if (pfn < bb->start_pfn || pfn >= bb->end_pfn)
		return -EFAULT; /* a hole between zones, or outside them all */
	bm->cur.block = bb;
	*addr = bb->data;
	*bit = (unsigned int)(pfn - bb->start_pfn);
	return 0;
}

void bm_list_position_reset(struct memory_bitmap *bm)
{
	bm->walk.block = list_first_entry_or_null(&bm->blocks, struct bm_block, hook);
	bm->walk.bit = 0;
	bm->walk.have_last = false;
}

unsigned long bm_list_next_pfn(struct memory_bitmap *bm)
{
	struct bm_walk *w = &bm->walk;

	while (w->block) {
		unsigned long nbits = w->block->end_pfn - w->block->start_pfn;
		unsigned long bit = bm_find_next_bit(w->block->data, nbits, w->bit);

		if (bit < nbits) {
			w->bit = (unsigned int)bit + 1;
			w->have_last = true;
			return w->block->start_pfn + bit;
		}
		w->block = w->block->hook.next != &bm->blocks ?
				   list_next_entry(w->block, hook) : NULL;
		w->bit = 0;
	}
	w->have_last = false;
	return BM_END_OF_MAP;
}

void bm_list_clear_current(struct memory_bitmap *bm)
{
	struct bm_walk *w = &bm->walk;

	w->block->data[(w->bit - 1) / BITS_PER_LONG] &= ~(1UL << ((w->bit - 1) % BITS_PER_LONG));
}
