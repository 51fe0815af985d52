/* SPDX-License-Identifier: MIT */
/*
 * The free-list shuffle (mm/policy_shuffle.c) as parts other policies may
 * build on: the colour policy shuffles at boot and hot-add as the shuffle
 * does, with a shuffle_state of its own. The core never sees any of this
 * (it knows policies only through mm/policy.h).
 */
#ifndef MM_POLICY_SHUFFLE_H
#define MM_POLICY_SHUFFLE_H

#include <pagoda/random.h>
#include "policy.h"

/* One node's shuffle: its granularity, random stream and figures. */
struct shuffle_state {
	unsigned int order; /* page_alloc.shuffle_order */
	struct rng rng;     /* seeded from policy_args.seed */
	u64 rand_bits;      /* entropy on free: a cache of random bits */
	unsigned int rand_nbits;
	unsigned long swaps, no_partner, mt_mismatch;
	u64 ns; /* time spent shuffling */
};

/* Start a node's shuffle: page_alloc.shuffle_order, and args->seed. */
void shuffle_state_init(struct shuffle_state *s, const struct policy_args *args);
/* One Fisher-Yates pass over the zone's free blocks of s->order. */
void shuffle_zone(struct zone *z, struct shuffle_state *s);
/* The shuffle's figures, for a policy's stats hook. */
void shuffle_state_stats(const struct shuffle_state *s, struct policy_stats *st);

/* Linux's rule for node 0 under page_alloc.policy=auto (policy.c). */
enum mm_shuffle_ctl {
	SHUFFLE_ENABLE,        /* platform detection says yes */
	SHUFFLE_FORCE_DISABLE, /* page_alloc.shuffle=0 */
};
void page_alloc_shuffle(enum mm_shuffle_ctl ctl);
/* Shuffle or not (page_alloc.shuffle=, HMAT), and why, for the boot log. */
bool shuffle_enabled_default(void);
const char *shuffle_reason(void);
/* page_alloc.shuffle_on_free=: with the shuffle, entropy on free too? */
bool shuffle_on_free_default(void);

#endif
