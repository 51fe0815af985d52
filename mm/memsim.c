// SPDX-License-Identifier: MIT
/*
 * Simulated nodes: struct pages and zones over a made-up memory map, with
 * no memory behind the frames. The buddy allocator and the shuffle run on
 * them unchanged (they never touch a simulated frame's contents), so tests
 * and experiments can use any layout (holes, zone boundaries, 64 GiB) in
 * the kernel and on the host, and get the same answer for the same seed.
 */
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "internal.h"
#include "memsim.h"

unsigned long memsim_base_pfn(int nid)
{
	/* 16 TiB apart, far above any real memory */
	return (unsigned long)nid << 32;
}

struct pglist_data *memsim_create(int nid, const struct memsim_range *ranges,
				  int nr, const unsigned long zone_end[MAX_NR_ZONES],
				  bool shuffle, u64 seed)
{
	unsigned long base = memsim_base_pfn(nid), span = 0, ze[MAX_NR_ZONES];
	struct pglist_data *pgdat;
	struct page *map;

	if (nid <= 0 || nid >= MAX_NUMNODES || NODE_DATA(nid) || nr <= 0)
		return NULL;
	for (int i = 0; i < nr; i++) {
		if (ranges[i].end <= ranges[i].start || (i && ranges[i].start < ranges[i - 1].end))
			return NULL; /* must be ascending and disjoint */
		span = ranges[i].end;
	}
	span = ALIGN_UP(span, MAX_ORDER_NR_PAGES);
	pgdat = memsim_alloc(sizeof(*pgdat));
	map = memsim_alloc(span * sizeof(struct page));
	if (!pgdat || !map) {
		memsim_free(pgdat);
		memsim_free(map);
		return NULL;
	}
	for (int z = 0; z < MAX_NR_ZONES; z++)
		ze[z] = base + zone_end[z];
	pgdat_init(pgdat, nid, "simulated", base, span, map, ze, true);
	pgdat->shuffle = shuffle;
	rng_seed(&pgdat->shuffle_rng, seed);
	for (int i = 0; i < nr; i++) {
		if (!ranges[i].offline) {
			free_range_core(pgdat, base + ranges[i].start, base + ranges[i].end);
			continue;
		}
		for (unsigned long pfn = ranges[i].start; pfn < ranges[i].end; pfn++)
			map[pfn].flags |= PG_offline;
	}
	shuffle_free_memory(pgdat);
	return pgdat;
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
			shuffle_zone(&pgdat->node_zones[z]);
	return done;
}

void memsim_destroy(struct pglist_data *pgdat)
{
	if (!pgdat)
		return;
	pgdat_unregister(pgdat);
	memsim_free(pgdat->node_mem_map);
	memsim_free(pgdat);
}

struct pglist_data *memsim_create_policy(int nid, const struct memsim_range *ranges,
					 int nr, const unsigned long zone_end[MAX_NR_ZONES],
					 const char *policy, u64 cache_bytes, u64 seed)
{
	struct pglist_data *pgdat;
	bool shuffle;

	if (!strcmp(policy, "inorder"))
		shuffle = false;
	else if (!strcmp(policy, "shuffle") || !strcmp(policy, "shuffle-entropy"))
		shuffle = true;
	else
		return NULL;
	pgdat = memsim_create(nid, ranges, nr, zone_end, shuffle, seed);
	if (pgdat)
		pgdat->shuffle_on_free = !strcmp(policy, "shuffle-entropy");
	return pgdat;
}
