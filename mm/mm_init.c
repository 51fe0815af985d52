// SPDX-License-Identifier: MIT
/*
 * Building a node and writing its struct pages, after Linux's mm/mm_init.c.
 *
 *   pgdat_init()          lays the zones over the node's span (Linux's
 *                         free_area_init_node()), gives each its empty
 *                         lists (zone_init_free_lists(), page_alloc.c) and
 *                         writes the struct pages of the part not deferred
 *                         (init_struct_pages(), Linux's memmap_init());
 *   free_range_core()     hands a free range to the buddy allocator as the
 *                         largest aligned blocks that fit, or remembers it
 *                         for deferred init when its struct pages are not
 *                         written yet;
 *   deferred init         writes and frees the rest a chunk at a time
 *                         (Linux's deferred_init_memmap()), from a kernel
 *                         thread (boot_node.c), on demand from an
 *                         allocation (deferred_grow()), or all at once.
 *
 * Node 0 is built by boot_node.c from the boot memory map, simulated nodes
 * by memsim.c; both come here. The allocator itself is page_alloc.c.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "internal.h"
#include "policy.h"

static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal" };

/*
 * Write the struct pages of [from, to) of the node: reserved, in their
 * zone, every pageblock movable (as in Linux). One template copied per
 * zone: this is the loop that dominated boot before deferral.
 */
static void init_struct_pages(struct pglist_data *pgdat, unsigned long from,
			      unsigned long to)
{
	struct zone *zone;

	for_each_zone_in_node(zone, pgdat) {
		unsigned long s = MAX(from, zone->zone_start_pfn);
		unsigned long e = MIN(to, zone_end_pfn(zone));
		struct page *map = pgdat->node_mem_map;
		const struct page tmpl = {
			.flags = PG_reserved, .refcount = 1, .node_id = (u8)pgdat->node_id,
			.zone_idx = (u8)zone->idx, .pb_migratetype = MIGRATE_MOVABLE,
		};

		for (unsigned long pfn = s; pfn < e; pfn++)
			map[pfn - pgdat->node_start_pfn] = tmpl;
	}
}

void pgdat_init(struct pglist_data *pgdat, int nid, const char *name,
		unsigned long start_pfn, unsigned long spanned,
		struct page *mem_map, const unsigned long zone_end[MAX_NR_ZONES],
		bool simulated, unsigned long defer_from)
{
	unsigned long zstart = start_pfn, end = start_pfn + spanned;

	memset(pgdat, 0, sizeof(*pgdat));
	pgdat->node_id = nid;
	pgdat->name = name;
	pgdat->simulated = simulated;
	pgdat->node_start_pfn = start_pfn;
	pgdat->node_spanned_pages = spanned;
	pgdat->node_mem_map = mem_map;
	policy_set(pgdat, &policy_inorder); /* the creator attaches its own */
	if ((start_pfn >> NODE_PFN_SHIFT) != (unsigned long)nid ||
	    ((end - 1) >> NODE_PFN_SHIFT) != (unsigned long)nid)
		pr_err("page_alloc: node %d spans pfns %#lx-%#lx, outside its window (NODE_PFN_SHIFT)\n",
		       nid, start_pfn, end);

	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		unsigned long zend = MIN(MAX(zone_end[z], zstart), end);

		zone->name = zone_names[z];
		zone->zone_pgdat = pgdat;
		zone->idx = z;
		zone->zone_start_pfn = zstart;
		zone->spanned_pages = zend - zstart;
		zone_init_free_lists(zone);
		zstart = zend;
	}
	set_first_zones(pgdat);
	/*
	 * Each zone defers from defer_from or its own start, whichever is
	 * later, in whole max-order blocks (so no merge crosses the line):
	 * a zone above defer_from starts empty and grows when asked.
	 */
	spin_lock_init(&pgdat->deferred_lock);
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];
		unsigned long zend = zone_end_pfn(zone), d = zend;

		if (defer_from < zend)
			d = MIN(ALIGN_UP(MAX(defer_from, zone->zone_start_pfn),
					 MAX_ORDER_NR_PAGES), zend);
		zone->first_deferred_pfn = d;
		pgdat->deferred_pages += zend - d;
		init_struct_pages(pgdat, zone->zone_start_pfn, d);
	}
	pgdat->deferred_pending = pgdat->deferred_pages != 0;
	node_data[nid] = pgdat;
}

void pgdat_unregister(struct pglist_data *pgdat)
{
	if (node_data[pgdat->node_id] == pgdat)
		node_data[pgdat->node_id] = NULL;
}

/*
 * Free [start_pfn, end_pfn), whose struct pages are written, as the
 * largest naturally aligned blocks that fit: a 1 GiB range is 256 calls
 * of __free_one_page, not 262,144.
 */
static unsigned long free_blocks(struct pglist_data *pgdat, unsigned long start_pfn,
				 unsigned long end_pfn)
{
	unsigned long pfn = start_pfn, freed = 0, flags;

	while (pfn < end_pfn) {
		struct page *page = pgdat->node_mem_map + (pfn - pgdat->node_start_pfn);
		struct zone *zone = &pgdat->node_zones[page->zone_idx];
		unsigned long zend = MIN(end_pfn, zone_end_pfn(zone));
		unsigned int order = MAX_ORDER - 1;

		/* the largest naturally aligned block that fits */
		while (order && ((pfn & ((1UL << order) - 1)) ||
				 pfn + (1UL << order) > zend))
			order--;
		for (unsigned long i = 0; i < (1UL << order); i++) {
			page[i].flags &= ~(PG_reserved | PG_offline);
			page[i].refcount = 0;
		}
		/* page_alloc.debug checks the poison at allocation: boot memory too. */
		if (unlikely(page_alloc_debug) && node_has_memory(pgdat))
			memset(page_address(page), PAGE_POISON, PAGE_SIZE << order);
		spin_lock_irqsave(&zone->lock, flags);
		zone->managed_pages += 1UL << order;
		zone->present_pages += 1UL << order;
		free_one_page_locked(page, pfn, zone, order, get_pageblock_migratetype(page),
				     FPI_POPULATE);
		spin_unlock_irqrestore(&zone->lock, flags);
		freed += 1UL << order;
		pfn += 1UL << order;
	}
	return freed;
}

/*
 * Remember [s, e) for deferred init, which frees it when it writes its
 * struct pages; false when there is no room left to.
 */
static bool defer_range(struct pglist_data *pgdat, unsigned long s, unsigned long e)
{
	unsigned long flags;
	bool kept = false;

	spin_lock_irqsave(&pgdat->deferred_lock, flags);
	if (pgdat->nr_deferred < NR_DEFERRED_RANGES) {
		pgdat->deferred[pgdat->nr_deferred].start = s;
		pgdat->deferred[pgdat->nr_deferred].end = e;
		pgdat->nr_deferred++;
		kept = true;
	}
	spin_unlock_irqrestore(&pgdat->deferred_lock, flags);
	return kept;
}

unsigned long free_range_core(struct pglist_data *pgdat, unsigned long start_pfn,
			      unsigned long end_pfn)
{
	unsigned long freed = 0;
	struct zone *z;

	for_each_zone_in_node(z, pgdat) {
		unsigned long s = MAX(start_pfn, z->zone_start_pfn);
		unsigned long e = MIN(end_pfn, zone_end_pfn(z));
		unsigned long d = MAX(s, READ_ONCE(z->first_deferred_pfn));

		if (s >= e)
			continue;
		if (d < e && !defer_range(pgdat, d, e)) {
			/* no room to remember it: write everything now */
			deferred_init_all(pgdat);
			d = e;
		}
		if (s < MIN(d, e))
			freed += free_blocks(pgdat, s, MIN(d, e));
	}
	return freed;
}

/* --- deferred struct page init ---------------------------------------------- */

/*
 * Linux's deferred struct page init, in Pagoda's words: a node may be
 * built with the struct pages of only its first part written (in each
 * zone, those from zone->first_deferred_pfn on are not, and the free
 * ranges there are kept in pgdat->deferred[]); the rest is written and
 * freed DEFERRED_CHUNK pages at a time, each zone in address order, by a
 * kernel thread once the shell is up (boot_node.c), by an allocation that
 * finds its zone empty (on demand: that zone grows before the allocation
 * falls back to a lower one, so zones are used in the same order as when
 * everything is written), or all at once by whoever needs the whole node
 * (deferred_init_all: memtest, node=real, tests and benchmarks).
 *
 * A chunk is whole max-order blocks, so no buddy ever lies across a
 * zone's first_deferred_pfn and the buddy core needs no check for it;
 * nobody else looks at a struct page beyond it, because deferral is only
 * used under a placement policy without hooks (a shuffle needs all of the
 * node's memory at once: such nodes are written whole at boot). Linux
 * defers only a node's last zone; here any zone may, which keeps a 16 GiB
 * boot from writing the 3 GiB below the PCI hole.
 */
/* 8 MiB: small enough that its struct pages (96 KiB) are still in the
 * cache when its blocks are freed, and that growing on demand costs an
 * allocation little; large enough that the lock is taken rarely. */
#define DEFERRED_CHUNK (2 * MAX_ORDER_NR_PAGES)
#define DEFERRED_GROW DEFERRED_CHUNK

/* The whole node is written: watermarks for its size, the policy's hook. */
static void deferred_finish(struct pglist_data *pgdat)
{
	struct zone *z;

	setup_watermarks(pgdat);
	for_each_zone_in_node(z, pgdat)
		policy_populated(z);
	/*
	 * This lands after the first prompt (which does not wait for it), so
	 * at the console's level it would share the prompt's line: debug
	 * level keeps it out of the console and in `dmesg` (and `meminfo`
	 * shows what is still on its way).
	 */
	if (node_has_memory(pgdat))
		pr_debug("mm: node %d: struct pages of %lu MiB written after boot in %llu us\n",
			pgdat->node_id, pgdat->deferred_pages >> (20 - PAGE_SHIFT),
			(unsigned long long)(pgdat->deferred_ns / 1000));
	WRITE_ONCE(pgdat->deferred_pending, false);
}

/*
 * Write and free the next chunk of zone (NULL: of the lowest zone with
 * work left). Returns the frames covered, 0 when there was nothing left.
 */
static unsigned long deferred_chunk(struct pglist_data *pgdat, struct zone *zone)
{
	unsigned long from = 0, to, flags;
	bool last = true;
	struct zone *z;
	u64 t0;

	if (!READ_ONCE(pgdat->deferred_pending))
		return 0;
	spin_lock_irqsave(&pgdat->deferred_lock, flags);
	if (!zone)
		for_each_zone_in_node(z, pgdat)
			if (z->first_deferred_pfn < zone_end_pfn(z)) {
				zone = z;
				break;
			}
	if (!zone || zone->first_deferred_pfn >= zone_end_pfn(zone)) {
		spin_unlock_irqrestore(&pgdat->deferred_lock, flags);
		return 0;
	}
	t0 = ktime_get_ns();
	from = zone->first_deferred_pfn;
	to = MIN(from + DEFERRED_CHUNK, zone_end_pfn(zone));
	init_struct_pages(pgdat, from, to);
	for (unsigned int i = 0; i < pgdat->nr_deferred; i++) {
		unsigned long s = MAX(pgdat->deferred[i].start, from);
		unsigned long e = MIN(pgdat->deferred[i].end, to);

		if (s < e)
			free_blocks(pgdat, s, e);
	}
	WRITE_ONCE(zone->first_deferred_pfn, to);
	pgdat->deferred_ns += ktime_get_ns() - t0;
	for_each_zone_in_node(z, pgdat)
		if (z->first_deferred_pfn < zone_end_pfn(z))
			last = false;
	spin_unlock_irqrestore(&pgdat->deferred_lock, flags);
	/* exactly one caller writes the last chunk and finishes */
	if (last)
		deferred_finish(pgdat);
	return to - from;
}

unsigned long deferred_init_chunk(struct pglist_data *pgdat)
{
	return deferred_chunk(pgdat, NULL);
}

void deferred_init_all(struct pglist_data *pgdat)
{
	while (deferred_init_chunk(pgdat))
		;
	/* the last chunk's writer may still be finishing */
	while (READ_ONCE(pgdat->deferred_pending))
		arch_cpu_relax();
}

/* On demand: write enough of the zone for 2^order pages and more. */
bool deferred_grow(struct zone *zone, unsigned int order)
{
	unsigned long want = MAX(DEFERRED_GROW, 2UL << order), done = 0, n;

	while (done < want && (n = deferred_chunk(zone->zone_pgdat, zone)))
		done += n;
	return done;
}
