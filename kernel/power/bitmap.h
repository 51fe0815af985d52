/* SPDX-License-Identifier: MIT */
/* Shared by the two layouts of kernel/power/'s memory bitmap. */
#ifndef KERNEL_POWER_BITMAP_H
#define KERNEL_POWER_BITMAP_H

#include <pagoda/memory_bitmap.h>

void *chain_alloc(struct chain_allocator *ca, unsigned int size);
void *bm_get_page(struct memory_bitmap *bm);

/* The first set bit at or after `from` in bits[0, nbits), or nbits. */
unsigned long bm_find_next_bit(const unsigned long *bits, unsigned long nbits,
			       unsigned long from);

/* BM_LIST (kernel/power/bitmap_list.c). */
int bm_list_create(struct memory_bitmap *bm, const struct bm_zone_range *zones,
		   unsigned int nr_zones);
int bm_list_find_bit(struct memory_bitmap *bm, unsigned long pfn, unsigned long **addr,
		     unsigned int *bit);
void bm_list_position_reset(struct memory_bitmap *bm);
unsigned long bm_list_next_pfn(struct memory_bitmap *bm);
void bm_list_clear_current(struct memory_bitmap *bm);

#endif
