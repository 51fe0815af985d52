// SPDX-License-Identifier: MIT
/*
 * The student tree's mm/policy_colour.c (the placement-policy lab,
 * docs/labs/placement-policy.md). The full tree's file is one answer to
 * the lab, a policy that steers allocations to unused cache colours; here
 * only what the rest of the kernel needs of it is left: the cache size a
 * policy assumes, and colour counters that say "no colour state".
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include "internal.h"
#include "policy.h"

static u64 colour_cache_param = 256 * SZ_1M;
PARAM_SIZE("page_alloc.colour_cache", colour_cache_param, 4 * SZ_1M, 1ULL << 40,
	   "memory-side cache size a placement policy assumes (default: HMAT's, else 256M)");

u64 colour_cache_default(void)
{
	const struct kernel_param *p = param_find("page_alloc.colour_cache");

	if (!(p && p->set) && boot_info.mem_side_cache.size)
		return boot_info.mem_side_cache.size;
	return colour_cache_param;
}

unsigned long colour_count(struct pglist_data *pgdat)
{
	return 0;
}

unsigned long colour_load(struct pglist_data *pgdat, unsigned long colour)
{
	return 0;
}
