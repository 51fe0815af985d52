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
 * present frames (ascending) and zone ends (relative pfns), free them into
 * its buddy lists in address order and shuffle them when asked, with the
 * shuffle's random stream seeded by seed. NULL on bad input or no memory.
 */
struct pglist_data *memsim_create(int nid, const struct memsim_range *ranges,
				  int nr, const unsigned long zone_end[MAX_NR_ZONES],
				  bool shuffle, u64 seed);
/* The same under a named placement policy (page_alloc.policy=), the
 * colour policy sized for a cache of cache_bytes. NULL for an unknown name. */
struct pglist_data *memsim_create_policy(int nid, const struct memsim_range *ranges,
					 int nr, const unsigned long zone_end[MAX_NR_ZONES],
					 const char *policy, u64 cache_bytes, u64 seed);
void memsim_destroy(struct pglist_data *pgdat);
/* Hot-add: give offline frames [start, end) (relative) to the allocator and
 * shuffle the zones that grew. Returns the pages onlined. */
unsigned long memsim_online(struct pglist_data *pgdat, unsigned long start,
			    unsigned long end);

/* Zeroed memory for the node and its struct pages: vzalloc in the kernel,
 * calloc on the host. */
void *memsim_alloc(size_t size);
void memsim_free(void *p);

#endif
