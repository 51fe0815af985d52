/* SPDX-License-Identifier: MIT */
/*
 * Hibernation's memory bitmaps (kernel/power/): one bit per page frame of
 * every zone, to mark which pages are forbidden, free, saved or copied
 * while an image is made or restored. Linux's names and two layouts:
 *
 *   BM_RTREE  the radix tree of "PM / Hibernate: Memory bitmap scalability
 *             improvements" (Joerg Roedel, July 2014): per zone, leaves of
 *             one page of bits (32768 pfns) under inner nodes of one page
 *             of pointers (512 each), so finding a pfn's bit is a walk of a
 *             few levels, and a position cache makes sequential access one
 *             comparison;
 *   BM_LIST   what it replaced: the leaves on one linked list, found by
 *             walking the list from the last one used.
 *
 * Both answer every query identically (kernel/power/memory_bitmap_test.c
 * checks it); hibernate.bitmap=list|rtree picks the one the kernel uses,
 * the benchmark builds both. Every page they use is an order-0 page from
 * the caller's allocator (bm_page_ops): no large allocations, as resume
 * needs when memory is nearly full.
 *
 *	struct memory_bitmap bm;
 *	memory_bm_create(&bm, BM_RTREE, zones, nr_zones, &ops);
 *	memory_bm_set_bit(&bm, pfn);
 *	memory_bm_position_reset(&bm);
 *	while ((pfn = memory_bm_next_pfn(&bm)) != BM_END_OF_MAP) ...
 *	memory_bm_free(&bm);
 */
#ifndef PAGODA_MEMORY_BITMAP_H
#define PAGODA_MEMORY_BITMAP_H

#include <pagoda/list.h>
#include <pagoda/types.h>

#define BM_END_OF_MAP (~0UL)
#define BM_PAGE_SIZE 4096UL
/* Bits in one leaf page, and pointers in one inner node page. */
#define BM_BITS_PER_BLOCK (BM_PAGE_SIZE * 8)
#define BM_BLOCK_SHIFT 15
#define BM_ENTRIES_PER_LEVEL (BM_PAGE_SIZE / sizeof(unsigned long))
#define BM_RTREE_LEVEL_SHIFT 9

enum bm_kind { BM_RTREE, BM_LIST };

/* A zone to cover: [start_pfn, end_pfn). Holes inside are simply bits. */
struct bm_zone_range {
	unsigned long start_pfn, end_pfn;
};

/* Zeroed order-0 pages (BM_PAGE_SIZE bytes, page aligned), and their return. */
struct bm_page_ops {
	void *(*alloc_page)(void *ctx);
	void (*free_page)(void *ctx, void *page);
	void *ctx;
};

/* Small objects carved from whole pages, freed all at once (Linux's chain). */
struct chain_allocator {
	void *chain;		/* the pages, linked through their first word */
	unsigned int used;	/* bytes taken from the newest page */
	const struct bm_page_ops *ops;
	unsigned long pages;
};

struct rtree_node {
	struct list_head list;	/* on the zone's nodes or leaves list */
	unsigned long *data;	/* one page: bits (leaf) or child pointers */
};

/* One zone of the radix-tree layout. */
struct mem_zone_bm_rtree {
	struct list_head list;	/* on memory_bitmap.zones */
	struct list_head nodes;	/* inner nodes */
	struct list_head leaves;	/* leaves in pfn order: next_pfn walks them */
	unsigned long start_pfn, end_pfn;
	struct rtree_node *rtree;	/* the root */
	int levels;		/* inner levels above the leaves */
	unsigned int blocks;	/* leaves */
};

/* One block of the list layout: a page of bits for [start_pfn, end_pfn). */
struct bm_block {
	struct list_head hook;
	unsigned long start_pfn, end_pfn;
	unsigned long *data;
};

/*
 * The position cache: the leaf of the last lookup, so that the next lookup
 * in the same 32768 pfns costs one comparison (seed patch 3). Kept apart
 * from the walk's position below, so that a lookup between two
 * memory_bm_next_pfn() calls cannot move the walk.
 */
struct bm_position {
	struct mem_zone_bm_rtree *zone;
	struct rtree_node *node;
	unsigned long node_pfn;	/* the leaf's first pfn, relative to its zone */
	struct bm_block *block;	/* BM_LIST: the block of the last lookup */
};

/* Where memory_bm_next_pfn() stands. */
struct bm_walk {
	struct mem_zone_bm_rtree *zone;	/* NULL: past the end */
	struct rtree_node *node;
	unsigned long node_pfn;
	struct bm_block *block;		/* BM_LIST; NULL: past the end */
	unsigned int bit;		/* next bit to look at in node or block */
	bool have_last;			/* a pfn was returned and may be cleared */
};

struct memory_bitmap {
	enum bm_kind kind;
	struct list_head zones;	/* BM_RTREE: mem_zone_bm_rtree */
	struct list_head blocks;	/* BM_LIST: bm_block, in pfn order */
	struct chain_allocator ca;
	struct bm_position cur;
	struct bm_walk walk;
	unsigned long data_pages;	/* leaves, inner nodes or blocks */
	/* Blocks stepped over by BM_LIST lookups: what its walks cost. */
	unsigned long list_steps;
};

int memory_bm_create(struct memory_bitmap *bm, enum bm_kind kind,
		     const struct bm_zone_range *zones, unsigned int nr_zones,
		     const struct bm_page_ops *ops);
void memory_bm_free(struct memory_bitmap *bm);
/* Pages the bitmap holds (leaves, inner nodes, and the chain's). */
unsigned long memory_bm_pages(const struct memory_bitmap *bm);

void memory_bm_set_bit(struct memory_bitmap *bm, unsigned long pfn);
/* As set_bit, but -EFAULT for a pfn outside every zone (nothing set). */
int memory_bm_set_bit_check(struct memory_bitmap *bm, unsigned long pfn);
void memory_bm_clear_bit(struct memory_bitmap *bm, unsigned long pfn);
bool memory_bm_test_bit(struct memory_bitmap *bm, unsigned long pfn);
bool memory_bm_pfn_present(struct memory_bitmap *bm, unsigned long pfn);

void memory_bm_position_reset(struct memory_bitmap *bm);
/* The next set bit's pfn after the position, or BM_END_OF_MAP. */
unsigned long memory_bm_next_pfn(struct memory_bitmap *bm);
/* Clear the bit memory_bm_next_pfn() returned last. */
void memory_bm_clear_current(struct memory_bitmap *bm);

/*
 * swsusp_free()'s walk (kernel/power/swsusp_free.c): every pfn set in both
 * forbidden and free is cleared in both and given to release(). The seed's
 * way iterates the set bits; the old way tests every pfn of every zone.
 * Returns the pages released.
 */
unsigned long swsusp_free_bits(struct memory_bitmap *forbidden, struct memory_bitmap *free,
			       void (*release)(unsigned long pfn, void *arg), void *arg);
unsigned long swsusp_free_pfns(struct memory_bitmap *forbidden, struct memory_bitmap *free,
			       const struct bm_zone_range *zones, unsigned int nr_zones,
			       void (*release)(unsigned long pfn, void *arg), void *arg);

/* The first seed's measurement (bench/bitmap_bench.c). */
void bm_bench_header(const char *where);
void bm_bench_footer(void);
int bm_bench_row(const char *where, const struct bm_zone_range *zones, unsigned int nr_zones,
		 const struct bm_page_ops *ops);

/* hibernate.bitmap=: the layout the kernel uses (BM_RTREE by default). */
enum bm_kind hibernate_bitmap_kind(void);

#endif
