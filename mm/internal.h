/* SPDX-License-Identifier: MIT */
/*
 * What the files of mm/ share among themselves and with their tests; not an
 * interface for the rest of the kernel (that is include/pagoda/mm.h).
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include <pagoda/mm.h>

/* --- struct page state ---------------------------------------------------- */
static inline bool PageBuddy(const struct page *p) { return p->flags & PG_buddy; }
static inline bool PageReserved(const struct page *p) { return p->flags & PG_reserved; }
static inline bool PageSlab(const struct page *p) { return p->flags & PG_slab; }
static inline bool PageHead(const struct page *p) { return p->flags & PG_head; }
static inline bool PageOffline(const struct page *p) { return p->flags & PG_offline; }

static inline unsigned int buddy_order(const struct page *p) { return p->order; }

static inline struct page *pageblock_head(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	return page - (pfn & (pageblock_nr_pages - 1));
}

/*
 * Every struct page of a pageblock carries the pageblock's migratetype:
 * a free, which must know it, then reads it from the page itself instead
 * of finding the pageblock's first page (the pfn, a division by the
 * struct page's size, and a multiply back). Writing all of a pageblock's
 * pages costs only when it changes type, which is rare (a steal that
 * claims it, under the zone lock).
 */
static inline int get_pageblock_migratetype(const struct page *page)
{
	return page->pb_migratetype;
}

static inline void set_pageblock_migratetype(struct page *page, int mt)
{
	const struct pglist_data *pgdat = NODE_DATA(page->node_id);
	struct page *p = pageblock_head(page);
	/* the node's last pageblock may be cut short by its end */
	struct page *end = MIN(p + pageblock_nr_pages,
			       pgdat->node_mem_map + pgdat->node_spanned_pages);
	unsigned long n = (unsigned long)(end - p);

	/* a byte store per page is what the loop should cost: eight a
	 * step over a counted loop (measured in a steal's burst) */
#pragma GCC unroll 8
	for (unsigned long i = 0; i < n; i++)
		p[i].pb_migratetype = (u8)mt;
}

/* Is pfn inside the zone's span and does it have a struct page? */
static inline bool zone_spans_pfn(const struct zone *z, unsigned long pfn)
{
	return pfn >= z->zone_start_pfn && pfn < zone_end_pfn(z);
}

/* --- setting up a node (mm_init.c; boot_node.c builds node 0 with it,
 *     memsim.c the others) --------------------------------------------- */

/*
 * Make pgdat a node over [start_pfn, start_pfn + spanned) with the given
 * struct page array, zones ending at zone_end[] (ZONE_DMA first; a zone may
 * be empty), every frame reserved until freed into it. Registers it as
 * NODE_DATA(nid). Struct pages from defer_from on (rounded up to a
 * max-order block; start_pfn + spanned: none) are left unwritten for
 * deferred init (mm_init.c); mem_map need not be zeroed.
 */
void pgdat_init(struct pglist_data *pgdat, int nid, const char *name,
		unsigned long start_pfn, unsigned long spanned,
		struct page *mem_map, const unsigned long zone_end[MAX_NR_ZONES],
		bool simulated, unsigned long defer_from);
void pgdat_unregister(struct pglist_data *pgdat);
/* Give [start_pfn, end_pfn) of a node to the buddy allocator (in physical
 * order, to the list tails: with no shuffle, allocation order is address
 * order). Returns the pages freed. */
unsigned long free_range_core(struct pglist_data *pgdat, unsigned long start_pfn,
			      unsigned long end_pfn);
/*
 * Deferred struct page init: write and free the next chunk of the node's
 * deferred part (returns the pages covered; 0 when nothing is left), or all
 * of it, waiting for whoever writes the last chunk.
 */
unsigned long deferred_init_chunk(struct pglist_data *pgdat);
void deferred_init_all(struct pglist_data *pgdat);
/* Whether a node under this policy may defer (no hooks that look at
 * the whole node: mm/policy.c). */
bool policy_allows_deferred_init(const struct page_alloc_policy *policy);
/* rmqueue_bulk() cuts whole blocks (on: the default) or takes page by
 * page, with the same result; a switch for the test that says so. */
extern bool page_alloc_bulk_carve;
/* A pcp drain frees runs of consecutive frames as whole blocks (tests
 * compare it with page by page). */
extern bool page_alloc_drain_runs;
/* page_alloc.pcp_blocks=: free pageblock-order blocks on per-CPU caches. */
extern bool page_alloc_pcp_blocks;
/* Linux's min_free_kbytes rule, spread over the zones by size. */
void setup_watermarks(struct pglist_data *pgdat);
/* page_alloc.c's part of building a zone whose span is set: its lists
 * and interior; and of a node whose zones are laid: first_zone[]. */
void zone_init_free_lists(struct zone *zone);
void set_first_zones(struct pglist_data *pgdat);
/* Deferred init on demand (mm_init.c): write enough of zone for 2^order
 * pages and more; false when nothing was left to write. */
bool deferred_grow(struct zone *zone, unsigned int order);

/* Has the zone struct pages still unwritten (deferred init)? */
static inline bool zone_deferred(const struct zone *zone)
{
	return READ_ONCE(zone->first_deferred_pfn) < zone_end_pfn(zone);
}

/*
 * Simulated nodes (memsim.c) have struct pages but no memory behind their
 * frames, and only their test, benchmark or lab run allocates from them.
 * The allocator treats them differently in these two ways only, and asks
 * through these two functions, never pgdat->simulated itself:
 *   node_has_memory()  false: nothing is poisoned, checked for poison,
 *                      zeroed or shown to dma.debug (there is nothing);
 *   node_is_private()  true: no other user races for the node's per-CPU
 *                      lists, so a CPU may drain another CPU's lists
 *                      itself, without a cross-CPU call.
 */
static inline bool node_has_memory(const struct pglist_data *pgdat)
{
	return !pgdat->simulated;
}

static inline bool node_is_private(const struct pglist_data *pgdat)
{
	return pgdat->simulated;
}

/* --- node 0 (boot_node.c) -------------------------------------------------- */
bool mm_buddy_ready(void);
unsigned long mm_offline_pages(void);
unsigned long mm_online_pages(unsigned long pages);
struct seq_file;
void show_buddyinfo(struct seq_file *m, struct pglist_data *pgdat);

/* --- the buddy allocator's internals ------------------------------------ */

/* Free-path placement flags. */
#define FPI_NONE 0u
#define FPI_TO_TAIL 1u
/* Memory arriving (boot, hot-add): to the tail, and not a "freed" event
 * for the policy's accounting. */
#define FPI_POPULATE 2u

struct page *find_free_block(struct zone *zone, unsigned long pfn,
			     unsigned int order);
/* Zone lock held: free a block into the buddy lists (merging). */
void free_one_page_locked(struct page *page, unsigned long pfn, struct zone *zone,
			  unsigned int order, int migratetype, unsigned int fpi);
/* Whether this CPU may touch cpu's per-CPU lists of the zone. */
bool pcp_reachable(struct zone *zone, int cpu);
/* Return the per-CPU pages this CPU may reach to the buddy lists. */
void drain_zone_pages(struct zone *zone);

/*
 * Check every invariant of a node's free lists (see page_alloc.c). Returns
 * 0, or -EINVAL with the first violation described in why.
 */
int page_alloc_verify(struct pglist_data *pgdat, char *why, size_t len);

/* Per-CPU lists for order 0 (page_alloc.pcp=); tests switch them. */
extern bool page_alloc_pcp;
/* Extra checks and poisoning (page_alloc.debug=). */
extern bool page_alloc_debug;
/* What page_alloc.debug writes over free memory. */
#define PAGE_POISON 0xaa

/*
 * fail_page_alloc (fail_page_alloc.c): fail every interval-th eligible
 * allocation with the given probability (percent), at most times times
 * (-1: no limit; 0: off). The allocator reads the state on every
 * allocation, so it is one global, not behind a call.
 */
struct fail_page_alloc_attr {
	unsigned long interval;
	unsigned int probability;
	long times;
	unsigned long calls, injected;
};
extern struct fail_page_alloc_attr fail_page_alloc;
void fail_page_alloc_set(unsigned long interval, unsigned int probability,
			 long times);
unsigned long fail_page_alloc_injected(void);
/* Apply the fail_page_alloc= parameter (mm_init, after parsing). */
void fail_page_alloc_init(void);

#endif
