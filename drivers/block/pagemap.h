/* SPDX-License-Identifier: MIT */
/*
 * A sparse array of pages indexed by page number: the backing store of the
 * RAM disks (brd, memory-backed null_blk), where Linux uses an xarray.
 * Two levels (a directory of 512-entry leaves), so a 1 GiB disk costs 4 KiB
 * of directory until it is written. Lookups take no lock; a page or leaf
 * is installed with cmpxchg and the loser of a race frees its copy.
 */
#ifndef DRIVERS_BLOCK_PAGEMAP_H
#define DRIVERS_BLOCK_PAGEMAP_H

#include <pagoda/mm.h>
#include <pagoda/string.h>
#include <pagoda/types.h>

#define PAGEMAP_LEAF 512

struct pagemap {
	u64 nr_pages;
	struct page ***dir; /* [DIV_ROUND_UP(nr_pages, PAGEMAP_LEAF)] */
	u64 nr_present;
};

int pagemap_init(struct pagemap *pm, u64 nr_pages);
void pagemap_free(struct pagemap *pm);
/* The page at idx, or NULL if never written. */
struct page *pagemap_lookup(struct pagemap *pm, u64 idx);
/* The page at idx, allocated (zeroed) if needed; NULL without memory. */
struct page *pagemap_get(struct pagemap *pm, u64 idx);
/* Forget idx (discard); returns the page to the caller to free, or NULL. */
struct page *pagemap_take(struct pagemap *pm, u64 idx);

/* A read of n bytes at off in page (from a lookup): never written reads as zeroes. */
static inline void pagemap_read(void *buf, struct page *page, unsigned int off, unsigned int n)
{
	if (page)
		memcpy(buf, (char *)page_address(page) + off, n);
	else
		memset(buf, 0, n);
}

#endif
