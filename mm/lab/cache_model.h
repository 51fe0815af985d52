/* SPDX-License-Identifier: MIT */
/*
 * A direct-mapped memory-side cache, as a model (mm/lab/cache_model.c): the
 * allocator-policy lab asks it how badly a workload's frames collide.
 */
#ifndef MM_CACHE_MODEL_H
#define MM_CACHE_MODEL_H

#include <pagoda/types.h>

struct msc_model {
	u64 size;       /* bytes, a multiple of PAGE_SIZE */
	u32 line_size;  /* bytes, a power of two no larger than PAGE_SIZE */
	u64 nr_sets;    /* size / line_size */
	u64 nr_colours; /* size / PAGE_SIZE: frames with equal pfn % nr_colours collide */
};

/* 0, or -EINVAL when the geometry is not one the model handles. */
int msc_init(struct msc_model *m, u64 size, u32 line_size);

static inline u64 msc_set(const struct msc_model *m, phys_addr_t pa)
{
	return (pa / m->line_size) % m->nr_sets;
}

/*
 * The conflict rate of a working set of frames, in parts per million: the
 * share of its lines that map to a set holding another of its lines. A
 * frame's lines fill a run of sets, so two frames collide line for line
 * exactly when their pfns are equal modulo nr_colours. counts must have
 * nr_colours entries (scratch space, cleared here).
 */
u64 msc_conflict_ppm(const struct msc_model *m, const unsigned long *pfns,
		     size_t n, u32 *counts);

/*
 * Replay physical addresses through the cache, from cold; returns the
 * misses. tags must have nr_sets entries (scratch, cleared here).
 */
u64 msc_replay(const struct msc_model *m, const phys_addr_t *stream, size_t n,
	       u64 *tags);

#endif
