/* SPDX-License-Identifier: MIT */
/*
 * The page allocator's interface: frames, their struct pages, and
 * alloc_pages()/__free_pages() with Linux's names. See mm/page_alloc.c for
 * the buddy allocator and mm/policy.h for its placement policies (the
 * free-list shuffle among them).
 */
#ifndef PAGODA_MM_H
#define PAGODA_MM_H

#include <pagoda/arch.h>
#include <pagoda/gfp.h>
#include <pagoda/mmzone.h>
#include <pagoda/types.h>

#define PFN_PHYS(pfn) ((phys_addr_t)(pfn) << PAGE_SHIFT)
#define PHYS_PFN(pa) ((unsigned long)((pa) >> PAGE_SHIFT))
#define PFN_UP(pa) ((unsigned long)(((pa) + PAGE_SIZE - 1) >> PAGE_SHIFT))
#define PFN_DOWN(pa) PHYS_PFN(pa)

/* The direct map: every frame of node 0 at PAGE_OFFSET + its address. */
#define __va(pa) ((void *)((unsigned long)(pa) + PAGE_OFFSET))
#define __pa(va) ((phys_addr_t)((unsigned long)(va) - PAGE_OFFSET))

/*
 * The node holding pfn, or NULL. Node nid's frames all lie in
 * [nid << NODE_PFN_SHIFT, (nid + 1) << NODE_PFN_SHIFT) (NODE_PFN_SHIFT in
 * mmzone.h), so the node is found by a shift, not a search: what Linux's
 * SPARSEMEM does with its section table, with 16 TiB sections.
 */
static inline struct pglist_data *pfn_to_pgdat(unsigned long pfn)
{
	unsigned long nid = pfn >> NODE_PFN_SHIFT;
	struct pglist_data *pgdat;

	if (nid >= MAX_NUMNODES)
		return NULL;
	pgdat = node_data[nid];
	if (!pgdat || pfn - pgdat->node_start_pfn >= pgdat->node_spanned_pages)
		return NULL;
	return pgdat;
}

/* NULL when no node has a struct page for pfn. */
static inline struct page *pfn_to_page(unsigned long pfn)
{
	struct pglist_data *pgdat = pfn_to_pgdat(pfn);

	return pgdat ? pgdat->node_mem_map + (pfn - pgdat->node_start_pfn) : NULL;
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	const struct pglist_data *pgdat = NODE_DATA(page->node_id);

	return pgdat->node_start_pfn + (unsigned long)(page - pgdat->node_mem_map);
}

static inline struct zone *page_zone(const struct page *page)
{
	return &NODE_DATA(page->node_id)->node_zones[page->zone_idx];
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return PFN_PHYS(page_to_pfn(page));
}

static inline void *page_address(const struct page *page)
{
	return __va(page_to_phys(page));
}

static inline struct page *virt_to_page(const void *va)
{
	return pfn_to_page(PHYS_PFN(__pa(va)));
}

/*
 * Linux's get_order(): the smallest order whose block of 2^order pages
 * holds size bytes (0 for sizes up to a page, and for 0).
 */
static inline unsigned int get_order(unsigned long size)
{
	if (size <= PAGE_SIZE)
		return 0;
	return 64 - (unsigned int)__builtin_clzl((size - 1) >> PAGE_SHIFT);
}

/* Allocate 2^order contiguous frames; NULL when that cannot be done. */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
#define alloc_page(gfp) alloc_pages(gfp, 0)
/*
 * Called, when set, with every block the page allocator is given back
 * (physical start, bytes), before anything else happens to it: for checks
 * that memory is not freed while still in use (dma.debug=1 sets it).
 */
extern void (*page_free_check)(phys_addr_t start, size_t bytes);
void __free_pages(struct page *page, unsigned int order);
#define __free_page(page) __free_pages(page, 0)
/*
 * Make a block just allocated at order into 1 << order pages of order 0,
 * each with a reference of its own, freed one by one (Linux's split_page()).
 */
void split_page(struct page *page, unsigned int order);
/* The same by direct-map address (0 on failure). */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp);
void free_pages(unsigned long addr, unsigned int order);
#define free_page(addr) free_pages(addr, 0)

/* Bring up memblock, the struct page array, zones and the buddy allocator. */
void mm_init(void);
/* Once threads run: start deferred struct page init's thread (boot_node.c). */
void page_alloc_init_late(void);
/* Write every deferred struct page of node 0 now (tests and benchmarks
 * want a node that does not grow under them). */
void page_alloc_wait_deferred(void);
/* Give every per-CPU list's pages of the node back to its buddy lists
 * (hibernation counts free frames from the buddy lists alone). */
void drain_all_pages(struct pglist_data *pgdat);

/* Totals over node 0, in pages. */
unsigned long nr_free_pages(void);
unsigned long totalram_pages(void);
/* meminfo's PageTables and AnonPages: page-table pages, and processes' own pages. */
extern unsigned long nr_pagetable_pages;
extern unsigned long nr_anon_pages;

/*
 * The page cache of initramfs files (mm/filemap.c): the page holding page
 * index of rf, mapped once more (mapcount + 1), filled from the file on
 * first use; NULL past the file's end or without memory. The last
 * filemap_put_page() frees it. nr_file_pages: such pages now.
 */
struct ramfs_file;
struct page *filemap_get_page(const struct ramfs_file *rf, u64 index);
void filemap_put_page(struct page *pg);
extern unsigned long nr_file_pages;

#endif
