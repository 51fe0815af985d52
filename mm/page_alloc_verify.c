// SPDX-License-Identifier: MIT
/*
 * The buddy allocator's invariants, checked by walking everything. Used by
 * the tests (after every step of a random workload), by the lab after each
 * policy run, and by the shell's `pagealloc check`.
 *
 * For every zone, under its lock:
 *   1. each listed block is a free block head (PG_buddy) of the list's
 *      order, naturally aligned, inside the zone, and no struct page of it
 *      is reserved, offline or referenced;
 *   2. the lists' lengths equal free_area[o].nr_free, and the pages they
 *      hold add up to zone->free_pages;
 *   3. coalescing is complete: no free block has a free buddy of the same
 *      order (they would have merged);
 *   4. walking the zone's struct pages finds exactly the listed heads (no
 *      block is on a list twice or on none);
 *   5. each per-CPU list holds order-0 PG_pcp pages of this zone, as many
 *      as its count says, and its block lists PG_pcp heads of aligned
 *      pageblock-order blocks of this zone, as many as nr_blocks says
 *      (for the lists this CPU may look at).
 * Struct pages not yet written by deferred init (zone->first_deferred_pfn on)
 * hold nothing: no listed block may lie there, and the walk stops there.
 */
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "internal.h"

#define FAIL(...)                                    \
	do {                                         \
		snprintf(why, len, __VA_ARGS__);     \
		return -EINVAL;                      \
	} while (0)

static int verify_lists(struct zone *z, char *why, size_t len,
			unsigned long *heads)
{
	unsigned long pages = 0;

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		unsigned long n = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct page *p;

			list_for_each_entry(p, &z->free_area[o].free_list[mt], lru) {
				unsigned long pfn = page_to_pfn(p);

				if (!PageBuddy(p) || p->order != o)
					FAIL("%s: pfn %#lx on the order-%u list but flags %#x order %u",
					     z->name, pfn, o, p->flags, p->order);
				if (pfn & ((1UL << o) - 1))
					FAIL("%s: order-%u block at pfn %#lx is misaligned",
					     z->name, o, pfn);
				if (pfn < z->zone_start_pfn || pfn + (1UL << o) > zone_end_pfn(z))
					FAIL("%s: block %#lx+%lu outside the zone", z->name, pfn,
					     1UL << o);
				if (pfn + (1UL << o) > z->first_deferred_pfn)
					FAIL("%s: block %#lx+%lu lies where struct pages are not written yet",
					     z->name, pfn, 1UL << o);
				for (unsigned long i = 0; i < (1UL << o); i++)
					if (p[i].refcount || (p[i].flags & (PG_reserved | PG_offline |
									    PG_pcp | PG_slab)) ||
					    (i && PageBuddy(&p[i])))
						FAIL("%s: free block %#lx+%lu has a busy page at +%lu (flags %#x ref %d)",
						     z->name, pfn, 1UL << o, i, p[i].flags,
						     p[i].refcount);
				if (o < MAX_ORDER - 1) {
					unsigned long b = pfn ^ (1UL << o);

					if (zone_spans_pfn(z, b) && PageBuddy(pfn_to_page(b)) &&
					    pfn_to_page(b)->order == o)
						FAIL("%s: free buddies %#lx and %#lx (order %u) not merged",
						     z->name, pfn, b, o);
				}
				n++;
				if (n > z->spanned_pages)
					FAIL("%s: order-%u list loops", z->name, o);
			}
		}
		if (n != z->free_area[o].nr_free)
			FAIL("%s: order %u lists hold %lu blocks, nr_free says %lu",
			     z->name, o, n, z->free_area[o].nr_free);
		pages += n << o;
		*heads += n;
	}
	if (pages != z->free_pages)
		FAIL("%s: lists hold %lu pages, free_pages says %lu", z->name, pages,
		     z->free_pages);
	return 0;
}

static int verify_memmap(struct zone *z, unsigned long heads, char *why, size_t len)
{
	unsigned long found = 0;
	unsigned long end = MIN(zone_end_pfn(z), z->first_deferred_pfn);

	/* every page carries its pageblock's migratetype (mm/internal.h) */
	for (unsigned long pfn = z->zone_start_pfn; pfn < end; pfn++) {
		unsigned long head = MAX(pfn & ~(pageblock_nr_pages - 1), z->zone_start_pfn);
		int mt = pfn_to_page(head)->pb_migratetype;

		if (pfn_to_page(pfn)->pb_migratetype != mt)
			FAIL("%s: pfn %#lx has migratetype %d, its pageblock (%#lx) %d", z->name,
			     pfn, pfn_to_page(pfn)->pb_migratetype, head, mt);
	}
	for (unsigned long pfn = z->zone_start_pfn; pfn < end; pfn++) {
		struct page *p = pfn_to_page(pfn);

		if (page_zone(p) != z)
			FAIL("%s: pfn %#lx claims zone %s", z->name, pfn, page_zone(p)->name);
		if (PageBuddy(p)) {
			found++;
			pfn += (1UL << p->order) - 1;
		}
	}
	if (found != heads)
		FAIL("%s: %lu free heads in the memory map, %lu on the lists", z->name,
		     found, heads);
	return 0;
}

static int verify_pcp(struct zone *z, char *why, size_t len)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct per_cpu_pages *pcp = &z->pcp[cpu];
		long n = 0;

		if (!pcp_reachable(z, cpu))
			continue; /* its owner may be changing it right now */

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct page *p;

			list_for_each_entry(p, &pcp->lists[mt], lru) {
				if (!(p->flags & PG_pcp) || PageBuddy(p) || p->refcount ||
				    page_zone(p) != z)
					FAIL("%s: cpu %d pcp page %#lx flags %#x ref %d", z->name,
					     cpu, page_to_pfn(p), p->flags, p->refcount);
				n++;
			}
		}
		if (n != pcp->count)
			FAIL("%s: cpu %d pcp lists hold %ld, count %d", z->name, cpu, n,
			     pcp->count);
		n = 0;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct page *p;

			list_for_each_entry(p, &pcp->blocks[mt], lru) {
				unsigned long pfn = page_to_pfn(p);

				if (!(p->flags & PG_pcp) || PageBuddy(p) || p->refcount ||
				    p->order != pageblock_order ||
				    (pfn & (pageblock_nr_pages - 1)) || page_zone(p) != z ||
				    !zone_spans_pfn(z, pfn + pageblock_nr_pages - 1))
					FAIL("%s: cpu %d pcp block %#lx flags %#x order %u ref %d",
					     z->name, cpu, pfn, p->flags, p->order, p->refcount);
				n++;
			}
		}
		if (n != pcp->nr_blocks)
			FAIL("%s: cpu %d pcp block lists hold %ld, nr_blocks %d", z->name, cpu,
			     n, pcp->nr_blocks);
	}
	return 0;
}

int page_alloc_verify(struct pglist_data *pgdat, char *why, size_t len)
{
	struct zone *z;
	int err = 0;

	for_each_zone_in_node(z, pgdat) {
		unsigned long flags, heads = 0;

		spin_lock_irqsave(&z->lock, flags);
		err = verify_lists(z, why, len, &heads);
		if (!err)
			err = verify_memmap(z, heads, why, len);
		if (!err)
			err = verify_pcp(z, why, len);
		spin_unlock_irqrestore(&z->lock, flags);
		if (err)
			return err;
	}
	return 0;
}
