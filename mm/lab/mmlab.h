/* SPDX-License-Identifier: MIT */
/*
 * The allocator-policy lab (mm/lab/mmlab.c): the experiments of "mm:
 * Shuffle initial free memory to improve memory-side-cache utilization"
 * (v10, LKML, 1 Feb 2019), written once and run in two places, the kernel
 * shell (`mmlab run ...`) and the host (build/host/mmlab-run), with the same
 * answer for the same arguments.
 */
#ifndef MM_MMLAB_H
#define MM_MMLAB_H

#include <pagoda/types.h>

enum mmlab_workload {
	MMLAB_FRESH,     /* the working set right after boot */
	MMLAB_AGED,      /* after a churn of random-size allocations and frees */
	MMLAB_CONTRIVED, /* two instances, half a cache each, on two cache-sized nodes */
	MMLAB_INTERLEAVED, /* after allocations whose lifetimes alternate */
	MMLAB_NR_WORKLOADS,
};

struct mmlab_config {
	enum mmlab_workload workload;
	char policy[24];     /* a page_alloc.policy= name */
	bool real;           /* node 0 as booted, instead of a simulated node */
	u64 cache;           /* memory-side cache bytes (direct-mapped) */
	u64 node;            /* simulated node bytes */
	u32 ratio;           /* working set, percent of the cache */
	u32 hot_ppm;         /* share of the working set's pages that are hot */
	u32 aging;           /* churn length, in node sizes allocated */
	u32 live_pct;        /* the churn's live share of the node */
	u32 pair_order;      /* interleaved: the order of each block of a pair */
	u64 seed;
	/* Asked now and then during the churn: true stops the run (-EINTR). */
	bool (*stop)(void);
};

struct mmlab_result {
	u64 conflict_ppm;    /* hot pages sharing a cache colour with another */
	u64 cover_ppm;       /* cache colours the working set touches at all */
	unsigned long pages; /* working set pages allocated */
	unsigned long hot;   /* of which hot */
	unsigned long survivors; /* pages the churn left allocated */
	u64 churn_allocs;    /* allocations the churn made */
	u64 churn_fails;     /* of its allocations that failed below the target */
	u32 max_per_colour;  /* working-set pages on the most loaded colour */
};

/* The defaults: the seed's "heap 3x the cache" on a 4 GiB node, 256 MiB cache. */
void mmlab_defaults(struct mmlab_config *c);
/*
 * Apply one "key=value" argument, checked against the lab's table of typed
 * parameters (<pagoda/params.h>: workload= policy= node=real|SIZE cache=
 * ratio= hot= aging= live= order= seed=). 0, or -EINVAL with why filled in.
 */
int mmlab_parse_arg(struct mmlab_config *c, const char *arg, char *why, size_t len);
/* Check a whole configuration before running it. */
int mmlab_check(const struct mmlab_config *c, char *why, size_t len);
/*
 * Run one cell. 0, -EINVAL (bad configuration, unknown policy), -ENOMEM
 * (the node or the working set did not fit); why says which. Everything the
 * run allocated is freed again, also on failure.
 */
int mmlab_run(const struct mmlab_config *c, struct mmlab_result *r, char *why,
	      size_t len);
/* The one-line report, the same in the kernel and on the host. */
int mmlab_format(char *buf, size_t len, const struct mmlab_config *c,
		 const struct mmlab_result *r);

const char *mmlab_workload_name(enum mmlab_workload w);

#endif
