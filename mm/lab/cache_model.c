// SPDX-License-Identifier: MIT
/*
 * The direct-mapped memory-side cache model (mm/lab/cache_model.h).
 *
 * In a direct-mapped cache each physical line has exactly one set: line
 * number modulo the number of sets. Two lines of a workload that share a
 * set evict each other, whatever else the cache holds: that is a conflict,
 * and it is decided by physical placement alone, which is why the page
 * allocator's choice of frames matters (the shuffle seed).
 */
#include <pagoda/arch.h>
#include <pagoda/string.h>
#include "cache_model.h"

int msc_init(struct msc_model *m, u64 size, u32 line_size)
{
	if (!size || !line_size || (line_size & (line_size - 1)) ||
	    line_size > PAGE_SIZE || size % PAGE_SIZE)
		return -EINVAL;
	m->size = size;
	m->line_size = line_size;
	m->nr_sets = size / line_size;
	m->nr_colours = size / PAGE_SIZE;
	return 0;
}

u64 msc_conflict_ppm(const struct msc_model *m, const unsigned long *pfns,
		     size_t n, u32 *counts)
{
	u64 conflicted = 0;

	if (!n)
		return 0;
	memset(counts, 0, m->nr_colours * sizeof(*counts));
	for (size_t i = 0; i < n; i++)
		counts[pfns[i] % m->nr_colours]++;
	for (size_t i = 0; i < n; i++)
		if (counts[pfns[i] % m->nr_colours] > 1)
			conflicted++;
	return conflicted * 1000000 / n;
}

u64 msc_replay(const struct msc_model *m, const phys_addr_t *stream, size_t n,
	       u64 *tags)
{
	u64 misses = 0;

	/* tag + 1, so that 0 means an empty set */
	memset(tags, 0, m->nr_sets * sizeof(*tags));
	for (size_t i = 0; i < n; i++) {
		u64 line = stream[i] / m->line_size;
		u64 set = line % m->nr_sets;

		if (tags[set] != line + 1) {
			tags[set] = line + 1;
			misses++;
		}
	}
	return misses;
}
