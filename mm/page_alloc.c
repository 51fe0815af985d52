// SPDX-License-Identifier: MIT
/*
 * The buddy page allocator, after Linux's mm/page_alloc.c.
 *
 * Free memory is kept as blocks of 2^order frames, naturally aligned, on
 * one list per order and migratetype in each zone (zone->free_area). The
 * buddy of the block at pfn, order o, is the block at pfn ^ (1 << o):
 *
 *   allocate:  take a block of the smallest order that is big enough and
 *              split it, putting each upper half back one order lower
 *              (expand());
 *   free:      while the buddy is also free and of the same order, take it
 *              off its list and merge, then list the merged block
 *              (__free_one_page()).
 *
 * Around that core, as in Linux:
 *   - zones and GFP flags: a request names the highest zone it may use and
 *     falls back to lower ones (Normal -> DMA32 -> DMA);
 *   - migratetypes: movable and unmovable allocations come from different
 *     pageblocks; when one type runs dry it steals from the other
 *     (__rmqueue_fallback());
 *   - per-CPU lists cache order-0 pages, so most single-page allocations
 *     and frees skip the zone lock (page_alloc.pcp=);
 *   - a min watermark keeps some pages for atomic callers;
 *   - checks on free (a double free or a foreign page is reported and
 *     refused, never merged), page poisoning in page_alloc.debug mode, and
 *     fail_page_alloc= fault injection (fail_page_alloc.c).
 * Where blocks go and which block an allocation gets are placement
 * decisions, made by the node's policy (mm/policy.h: in order, shuffled,
 * by cache colour); the policy's hooks are marked below.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "internal.h"
#include "policy.h"

struct pglist_data *node_data[MAX_NUMNODES];

bool page_alloc_pcp = true;
PARAM_BOOL("page_alloc.pcp", page_alloc_pcp,
	   "per-CPU lists for order-0 pages (off: every page goes through the zone lock)");
bool page_alloc_pcp_blocks = true;
PARAM_BOOL("page_alloc.pcp_blocks", page_alloc_pcp_blocks,
	   "per-CPU caches also keep a few free pageblock-order (2 MiB) blocks");
bool page_alloc_debug;
PARAM_BOOL("page_alloc.debug", page_alloc_debug,
	   "poison free pages and check them on allocation");

/*
 * What the hot paths pay for, and what they do not: the buddy of a block is
 * found by pointer arithmetic from the block's own struct page (a node's
 * struct pages are one array), once per merge level; zone->free_pages is
 * updated once per allocation or free, not per level; fault injection,
 * page_alloc.debug, __GFP_ZERO on simulated nodes and the policy hooks are
 * each one predicted-not-taken branch when off. docs/memory.md ("Cost")
 * has the measured price of each and `make bench-host` prints it.
 */

/*
 * The hot path's steps are forced inline (__hot_inline, pagoda/compiler.h)
 * into the few functions an operation passes through. Those functions are
 * split by path (the per-CPU list's pop and push, the buddy path under the
 * zone lock) and hand over by tail calls, because gcc saves on entry every
 * register any path of a function needs: the common path should not pay
 * for the rare one (measured: make bench-host).
 */

/* The struct page of a pfn the zone spans (the caller checked). */
static inline struct page *zone_pfn_page(const struct zone *zone, unsigned long pfn)
{
	const struct pglist_data *pgdat = zone->zone_pgdat;

	return pgdat->node_mem_map + (pfn - pgdat->node_start_pfn);
}

static inline unsigned long zone_page_pfn(const struct zone *zone, const struct page *page)
{
	const struct pglist_data *pgdat = zone->zone_pgdat;

	return pgdat->node_start_pfn + (unsigned long)(page - pgdat->node_mem_map);
}

/* One compare: pfn - start wraps around to a huge value below the zone. */
static inline bool zone_has_pfn(const struct zone *zone, unsigned long pfn)
{
	return pfn - zone->zone_start_pfn < zone->spanned_pages;
}

/* Is the struct page the head of a free block of exactly this order? */
static inline bool page_is_buddy(const struct page *page, unsigned int order)
{
	return (page->flags & PG_buddy) && page->order == order;
}

/* --- the free lists --------------------------------------------------------- */

static inline void set_buddy(struct page *page, unsigned int order)
{
	page->order = (u8)order;
	page->flags |= PG_buddy;
}

static inline void clear_buddy(struct page *page)
{
	page->flags &= ~PG_buddy;
	page->order = 0;
}

/*
 * These two keep nr_free per order; zone->free_pages is the caller's to
 * update, once for the whole operation.
 */
static inline void add_to_free_list(struct page *page, struct zone *zone,
				    unsigned int order, int mt, bool tail)
{
	struct free_area *area = &zone->free_area[order];
	struct list_head *list = &area->free_list[mt];

	/* one register for the list: left alone, gcc builds its address
	 * anew in each branch and for each of its uses */
	__asm__("" : "+r"(list));
	if (tail)
		list_add_tail(&page->lru, list);
	else
		list_add(&page->lru, list);
	area->nr_free++;
}

static inline void del_from_free_list(struct page *page, struct zone *zone,
				      unsigned int order)
{
	list_del(&page->lru);
	clear_buddy(page);
	zone->free_area[order].nr_free--;
}

/*
 * The free block of exactly this order that starts at pfn in this zone, or
 * NULL: it must exist in the zone and be a free block head of that order (a
 * free block of another order covering pfn does not count). Merging asks
 * this of a buddy, the shuffle of both blocks it swaps, and a policy's
 * pick of the blocks that may hold its choice.
 */
struct page *find_free_block(struct zone *zone, unsigned long pfn,
			     unsigned int order)
{
	struct page *page;

	/* Inside the zone's span the struct page exists and is the zone's. */
	if (!zone_has_pfn(zone, pfn))
		return NULL;
	page = zone_pfn_page(zone, pfn);
	return page_is_buddy(page, order) ? page : NULL;
}

/*
 * Linux's guess for a block that could not merge: if the next larger
 * buddy is free, this block's buddy will likely be freed soon and merge,
 * so keep it at the tail where it is allocated last.
 */
static inline bool buddy_merge_likely(struct zone *zone, struct page *page,
				      unsigned long pfn, unsigned int order, bool inside)
{
	unsigned long higher_buddy;

	if (order >= MAX_ORDER - 2)
		return false;
	/* the buddy of the order+1 block that holds pfn */
	higher_buddy = (pfn & ~((1UL << (order + 1)) - 1)) ^ (1UL << (order + 1));
	return (inside || zone_has_pfn(zone, higher_buddy)) &&
	       page_is_buddy(page + ((long)higher_buddy - (long)pfn), order + 1);
}

/*
 * The zone's interior: the pfns whose whole max-order block lies in it,
 * [lo, lo + span). A block freed there has every buddy it can merge with
 * (they differ from it only below bit MAX_ORDER - 1) in the zone too, so
 * the merge needs no bounds check per level: most frees, one compare.
 */
struct zone_interior {
	unsigned long lo, span;
};

static inline struct zone_interior zone_interior(const struct zone *zone)
{
	return (struct zone_interior){ zone->interior_lo, zone->interior_span };
}


/*
 * hooked: the node's policy has a hook on free (freed, free_to_tail).
 * The caller looks once, so that a batch of frees does not load the
 * policy's table for each page.
 */
static __hot_inline void __free_one_page(struct page *page, unsigned long pfn,
					  struct zone *zone, unsigned int order,
					  int migratetype, unsigned int fpi, bool hooked,
					  struct zone_interior in)
{
	/* read only by the hooked copy: the other keeps no register for it */
	const struct page_alloc_policy *policy = hooked ? zone->zone_pgdat->policy : NULL;
	unsigned long pages = 1UL << order;
	bool inside = pfn - in.lo < in.span;
	bool to_tail;

	if (unlikely(hooked) && policy->freed && !(fpi & FPI_POPULATE))
		policy->freed(zone->zone_pgdat, pfn, order); /* policy: accounting */
	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy;

		if (!inside && !zone_has_pfn(zone, buddy_pfn))
			break;
		/* the buddy's struct page, from this one's: same node array */
		buddy = page + ((long)buddy_pfn - (long)pfn);
		if (!page_is_buddy(buddy, order))
			break;
		del_from_free_list(buddy, zone, order);
		if (buddy_pfn < pfn) { /* the lower of the two heads the merged block */
			page = buddy;
			pfn = buddy_pfn;
		}
		order++;
	}
	set_buddy(page, order);

	if (fpi & (FPI_TO_TAIL | FPI_POPULATE))
		to_tail = true;
	else if (likely(!hooked) || !policy->free_to_tail || /* policy: head or tail */
		 !policy->free_to_tail(zone, page, pfn, order, &to_tail))
		to_tail = buddy_merge_likely(zone, page, pfn, order, inside);
	add_to_free_list(page, zone, order, migratetype, to_tail);
	zone->free_pages += pages;
}

static inline bool policy_hooks_free(const struct zone *zone)
{
	return zone->zone_pgdat->free_hooked;
}

/* __free_one_page() for a caller that holds the zone lock and does not
 * care whether the policy hooks frees. */
void free_one_page_locked(struct page *page, unsigned long pfn, struct zone *zone,
			  unsigned int order, int migratetype, unsigned int fpi)
{
	__free_one_page(page, pfn, zone, order, migratetype, fpi, policy_hooks_free(zone),
			zone_interior(zone));
}

/*
 * Split the order-high free block at page down to the order-low block
 * that starts keep pages in: at each step the half without it goes back on
 * the free list one order lower. keep is 0 (the lower half every time, as
 * in Linux) unless a policy picked another sub-block.
 */
static __hot_inline void expand(struct zone *zone, struct page *page, unsigned int low,
				unsigned int high, int mt, unsigned long keep)
{
	while (high > low) {
		unsigned long half = 1UL << --high;
		struct page *other;

		if (keep >= half) {
			other = page;
			page += half;
			keep -= half;
		} else {
			other = page + half;
		}
		set_buddy(other, high);
		add_to_free_list(other, zone, high, mt, false);
	}
}

/* The core's choice: the head of the smallest non-empty list. */
static __hot_inline struct page *take_smallest(struct zone *zone, unsigned int order,
					       int mt)
{
	for (unsigned int o = order; o < MAX_ORDER; o++) {
		struct list_head *list = &zone->free_area[o].free_list[mt];
		struct page *page;

		if (list_empty(list))
			continue;
		page = list_first_entry(list, struct page, lru);
		del_from_free_list(page, zone, o);
		expand(zone, page, order, o, mt, 0);
		zone->free_pages -= 1UL << order;
		return page;
	}
	return NULL;
}

/*
 * A policy's choice: find the free block that holds the picked 2^order
 * frames and split it around them. NULL (and a warning) when the pick is
 * not free memory of this zone; the core then chooses itself.
 */
static struct page *take_picked(struct zone *zone, struct page *want,
				unsigned int order, int mt)
{
	unsigned long pfn = page_to_pfn(want);

	if (!(pfn & ((1UL << order) - 1))) {
		for (unsigned int o = order; o < MAX_ORDER; o++) {
			unsigned long head = pfn & ~((1UL << o) - 1);
			struct page *block = find_free_block(zone, head, o);

			if (!block)
				continue;
			del_from_free_list(block, zone, o);
			expand(zone, block, order, o, mt, pfn - head);
			zone->free_pages -= 1UL << order;
			return want;
		}
	}
	zone->zone_pgdat->bad_picks++;
	if (zone->zone_pgdat->bad_picks == 1)
		pr_warn("page_alloc: policy %s picked pfn %#lx order %u: not free in zone %s\n",
			zone->zone_pgdat->policy->name, pfn, order, zone->name);
	return NULL;
}

/* A policy's say in an allocation: which block, and its accounting. */
static noinline struct page *rmqueue_hooked(struct zone *zone,
					    unsigned int order, int mt)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	const struct page_alloc_policy *policy = pgdat->policy;
	struct page *page = NULL, *want;

	if (policy->pick && (want = policy->pick(zone, order, mt))) /* policy: which block */
		page = take_picked(zone, want, order, mt);
	if (likely(!page))
		page = take_smallest(zone, order, mt);
	if (policy->taken && page)
		policy->taken(pgdat, zone_page_pfn(zone, page), order); /* policy: accounting */
	return page;
}

/* Without a hook on allocation (the default) the core chooses alone:
 * one byte tested instead of the policy's two pointers. */
static __hot_inline struct page *__rmqueue_smallest(struct zone *zone, unsigned int order,
						     int mt)
{
	if (unlikely(zone->zone_pgdat->alloc_hooked))
		return rmqueue_hooked(zone, order, mt);
	return take_smallest(zone, order, mt);
}

/*
 * Move every free block in page's pageblock to the new migratetype's lists;
 * returns how many pages that was.
 */
static unsigned long move_freepages_block(struct zone *zone, struct page *page,
					  int mt)
{
	struct page *head = pageblock_head(page);
	unsigned long pfn = page_to_pfn(head);
	unsigned long end = MIN(pfn + pageblock_nr_pages, zone_end_pfn(zone));
	unsigned long moved = 0;

	pfn = MAX(pfn, zone->zone_start_pfn);
	while (pfn < end) {
		struct page *p = zone_pfn_page(zone, pfn);

		if (!PageBuddy(p)) {
			pfn++;
			continue;
		}
		list_move(&p->lru, &zone->free_area[p->order].free_list[mt]);
		moved += 1UL << p->order;
		pfn += 1UL << p->order;
	}
	return moved;
}

/*
 * The wanted migratetype has nothing left: take the largest free block of
 * the other type (a big steal now saves many small ones later), and claim
 * its pageblock for the wanted type when it is mostly free, so mixed
 * pageblocks stay rare.
 */
static struct page *__rmqueue_fallback(struct zone *zone, unsigned int order,
				       int start_mt)
{
	int other = start_mt == MIGRATE_MOVABLE ? MIGRATE_UNMOVABLE : MIGRATE_MOVABLE;

	for (int o = MAX_ORDER - 1; o >= (int)order; o--) {
		struct list_head *list = &zone->free_area[o].free_list[other];
		struct page *page;

		if (list_empty(list))
			continue;
		page = list_first_entry(list, struct page, lru);
		if (o >= pageblock_order) {
			/* whole pageblocks: they simply change type */
			for (unsigned long i = 0; i < (1UL << o); i += pageblock_nr_pages)
				set_pageblock_migratetype(page + i, start_mt);
			list_move(&page->lru, &zone->free_area[o].free_list[start_mt]);
		} else if (move_freepages_block(zone, page, start_mt) >=
			   pageblock_nr_pages / 2) {
			set_pageblock_migratetype(page, start_mt);
		}
		return __rmqueue_smallest(zone, order, start_mt) ?:
		       __rmqueue_smallest(zone, order, other);
	}
	return NULL;
}

static __hot_inline struct page *__rmqueue(struct zone *zone, unsigned int order, int mt)
{
	struct page *page = __rmqueue_smallest(zone, order, mt);

	return likely(page) ? page : __rmqueue_fallback(zone, order, mt);
}

/* --- per-CPU lists ----------------------------------------------------------- */

/*
 * Put 2^order pages, from page on, at the tail of a pcp list in address
 * order, as page-by-page allocation leaves them (PG_pcp).
 * The run is chained in one pass, each page linked to the one before it
 * and the list closed once at the end: list_add_tail() per page would
 * also rewrite the list head's prev and the new page's next each time
 * (measured: 31 instructions a refilled page before, see docs/memory.md).
 */
static inline void pcp_add_run(struct page *page, unsigned int order, struct list_head *to)
{
	struct list_head *prev = to->prev;

	/*
	 * Only PG_pcp to set: the run is part of a block just taken off a
	 * free list, whose head del_from_free_list() cleared and whose other
	 * pages are never PG_buddy (page_alloc_verify() checks it); expand()
	 * marked only the halves it gave back. The order byte is not looked
	 * at on a pcp list, and the pop writes it (pcp_alloc_fast()).
	 */
	unsigned long n = 1UL << order;

	page[0].flags |= PG_pcp;
	page[0].lru.prev = prev;
	prev->next = &page[0].lru;
	/*
	 * The others link to the struct page before them, whose address
	 * is known: no value carried from one step to the next. Two pages
	 * a step (measured: about 8 instructions a page one at a time, 5.5
	 * two at a time).
	 */
#pragma GCC unroll 2
	for (unsigned long i = 1; i < n; i++) {
		page[i].flags |= PG_pcp;
		page[i].lru.prev = &page[i - 1].lru;
		page[i - 1].lru.next = &page[i].lru;
	}
	page[n - 1].lru.next = to;
	to->prev = &page[n - 1].lru;
}

/* The smallest order whose block holds n pages (n >= 1). */
static inline unsigned int order_for(unsigned long n)
{
	return n <= 1 ? 0 : 64 - (unsigned int)__builtin_clzl(n - 1);
}

/*
 * rmqueue_bulk()'s fast way: take the smallest free block of mt whole and
 * cut the pages off it in one go, instead of one __rmqueue() (a search
 * from order 0 up, a split of every level, the policy's checks) per page.
 *
 * The result is exactly what count page-by-page allocations leave. With o
 * the smallest non-empty order, each such allocation takes the next frame
 * of that block: expand() keeps the lower half and lists the upper ones,
 * each alone on its list, and the next search finds the smallest of them
 * first. So the pages go to the pcp list in address order, and what is not
 * taken stays free as the aligned blocks that make up the rest of the
 * block, one per order. Here: split (expand()) down to the smallest order
 * that holds the pages still wanted; if that is more than wanted, its
 * lower half is all taken and the upper half is split the same way.
 *
 * Only a policy that picks blocks or counts takings (pick, taken) must see
 * each page; the caller does not come here then. Returns the pages moved:
 * fewer than count when mt has no free block left (the caller steals).
 */
static int carve_bulk(struct zone *zone, int count, int mt, struct list_head *to)
{
	int n = 0;

	while (n < count) {
		unsigned long left = (unsigned long)(count - n);
		struct page *block = NULL;
		unsigned int o, low;

		for (o = 0; o < MAX_ORDER; o++) {
			struct list_head *list = &zone->free_area[o].free_list[mt];

			if (!list_empty(list)) {
				block = list_first_entry(list, struct page, lru);
				break;
			}
		}
		if (!block)
			break;
		del_from_free_list(block, zone, o);
		if (left > (1UL << o))
			left = 1UL << o;
		zone->free_pages -= left;
		n += (int)left;
		/* block is a free block of order o; left of its pages are wanted */
		while (left) {
			low = order_for(left);
			expand(zone, block, low, o, mt, 0);
			o = low;
			if (left == (1UL << o)) {
				pcp_add_run(block, o, to);
				break;
			}
			/* more than half of it: the lower half whole, then the upper */
			pcp_add_run(block, o - 1, to);
			block += 1UL << (o - 1);
			left -= 1UL << (o - 1);
			o--;
		}
	}
	return n;
}

bool page_alloc_bulk_carve = true;

/* Move up to count order-0 pages from the buddy lists to a pcp list. */
static int rmqueue_bulk(struct zone *zone, int count, int mt,
			struct per_cpu_pages *pcp)
{
	const struct page_alloc_policy *policy = zone->zone_pgdat->policy;
	bool carve = page_alloc_bulk_carve && !policy->pick && !policy->taken;
	int n = 0;

	spin_lock(&zone->lock);
	while (n < count) {
		struct page *page;

		if (carve) {
			n += carve_bulk(zone, count - n, mt, &pcp->lists[mt]);
			if (n == count)
				break;
		}
		/* a policy's pick, or stealing from the other migratetype */
		page = __rmqueue(zone, 0, mt);
		if (!page)
			break;
		page->flags |= PG_pcp;
		list_add_tail(&page->lru, &pcp->lists[mt]);
		n++;
	}
	spin_unlock(&zone->lock);
	pcp->count += n;
	return n;
}

/*
 * A drain's run of n pages that are consecutive frames, taken off the
 * pcp list in address order, freed as the naturally aligned blocks it
 * is made of (each at most a pageblock, so one migratetype), lowest
 * first: one merge per block instead of one per page.
 *
 * The buddy lists end exactly as freeing the pages one by one leaves
 * them. Until a block's last page is freed, every merge stays inside
 * the block (its pages' buddies up to the block's order are the block's
 * own pages, none of them free before), and what was listed on the way
 * is unlisted again by the next merge, leaving every other entry's
 * place unchanged. The last page then completes the block and merges on
 * outward from the same state as the block freed whole, and the head or
 * tail choice for the result looks at that same state.
 * test_pcp_drain_runs_same_as_page_by_page checks it.
 */
bool page_alloc_drain_runs = true;

static noinline void free_pcp_run(struct zone *zone, struct page *page,
				  unsigned long pfn, unsigned long n,
				  struct zone_interior in)
{
	while (n) {
		/* the largest block aligned at pfn, no longer than n, no
		 * larger than a pageblock */
		unsigned int order = (unsigned int)__builtin_ctzl(pfn | pageblock_nr_pages);
		unsigned int fit = 63 - (unsigned int)__builtin_clzl(n);

		if (fit < order)
			order = fit;
		__free_one_page(page, pfn, zone, order, get_pageblock_migratetype(page), FPI_NONE,
				false, in);
		page += 1UL << order;
		pfn += 1UL << order;
		n -= 1UL << order;
	}
}

/*
 * Give up to count pages back from a pcp list to the buddy lists. What
 * stays the same for the whole batch (the node's array, whether the policy
 * has hooks on free) is looked up once, not per page.
 */
static __hot_inline void __free_pcppages_bulk(struct zone *zone, int count,
						struct per_cpu_pages *pcp, bool hooked)
{
	const struct pglist_data *pgdat = zone->zone_pgdat;
	/*
	 * A page's pfn is (its address - bias) / sizeof(struct page): one
	 * value kept for the batch instead of the array and its first pfn
	 * (the loop is short of registers). The difference is a whole
	 * number of struct pages, so the division is exact.
	 */
	unsigned long bias = (unsigned long)pgdat->node_mem_map -
			     pgdat->node_start_pfn * sizeof(struct page);
	struct zone_interior in = zone_interior(zone);

	for (int mt = 0; mt < MIGRATE_TYPES && count > 0; mt++) {
		struct list_head *list = &pcp->lists[mt], *pos = list->prev;
		int done = 0;

		/*
		 * The coldest pages, from the tail. The freed run is cut off
		 * the list once at the end rather than unlinked page by page:
		 * each page's links are reused by the buddy lists, so the
		 * walk reads the next one (pos) before freeing.
		 */
		while (done < count && pos != list) {
			struct page *page = list_entry(pos, struct page, lru);
			unsigned long pfn = ((unsigned long)page - bias) / sizeof(struct page);
			unsigned long run = 1;

			pos = pos->prev;
			page->flags &= ~PG_pcp;
			done++;
			/*
			 * The pages that follow on the walk and are the next
			 * frames (a burst freed in the order it was allocated)
			 * go back as the aligned blocks they make up: see
			 * free_pcp_run(). Not under a policy that hooks each
			 * free: it is owed one call per page.
			 */
			if (!hooked && pos == &page[1].lru && done < count) {
				/* (the list head is no page's: pos == list ends it) */
				struct page *q = page + 1, *end = q + (count - done);

				do {
					q->flags &= ~PG_pcp;
					pos = pos->prev;
				} while (++q != end && pos == &q->lru);
				run = (unsigned long)(q - page);
				done += (int)run - 1;
			}
			if (likely(run == 1)) /* to its pageblock's type as it is now */
				__free_one_page(page, pfn, zone, 0, get_pageblock_migratetype(page), FPI_NONE,
						 hooked, in);
			else
				free_pcp_run(zone, page, pfn, run, in);
		}
		pos->next = list;
		list->prev = pos;
		pcp->count -= done;
		count -= done;
	}
}

static void free_pcppages_bulk(struct zone *zone, int count,
			       struct per_cpu_pages *pcp)
{
	spin_lock(&zone->lock);
	/*
	 * Two copies of the loop: the common one has no policy code at all.
	 * The other, page by page, also serves the test that compares the
	 * two ways (page_alloc_drain_runs off): for a policy without hooks
	 * its checks change nothing.
	 */
	if (unlikely(policy_hooks_free(zone) || !page_alloc_drain_runs))
		__free_pcppages_bulk(zone, count, pcp, true);
	else
		__free_pcppages_bulk(zone, count, pcp, false);
	spin_unlock(&zone->lock);
}

/*
 * The cached pageblock-order blocks of a pcp back to the buddy lists,
 * where they merge as any freed block does. Zone lock held.
 */
static void free_pcp_blocks(struct zone *zone, struct per_cpu_pages *pcp)
{
	bool hooked = policy_hooks_free(zone);

	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		while (!list_empty(&pcp->blocks[mt])) {
			struct page *page = list_first_entry(&pcp->blocks[mt], struct page, lru);
			unsigned long pfn = zone_page_pfn(zone, page);

			list_del(&page->lru);
			pcp->nr_blocks--;
			page->flags &= ~PG_pcp;
			page->order = 0; /* as __free_pages() leaves a block's head */
			__free_one_page(page, pfn, zone, pageblock_order, get_pageblock_migratetype(page),
					FPI_NONE, hooked, zone_interior(zone));
		}
	}
}

/*
 * Drain all of cpu's per-CPU lists of the zone, as Linux's
 * drain_pages_zone(): its order-0 pages and its blocks. Interrupts off.
 */
static void drain_pages_zone(int cpu, struct zone *zone)
{
	struct per_cpu_pages *pcp = &zone->pcp[cpu];

	if (pcp->count)
		free_pcppages_bulk(zone, pcp->count, pcp);
	if (pcp->nr_blocks) {
		spin_lock(&zone->lock);
		free_pcp_blocks(zone, pcp);
		spin_unlock(&zone->lock);
	}
}

/*
 * May this CPU touch cpu's per-CPU lists of the zone? Its own, always. Another
 * CPU's only when nobody else can be using them: a simulated node (only its
 * test or experiment allocates there) or a CPU that is not running. A real
 * node's lists on running CPUs are drained by their owners (drain_all_pages).
 */
bool pcp_reachable(struct zone *zone, int cpu)
{
	return cpu == (int)smp_processor_id() || node_is_private(zone->zone_pgdat) ||
	       !cpu_online(cpu);
}

void drain_zone_pages(struct zone *zone)
{
	unsigned long flags = arch_irq_save();

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (pcp_reachable(zone, cpu))
			drain_pages_zone(cpu, zone);
	arch_irq_restore(flags);
}

/* Runs on each CPU, interrupts off: give back this CPU's pages of the node. */
static void drain_local_pages(void *info)
{
	struct pglist_data *pgdat = info;
	int me = (int)smp_processor_id();
	struct zone *z;

	for_each_zone_in_node(z, pgdat)
		drain_pages_zone(me, z);
}

/*
 * Every per-CPU page of the node back to the buddy lists. A running CPU's
 * lists change without a lock, so each CPU drains its own, by cross-CPU
 * call, and this waits for all of them (so the caller may not hold a
 * spinlock or have interrupts off). Offline CPUs' lists are drained here.
 */
void drain_all_pages(struct pglist_data *pgdat)
{
	struct zone *z;

	if (!node_is_private(pgdat))
		on_each_cpu(drain_local_pages, pgdat, true);
	for_each_zone_in_node(z, pgdat)
		drain_zone_pages(z);
}

/* --- allocation ------------------------------------------------------------ */

/* Below the minimum: may this caller dig into the reserve? */
static noinline bool zone_watermark_reserve(struct zone *z, unsigned int order,
					    gfp_t gfp)
{
	unsigned long min = z->watermark_min;

	if (gfp & __GFP_MEMALLOC)
		min = 0;
	else if (gfp & __GFP_ATOMIC)
		min /= 2; /* atomic callers cannot wait: let them dig deeper */
	else
		return false;
	return z->free_pages >= min + (1UL << order);
}

/*
 * Above the full minimum every caller may allocate: one compare. Only a
 * zone near its minimum asks what the caller may dip into.
 */
static inline bool zone_watermark_ok(struct zone *z, unsigned int order, gfp_t gfp)
{
	if (likely(z->free_pages >= z->watermark_min + (1UL << order)))
		return true;
	return zone_watermark_reserve(z, order, gfp);
}

static __hot_inline struct page *rmqueue(struct zone *zone, unsigned int order, int mt,
					 gfp_t gfp)
{
	unsigned long flags;
	struct page *page = NULL;

	if (order == 0 && likely(page_alloc_pcp)) {
		struct per_cpu_pages *pcp;

		flags = arch_irq_save();
		pcp = &zone->pcp[smp_processor_id()];
		if (unlikely(list_empty(&pcp->lists[mt])) && zone_watermark_ok(zone, 0, gfp))
			rmqueue_bulk(zone, pcp->batch, mt, pcp);
		if (likely(!list_empty(&pcp->lists[mt]))) {
			page = list_first_entry(&pcp->lists[mt], struct page, lru);
			list_del(&page->lru);
			page->flags &= ~PG_pcp;
			pcp->count--;
		}
		arch_irq_restore(flags);
		return page;
	}
	spin_lock_irqsave(&zone->lock, flags);
	if (zone_watermark_ok(zone, order, gfp))
		page = __rmqueue(zone, order, mt);
	spin_unlock_irqrestore(&zone->lock, flags);
	return page;
}

/* DMA wins over DMA32; neither is Normal. A table of the four cases is
 * one load on the fast path, where two tests were two branches and a
 * spill of each zone field's offset. */
_Static_assert(__GFP_DMA == 1 && __GFP_DMA32 == 2, "gfp_zone() indexes by the two bits");
static const u8 gfp_zone_table[4] = {
	[0] = ZONE_NORMAL, [__GFP_DMA] = ZONE_DMA, [__GFP_DMA32] = ZONE_DMA32,
	[__GFP_DMA | __GFP_DMA32] = ZONE_DMA,
};

static inline enum zone_type gfp_zone(gfp_t gfp)
{
	return gfp_zone_table[gfp & (__GFP_DMA | __GFP_DMA32)];
}

/* Where an allocation starts: its highest allowed zone that has frames. */
static inline struct zone *first_zone(struct pglist_data *pgdat, gfp_t gfp)
{
	return pgdat->first_zone[gfp & (__GFP_DMA | __GFP_DMA32)];
}

void set_first_zones(struct pglist_data *pgdat)
{
	for (unsigned int bits = 0; bits < ARRAY_SIZE(pgdat->first_zone); bits++) {
		int z = gfp_zone_table[bits];

		while (z > 0 && zone_is_empty(&pgdat->node_zones[z]))
			z--;
		/* a pointer, not an index: no multiply on the fast path */
		pgdat->first_zone[bits] = &pgdat->node_zones[z];
	}
}

static inline int gfp_migratetype(gfp_t gfp)
{
	return (gfp & __GFP_MOVABLE) ? MIGRATE_MOVABLE : MIGRATE_UNMOVABLE;
}

/*
 * fail_page_alloc= (fail_page_alloc.c arms it): the decision stays here,
 * where gcc can fold it into the allocation paths; only reached when armed.
 */
static bool __should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	struct fail_page_alloc_attr *fail = &fail_page_alloc;

	if (++fail->calls % fail->interval)
		return false;
	if (fail->probability < 100 && get_random_u32() % 100 >= fail->probability)
		return false;
	if (fail->times > 0)
		fail->times--;
	fail->injected++;
	return true;
}

static inline bool should_fail_alloc_page(gfp_t gfp, unsigned int order)
{
	return unlikely(fail_page_alloc.times) && __should_fail_alloc_page(gfp, order);
}

static void check_poison(struct page *page, unsigned int order)
{
	const u8 *p = page_address(page);
	size_t len = PAGE_SIZE << order;

	for (size_t i = 0; i < len; i++) {
		if (p[i] != PAGE_POISON) {
			pr_err("page_alloc: pfn %#lx byte %zu is %#x after free: written after free\n",
			       page_to_pfn(page) + i / PAGE_SIZE, i % PAGE_SIZE, p[i]);
			page_zone(page)->zone_pgdat->bad_pages++;
			return;
		}
	}
}

/* Poison checks and zeroing: only for memory that exists. */
static void prep_new_page_slow(struct zone *zone, struct page *page,
			       unsigned int order, gfp_t gfp)
{
	if (!node_has_memory(zone->zone_pgdat))
		return;
	if (page_alloc_debug)
		check_poison(page, order);
	if (gfp & __GFP_ZERO)
		for (unsigned long i = 0; i < (1UL << order); i++)
			clear_page((u8 *)page_address(page) + i * PAGE_SIZE);
}

/* The pcp pop's poison check or zeroing, as a tail call: the pop then
 * saves no register for it. */
static noinline struct page *
prep_new_pcp_page_slow(struct zone *zone, struct page *page, gfp_t gfp)
{
	prep_new_page_slow(zone, page, 0, gfp);
	return page;
}

static inline void prep_new_page(struct zone *zone, struct page *page,
				 unsigned int order, gfp_t gfp)
{
	page->refcount = 1;
	/* off a free list: no PG_head (cleared when freed) or PG_slab (a
	 * slab page is refused by the free checks until the slab clears it) */
	if (order)
		page->flags |= PG_head;
	page->order = (u8)order;
	if (unlikely(page_alloc_debug || (gfp & __GFP_ZERO)))
		prep_new_page_slow(zone, page, order, gfp);
}

/*
 * Nothing in the preferred zone: the lower zones, then the failure report.
 * (__rmqueue_fallback, stealing from the other migratetype, has already
 * been tried in each zone by rmqueue.)
 */
/*
 * The pageblock-order blocks cached on the per-CPU lists this CPU may
 * touch (its own; every CPU's on a simulated node), back to the buddy
 * lists. True if there were any: an allocation that failed may now work.
 */
static bool drain_reachable_blocks(struct pglist_data *pgdat)
{
	unsigned long flags = arch_irq_save();
	bool any = false;
	struct zone *z;

	for_each_zone_in_node(z, pgdat)
		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			struct per_cpu_pages *pcp = &z->pcp[cpu];

			if (!pcp->nr_blocks || !pcp_reachable(z, cpu))
				continue;
			spin_lock(&z->lock);
			free_pcp_blocks(z, pcp);
			spin_unlock(&z->lock);
			any = true;
		}
	arch_irq_restore(flags);
	return any;
}

static struct page *alloc_pages_slow(struct pglist_data *pgdat, int nid, gfp_t gfp,
				     unsigned int order, int mt)
{
	struct page *page = NULL;
	struct zone *zone = NULL;
	bool drained = false;

	if (order >= MAX_ORDER) {
		if (!(gfp & __GFP_NOWARN))
			pr_warn("page_alloc: order %u is beyond MAX_ORDER-1 (%d)\n",
				order, MAX_ORDER - 1);
		return NULL;
	}
	if (!pgdat)
		return NULL;
	/*
	 * The preferred zone again if deferred init can grow it, then each
	 * zone below down to DMA, each grown as needed before falling back.
	 * If all fail, the per-CPU caches' blocks are given back (they may
	 * hold what is missing, unmerged) and everything is tried again.
	 */
retry:
	for (int z = (int)gfp_zone(gfp); z >= 0 && !page; z--) {
		bool deferred = READ_ONCE(pgdat->deferred_pending);

		zone = &pgdat->node_zones[z];
		if (zone == first_zone(pgdat, gfp) && !deferred && !drained)
			continue; /* the fast path tried it */
		for (;;) {
			if (zone->managed_pages)
				page = rmqueue(zone, order, mt, gfp);
			if (page || !deferred || !zone_deferred(zone) ||
			    !deferred_grow(zone, order))
				break;
		}
	}
	if (!page && !drained && drain_reachable_blocks(pgdat)) {
		drained = true;
		goto retry;
	}
	if (!page) {
		pgdat->node_zones[gfp_zone(gfp)].alloc_fail++;
		if (!(gfp & __GFP_NOWARN))
			pr_warn("page_alloc: allocation failure: order %u, gfp %#x, node %d\n",
				order, gfp, nid);
		return NULL;
	}
	zone->alloc_count++;
	prep_new_page(zone, page, order, gfp);
	return page;
}

/*
 * Everything but an order-0 page found on the per-CPU list: the buddy
 * lists under the zone lock, a pcp refill, the lower zones. Out of line so
 * that the pcp fast path in alloc_pages_node() keeps few registers live.
 */
static noinline struct page *
alloc_pages_zone(int nid, gfp_t gfp, unsigned int order, bool fail_checked)
{
	struct pglist_data *pgdat = NODE_DATA(nid);
	int mt = gfp_migratetype(gfp);
	struct page *page = NULL;
	struct zone *zone;

	if (unlikely(order >= MAX_ORDER || !pgdat))
		return alloc_pages_slow(pgdat, nid, gfp, order, mt);
	/* fault injection counts each request once */
	if (!fail_checked && should_fail_alloc_page(gfp, order))
		return NULL;
	/* The highest zone allowed first; the slow path goes down to DMA. */
	zone = first_zone(pgdat, gfp);
	__asm__("" : "+r"(zone)); /* one register (see alloc_pages_node()) */
	if (likely(zone->managed_pages))
		page = rmqueue(zone, order, mt, gfp);
	if (unlikely(!page))
		return alloc_pages_slow(pgdat, nid, gfp, order, mt);
	zone->alloc_count++;
	prep_new_page(zone, page, order, gfp);
	return page;
}

/*
 * This CPU's first pcp page of the zone; if the list is empty, the
 * buddy path (which refills it). A function of its own, each path ending
 * in a tail call, so that alloc_pages_node() saves no registers on its way
 * to alloc_pages_zone() (gcc saves them on entry otherwise).
 */
static __hot_inline struct page *pcp_alloc_fast(struct zone *zone, gfp_t gfp)
{
	struct list_head *list, *first;
	struct page *page;
	unsigned long flags = arch_irq_save();
	struct per_cpu_pages *pcp = &zone->pcp[smp_processor_id()];

	__asm__("" : "+r"(pcp)); /* one register, as for the zone */
	list = &pcp->lists[gfp_migratetype(gfp)];
	__asm__("" : "+r"(list)); /* and the list's (see free_unref_page_commit()) */
	/* the first entry read once: list_empty()'s READ_ONCE and
	 * list_first_entry() would read it twice (interrupts are off) */
	first = list->next;
	if (unlikely(first == list)) {
		arch_irq_restore(flags);
		/* refill: nid from the zone (the same value) */
		return alloc_pages_zone(zone->zone_pgdat->node_id, gfp, 0, true);
	}
	page = list_entry(first, struct page, lru);
	list_del(&page->lru);
	pcp->count--;
	arch_irq_restore(flags);
	zone->alloc_count++;
	/* prep_new_page() for order 0, with PG_pcp cleared in the same write */
	page->refcount = 1;
	page->flags &= ~(PG_pcp | PG_head | PG_slab);
	page->order = 0;
	if (unlikely(page_alloc_debug || (gfp & __GFP_ZERO)))
		return prep_new_pcp_page_slow(zone, page, gfp);
	return page;
}

/*
 * A pageblock-order block from this CPU's cache, or the buddy path. As
 * pcp_alloc_fast(), for the huge-page size (page_alloc.pcp_blocks=).
 */
static noinline struct page *pcp_alloc_block(struct zone *zone, gfp_t gfp)
{
	struct list_head *list;
	struct page *page;
	unsigned long flags = arch_irq_save();
	struct per_cpu_pages *pcp = &zone->pcp[smp_processor_id()];

	__asm__("" : "+r"(pcp)); /* one register, as in pcp_alloc_fast() */
	list = &pcp->blocks[gfp_migratetype(gfp)];
	if (list_empty(list)) {
		arch_irq_restore(flags);
		return alloc_pages_zone(zone->zone_pgdat->node_id, gfp, pageblock_order, true);
	}
	page = list_first_entry(list, struct page, lru);
	list_del(&page->lru);
	pcp->nr_blocks--;
	arch_irq_restore(flags);
	zone->alloc_count++;
	page->flags &= ~PG_pcp;
	prep_new_page(zone, page, pageblock_order, gfp);
	return page;
}

/* The pcp fast path with fault injection armed: ask it first. */
static noinline struct page *alloc_pcp_armed(struct pglist_data *pgdat,
					     gfp_t gfp)
{
	if (should_fail_alloc_page(gfp, 0))
		return NULL;
	return pcp_alloc_fast(first_zone(pgdat, gfp), gfp);
}

/*
 * The common case is kept short: an order-0 page already on this CPU's
 * list (or a pageblock-order block in its cache). Every path ends in a
 * tail call, so nothing here saves registers; everything else (an empty
 * list, other orders, a missing node) is alloc_pages_zone(), which starts
 * over with all the checks but fault injection, when this path has
 * already asked it.
 */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	if (order == 0 && likely(page_alloc_pcp)) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		if (likely(pgdat)) {
			struct zone *zone;

			if (unlikely(fail_page_alloc.times))
				return alloc_pcp_armed(pgdat, gfp);
			zone = first_zone(pgdat, gfp);

			/*
			 * One register for the zone: left alone, gcc keeps the
			 * zone's index and rebuilds each field's address from it
			 * (three multiplies and a spill on x86-64).
			 */
			__asm__("" : "+r"(zone));
			return pcp_alloc_fast(zone, gfp);
		}
	} else if (order == pageblock_order && likely(page_alloc_pcp) && page_alloc_pcp_blocks &&
		   likely(!fail_page_alloc.times)) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		/* fault injection is off: asking it would change nothing */
		if (likely(pgdat))
			return pcp_alloc_block(first_zone(pgdat, gfp), gfp);
	}
	return alloc_pages_zone(nid, gfp, order, false);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	return alloc_pages_node(0, gfp, order);
}

/* --- freeing ----------------------------------------------------------------- */

static void bad_page(struct page *page, unsigned int order, const char *why)
{
	struct pglist_data *pgdat = page_zone(page)->zone_pgdat;

	pgdat->bad_pages++;
	pr_err("page_alloc: bad free of pfn %#lx order %u: %s (flags %#x, refcount %d); page kept out\n",
	       page_to_pfn(page), order, why, page->flags, page->refcount);
	dump_stack();
}

/*
 * Everything a freed block must be, one check at a time so that a bad free
 * is named; true (and a report) if it is bad. Linux's check_free_page_bad().
 */
static noinline bool check_free_page_bad(struct page *page, unsigned int order)
{
	const char *why;

	if (PageBuddy(page) || (page->flags & PG_pcp) || page->refcount == 0)
		why = "already free (double free)";
	else if (PageReserved(page) || PageOffline(page))
		why = "not managed by the page allocator";
	else if (PageSlab(page))
		why = "still owned by a slab cache";
	else if (page->order != order || (order && !PageHead(page)))
		why = "freed with a different order than allocated";
	else if (page->refcount != 1)
		why = "still referenced";
	else
		return false;
	bad_page(page, order, why);
	return true;
}

/*
 * The same checks in one test for the common case (a good free): no state
 * flag, refcount 1, the order it was allocated with, a head if order > 0.
 * Only a bad free goes through the one-by-one checks above to be named.
 */
static inline bool page_expected_state(const struct page *page, unsigned int order)
{
	const u32 bad_flags = PG_buddy | PG_pcp | PG_reserved | PG_offline | PG_slab;

	return !(page->flags & bad_flags) && page->refcount == 1 &&
	       page->order == order && (!order || (page->flags & PG_head));
}

/* Is this free a bad one? (reported if so) Linux's check_free_page(). */
static inline bool check_free_page(struct page *page, unsigned int order)
{
	return unlikely(!page_expected_state(page, order)) && check_free_page_bad(page, order);
}

void (*page_free_check)(phys_addr_t start, size_t bytes);

/* dma.debug's look at every free (a hook, so out of line). */
static noinline void free_check_hook(struct page *page, unsigned int order)
{
	if (node_has_memory(page_zone(page)->zone_pgdat))
		page_free_check(page_to_phys(page), PAGE_SIZE << order);
}

/*
 * The buddy path of a free (pcp lists off, or order > 0), Linux's
 * free_one_page(): merge under the zone lock. Out of line, so that the pcp
 * fast path in __free_pages() keeps few registers live. Two copies
 * (free_one_page_copy()): the policy's hooks on free are
 * calls, and a call in a function makes gcc keep the values that live
 * across it in registers the function must save and restore; the copy
 * without hooks has no call but the lock's.
 */
static __hot_inline void free_one_page_copy(struct zone *zone, struct page *page,
					    unsigned int order, bool hooked)
{
	unsigned long flags;

	page->flags &= ~PG_head;
	page->order = 0;
	spin_lock_irqsave(&zone->lock, flags);
	/* the pfn and the type worked out under the lock, for the same
	 * reason: nothing of the merge is live across the lock's call */
	zone->free_count++;
	__free_one_page(page, zone_page_pfn(zone, page), zone, order,
			get_pageblock_migratetype(page), FPI_NONE, hooked, zone_interior(zone));
	spin_unlock_irqrestore(&zone->lock, flags);
}

static noinline void free_one_page_hooked(struct zone *zone, struct page *page,
					  unsigned int order)
{
	free_one_page_copy(zone, page, order, true);
}

static noinline void free_one_page(struct zone *zone, struct page *page,
				   unsigned int order)
{
	if (unlikely(policy_hooks_free(zone))) {
		free_one_page_hooked(zone, page, order);
		return;
	}
	free_one_page_copy(zone, page, order, false);
}

/*
 * The list went over its high mark: the coldest batch back to the buddy
 * lists, then interrupts as they were. A tail call from
 * free_unref_page_commit(), which so makes no other call and saves no
 * registers.
 */
static noinline void free_pcp_overflow(struct zone *zone, struct per_cpu_pages *pcp,
				       unsigned long flags)
{
	free_pcppages_bulk(zone, pcp->batch, pcp);
	arch_irq_restore(flags);
}

/*
 * An order-0 page onto this CPU's list (Linux's free_unref_page_commit()),
 * the coldest batch back to the buddy lists when the list is over its
 * high mark.
 */
static __hot_inline void free_unref_page_commit(struct zone *zone, struct page *page)
{
	int mt = get_pageblock_migratetype(page);
	struct per_cpu_pages *pcp;
	struct list_head *list;
	unsigned long flags;

	/* the check saw order 0: page->order is 0 already */
	page->flags = (page->flags & ~PG_head) | PG_pcp;
	flags = arch_irq_save();
	pcp = &zone->pcp[smp_processor_id()];
	__asm__("" : "+r"(pcp)); /* one register, as for the zone */
	list = &pcp->lists[mt];
	/* and one for the list: left alone, gcc builds its address twice,
	 * once for the head and once for head->next */
	__asm__("" : "+r"(list));
	list_add(&page->lru, list); /* hot: reused first */
	zone->free_count++;
	if (unlikely(++pcp->count >= pcp->high)) {
		free_pcp_overflow(zone, pcp, flags);
		return;
	}
	arch_irq_restore(flags);
}

/*
 * May freed pageblock-order blocks wait on the per-CPU caches? Only under a
 * policy that has no say in allocations and does not count frees: a
 * cached block is handed out again without the policy's pick or taken,
 * and its freed would come only when it is drained. A free_to_tail hook
 * (the shuffle's entropy) is asked when the block is drained, which is
 * when it is listed.
 */
static inline bool pcp_blocks_allowed(const struct zone *zone)
{
	return page_alloc_pcp_blocks && zone->zone_pgdat->pcp_blocks_ok;
}

/* A pageblock-order block onto this CPU's cache, if there is room. */
static noinline void free_pcp_block(struct zone *zone, struct page *page)
{
	int mt = get_pageblock_migratetype(page);
	struct per_cpu_pages *pcp;
	unsigned long flags;

	flags = arch_irq_save();
	pcp = &zone->pcp[smp_processor_id()];
	__asm__("" : "+r"(pcp)); /* one register, as in free_unref_page_commit() */
	if (pcp->nr_blocks >= PCP_MAX_BLOCKS) {
		arch_irq_restore(flags);
		free_one_page(zone, page, pageblock_order);
		return;
	}
	/* free as on a buddy list, but a pcp block: PG_pcp, its order kept */
	page->flags = (page->flags & ~PG_head) | PG_pcp;
	list_add(&page->lru, &pcp->blocks[mt]);
	pcp->nr_blocks++;
	zone->free_count++;
	arch_irq_restore(flags);
}

/*
 * Where a checked free goes (Linux's free_unref_page()): this CPU's list
 * or block cache, else the zone.
 */
static __hot_inline void free_unref_page(struct zone *zone, struct page *page,
					 unsigned int order)
{
	if (likely(page_alloc_pcp)) {
		if (order == 0) {
			free_unref_page_commit(zone, page);
			return;
		}
		if (order == pageblock_order && pcp_blocks_allowed(zone)) {
			free_pcp_block(zone, page);
			return;
		}
	}
	free_one_page(zone, page, order);
}

/*
 * A free with something more to do: dma.debug's hook, page_alloc.debug's
 * poison, or a bad free to report. As Linux's __free_pages_ok(), the
 * checks, then the free. Out of line, so that __free_pages() makes no call
 * but its tail calls and saves no registers.
 */
static noinline void __free_pages_ok(struct page *page, unsigned int order)
{
	struct zone *zone;

	if (page_free_check)
		free_check_hook(page, order);
	if (check_free_page(page, order))
		return;
	page->refcount = 0;
	zone = page_zone(page);
	if (page_alloc_debug && node_has_memory(zone->zone_pgdat))
		memset(page_address(page), PAGE_POISON, PAGE_SIZE << order);
	free_unref_page(zone, page, order);
}

/*
 * A page that held a program's code is zeroed before it is free again.
 * Under QEMU's TCG the translations of the code stay attached to the
 * physical page until stores cover them, and while any is left every
 * store into the page takes QEMU's self-modifying-code path: a slab page
 * made from an old program's text page held a new pipe's struct, and
 * every read and write of that pipe ran ten times slower, which made
 * bench mm's pipe stream 5 us a write in one run and 100 us in the next
 * (docs/processes.md). Linux keeps a program's text in its page cache
 * after the program ends, so its text pages are seldom recycled; Pagoda
 * frees them with their last mapping, and zeroing the page (every byte
 * stored once) drops all of its translations at once.
 */
static noinline void free_exec_page(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (page[i].flags & PG_exec) {
			page[i].flags &= ~PG_exec;
			if (node_has_memory(page_zone(page)->zone_pgdat))
				clear_page(page_address(page + i));
		}
	}
}

void __free_pages(struct page *page, unsigned int order)
{
	struct zone *zone;

	if (unlikely(!page))
		return;
	if (unlikely(page->flags & PG_exec))
		free_exec_page(page, order);
	if (unlikely(page_free_check || page_alloc_debug || !page_expected_state(page, order))) {
		__free_pages_ok(page, order);
		return;
	}
	page->refcount = 0;
	zone = page_zone(page);
	/* one register for the zone (see alloc_pages_node()) */
	__asm__("" : "+r"(zone));
	free_unref_page(zone, page, order);
}

/*
 * The block's head gives up its order and every page of it is what an
 * order-0 allocation returns (refcount 1, order 0, no head): each can be
 * freed alone, and the buddy merge puts them together again as they come
 * back. The pages after the head are as the allocator left them: no
 * state flag, refcount 0 (checked by the frees that follow, not here).
 */
void split_page(struct page *page, unsigned int order)
{
	page->flags &= ~PG_head;
	page->order = 0;
	for (unsigned long i = 1; i < (1UL << order); i++) {
		page[i].refcount = 1;
		page[i].order = 0;
	}
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	return __get_free_pages(gfp | __GFP_ZERO, 0);
}

void free_pages(unsigned long addr, unsigned int order)
{
	struct page *page;

	if (!addr)
		return;
	page = virt_to_page((void *)addr);
	if (!page) {
		pr_err("page_alloc: free_pages(%#lx): not a direct-map address\n", addr);
		dump_stack();
		return;
	}
	__free_pages(page, order);
}

/* --- a zone's allocator state ------------------------------------------------- */

/*
 * For a zone whose span is set (pgdat_init(), mm_init.c): empty free
 * lists and per-CPU lists, and what the fast paths read instead of
 * computing per operation, the zone's interior.
 */
void zone_init_free_lists(struct zone *zone)
{
	unsigned long lo = ALIGN_UP(zone->zone_start_pfn, MAX_ORDER_NR_PAGES);
	unsigned long hi = ALIGN_DOWN(zone_end_pfn(zone), MAX_ORDER_NR_PAGES);

	zone->interior_lo = lo;
	zone->interior_span = hi > lo ? hi - lo : 0;
	spin_lock_init(&zone->lock);
	for (int o = 0; o < MAX_ORDER; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &zone->pcp[cpu];

		pcp->batch = 31;
		pcp->high = 6 * pcp->batch;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			INIT_LIST_HEAD(&pcp->lists[mt]);
			INIT_LIST_HEAD(&pcp->blocks[mt]);
		}
	}
}

/* --- counting --------------------------------------------------------------- */

unsigned long nr_free_pages(void)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long n = 0;
	struct zone *z;

	if (!pgdat)
		return 0;
	for_each_zone_in_node(z, pgdat) {
		n += READ_ONCE(z->free_pages);
		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			n += pcp_free_pages(&z->pcp[cpu]);
	}
	return n;
}

unsigned long totalram_pages(void)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long n = 0;
	struct zone *z;

	if (!pgdat)
		return 0;
	for_each_zone_in_node(z, pgdat)
		n += z->managed_pages;
	return n;
}

/* Linux: min_free_kbytes = sqrt(16 * lowmem_kbytes), within [128, 65536]. */
void setup_watermarks(struct pglist_data *pgdat)
{
	unsigned long managed = 0, kbytes, min_kb = 128, min_pages;
	struct zone *z;

	for_each_zone_in_node(z, pgdat)
		managed += z->managed_pages;
	kbytes = managed * (PAGE_SIZE / 1024);
	while ((min_kb + 1) * (min_kb + 1) <= 16 * kbytes && min_kb < 65536)
		min_kb++;
	min_pages = min_kb / (PAGE_SIZE / 1024);
	for_each_zone_in_node(z, pgdat)
		z->watermark_min = managed ? min_pages * z->managed_pages / managed : 0;
}
