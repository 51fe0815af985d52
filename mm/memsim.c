// SPDX-License-Identifier: MIT
/*
 * Simulated nodes: struct pages and zones over a made-up memory map, with
 * no memory behind the frames. The buddy allocator and its placement
 * policies run on them unchanged (they never touch a simulated frame's contents), so tests
 * and experiments can use any layout (holes, zone boundaries, 64 GiB) in
 * the kernel and on the host, and get the same answer for the same seed.
 */
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "internal.h"
#include "memsim.h"
#include "policy.h"

unsigned long memsim_base_pfn(int nid)
{
	/* 16 TiB apart, far above any real memory: pfn_to_page() finds the
	 * node by pfn >> NODE_PFN_SHIFT */
	return (unsigned long)nid << NODE_PFN_SHIFT;
}

/* The span a node over these ranges needs, in frames (0: bad ranges). */
unsigned long memsim_span(const struct memsim_range *ranges, int nr)
{
	unsigned long span = 0;

	for (int i = 0; i < nr; i++) {
		if (ranges[i].end <= ranges[i].start || (i && ranges[i].start < ranges[i - 1].end))
			return 0; /* must be ascending and disjoint */
		span = ranges[i].end;
	}
	return ALIGN_UP(span, MAX_ORDER_NR_PAGES);
}

static struct pglist_data *build(int nid, const struct memsim_range *ranges, int nr,
				 const unsigned long zone_end[MAX_NR_ZONES],
				 const char *policy, u64 cache_bytes, u64 seed,
				 struct page *given_map, unsigned long init_pages)
{
	const struct page_alloc_policy *pol = policy ? page_alloc_policy_find(policy) : NULL;
	unsigned long base = memsim_base_pfn(nid), span = 0, ze[MAX_NR_ZONES];
	struct policy_args args;
	struct pglist_data *pgdat;
	struct page *map;
	struct zone *z;

	if (!pol || nid <= 0 || nid >= MAX_NUMNODES || NODE_DATA(nid) || nr <= 0)
		return NULL;
	span = memsim_span(ranges, nr);
	if (!span)
		return NULL;
	pgdat = memsim_alloc(sizeof(*pgdat));
	map = given_map ? given_map : memsim_alloc(span * sizeof(struct page));
	if (!pgdat || !map)
		goto fail;
	for (int i = 0; i < MAX_NR_ZONES; i++)
		ze[i] = base + zone_end[i];
	/* Deferral: whole-node policies and offline ranges (marked in their
	 * struct pages below) need every struct page written now. */
	for (int i = 0; i < nr; i++)
		if (ranges[i].offline)
			init_pages = span;
	if (!policy_allows_deferred_init(pol))
		init_pages = span;
	pgdat_init(pgdat, nid, "simulated", base, span, map, ze, true,
		   base + MIN(init_pages, span));
	pgdat->state_alloc = memsim_alloc;
	pgdat->state_free = memsim_free;
	args.seed = seed;
	args.cache_bytes = cache_bytes ? cache_bytes : colour_cache_default();
	if (policy_attach(pgdat, pol, &args)) {
		pgdat_unregister(pgdat);
		goto fail;
	}
	for (int i = 0; i < nr; i++) {
		if (!ranges[i].offline) {
			free_range_core(pgdat, base + ranges[i].start, base + ranges[i].end);
			continue;
		}
		for (unsigned long pfn = ranges[i].start; pfn < ranges[i].end; pfn++)
			map[pfn].flags |= PG_offline;
	}
	for_each_zone_in_node(z, pgdat)
		policy_populated(z);
	return pgdat;
fail:
	memsim_free(pgdat);
	if (!given_map)
		memsim_free(map);
	return NULL;
}

struct pglist_data *memsim_create_policy(int nid, const struct memsim_range *ranges,
					 int nr, const unsigned long zone_end[MAX_NR_ZONES],
					 const char *policy, u64 cache_bytes, u64 seed)
{
	return build(nid, ranges, nr, zone_end, policy, cache_bytes, seed, NULL, ~0UL);
}

struct pglist_data *memsim_create_on(int nid, const struct memsim_range *ranges,
				     int nr, const unsigned long zone_end[MAX_NR_ZONES],
				     const char *policy, struct page *map,
				     unsigned long init_pages)
{
	return map ? build(nid, ranges, nr, zone_end, policy, 0, 1, map, init_pages) : NULL;
}

struct pglist_data *memsim_create_deferred(int nid, const struct memsim_range *ranges,
					   int nr, const unsigned long zone_end[MAX_NR_ZONES],
					   const char *policy, u64 seed,
					   unsigned long init_pages)
{
	return build(nid, ranges, nr, zone_end, policy, 0, seed, NULL, init_pages);
}

unsigned long memsim_online(struct pglist_data *pgdat, unsigned long start,
			    unsigned long end)
{
	bool grew[MAX_NR_ZONES] = { false };
	unsigned long done;

	if (end > pgdat->node_spanned_pages || start >= end)
		return 0;
	for (unsigned long i = start; i < end; i++)
		if (!(pgdat->node_mem_map[i].flags & PG_offline))
			return 0; /* only offline frames can be onlined */
	for (unsigned long i = start; i < end; i++)
		grew[pgdat->node_mem_map[i].zone_idx] = true;
	done = free_range_core(pgdat, pgdat->node_start_pfn + start,
			       pgdat->node_start_pfn + end);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (grew[z])
			policy_populated(&pgdat->node_zones[z]);
	return done;
}

struct page *memsim_release(struct pglist_data *pgdat)
{
	struct page *map;

	if (!pgdat)
		return NULL;
	map = pgdat->node_mem_map;
	pgdat_unregister(pgdat);
	policy_detach(pgdat);
	memsim_free(pgdat);
	return map;
}

void memsim_destroy(struct pglist_data *pgdat)
{
	memsim_free(memsim_release(pgdat));
}
