/* SPDX-License-Identifier: MIT */
/* Simulated nodes (mm/memsim.c), for tests, benchmarks and the lab. */
#ifndef MM_MEMSIM_H
#define MM_MEMSIM_H

#include <pagoda/mmzone.h>

/* A range of frames, as pfns relative to the node's base; an offline one
 * exists but is held back until memsim_online(). */
struct memsim_range {
	unsigned long start, end;
	bool offline;
};

/* The first pfn of simulated node nid. */
unsigned long memsim_base_pfn(int nid);
/*
 * Build node nid (1..MAX_NUMNODES-1, unused) with the given ranges of
 * present frames (ascending) and zone ends (relative pfns) under the named
 * placement policy (mm/policy.h): free the frames into its buddy lists in
 * address order, then let the policy arrange them (the shuffle shuffles).
 * cache_bytes is the direct-mapped memory-side cache in front of the node
 * (0: colour_cache_default()); the colour policy needs a multiple of
 * 4 MiB. The policies' random stream is seeded by seed, so the same seed
 * gives the same node, in the kernel and on the host. NULL on an unknown
 * policy, bad input or no memory.
 */
struct pglist_data *memsim_create_policy(int nid, const struct memsim_range *ranges,
					 int nr, const unsigned long zone_end[MAX_NR_ZONES],
					 const char *policy, u64 cache_bytes, u64 seed);
void memsim_destroy(struct pglist_data *pgdat);
/*
 * The same node with deferred struct page init (mm/mm_init.c): only the
 * struct pages of its first init_pages frames are written now (rounded up
 * to a max-order block), the rest on demand or by deferred_init_all().
 * A policy with hooks, or an offline range, makes it write them all.
 */
struct pglist_data *memsim_create_deferred(int nid, const struct memsim_range *ranges,
					   int nr, const unsigned long zone_end[MAX_NR_ZONES],
					   const char *policy, u64 seed,
					   unsigned long init_pages);
/*
 * For the set-up benchmark: the same on a struct page array the caller
 * provides (span frames: memsim_span()), which need not be zeroed, with
 * seed 1; memsim_release() takes the node down and hands the array back
 * instead of freeing it.
 */
unsigned long memsim_span(const struct memsim_range *ranges, int nr);
struct pglist_data *memsim_create_on(int nid, const struct memsim_range *ranges,
				     int nr, const unsigned long zone_end[MAX_NR_ZONES],
				     const char *policy, struct page *map,
				     unsigned long init_pages);
struct page *memsim_release(struct pglist_data *pgdat);
/* Hot-add: give offline frames [start, end) (relative) to the allocator and
 * run the policy's populated hook on the zones that grew (the shuffle
 * shuffles them). Returns the pages onlined. */
unsigned long memsim_online(struct pglist_data *pgdat, unsigned long start,
			    unsigned long end);

/* Zeroed memory for the node and its struct pages: vzalloc in the kernel,
 * calloc on the host. */
void *memsim_alloc(size_t size);
void memsim_free(void *p);

#endif
