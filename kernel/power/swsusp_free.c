// SPDX-License-Identifier: MIT
/*
 * swsusp_free(): at the end of a hibernation or a failed resume, every
 * page the snapshot code allocated is marked in two bitmaps, "forbidden"
 * (not to be saved) and "free" (to be freed afterwards); a page in both is
 * given back. How it finds them is patch 4 of the seed:
 *
 *   swsusp_free_pfns()  the old way: test both bits of every pfn of every
 *                       zone, 4 billion pfns on a 16 TiB machine, however
 *                       few pages the snapshot took;
 *   swsusp_free_bits()  the seed's: walk the set bits of both bitmaps in
 *                       step (memory_bm_next_pfn()), so the cost follows
 *                       the pages marked, not the memory present.
 *
 * Both take the bitmaps and a release callback, so the same code runs in
 * the kernel and in the host benchmark over simulated terabytes.
 */
#include <pagoda/memory_bitmap.h>

unsigned long swsusp_free_bits(struct memory_bitmap *forbidden, struct memory_bitmap *free,
			       void (*release)(unsigned long pfn, void *arg), void *arg)
{
	unsigned long fb, fr, n = 0;

	memory_bm_position_reset(forbidden);
	memory_bm_position_reset(free);
	fb = memory_bm_next_pfn(forbidden);
	fr = memory_bm_next_pfn(free);
	while (fb != BM_END_OF_MAP && fr != BM_END_OF_MAP) {
		/* Advance whichever is behind until both name the same pfn. */
		if (fb < fr) {
			fb = memory_bm_next_pfn(forbidden);
			continue;
		}
		if (fr < fb) {
			fr = memory_bm_next_pfn(free);
			continue;
		}
		memory_bm_clear_current(forbidden);
		memory_bm_clear_current(free);
		release(fb, arg);
		n++;
		fb = memory_bm_next_pfn(forbidden);
		fr = memory_bm_next_pfn(free);
	}
	return n;
}

unsigned long swsusp_free_pfns(struct memory_bitmap *forbidden, struct memory_bitmap *free,
			       const struct bm_zone_range *zones, unsigned int nr_zones,
			       void (*release)(unsigned long pfn, void *arg), void *arg)
{
	unsigned long n = 0;

	for (unsigned int z = 0; z < nr_zones; z++)
		for (unsigned long pfn = zones[z].start_pfn; pfn < zones[z].end_pfn; pfn++) {
			if (!memory_bm_test_bit(forbidden, pfn) || !memory_bm_test_bit(free, pfn))
				continue;
			memory_bm_clear_bit(forbidden, pfn);
			memory_bm_clear_bit(free, pfn);
			release(pfn, arg);
			n++;
		}
	return n;
}
