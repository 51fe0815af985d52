/* SPDX-License-Identifier: MIT */
/*
 * Placement policies of the buddy allocator (mm/policy.c): where a freed
 * block goes on its list, which free block an allocation gets, and what
 * happens to the lists when memory arrives. The buddy core (page_alloc.c)
 * keeps the mechanism (splitting, merging, zones, migratetypes, per-CPU
 * lists); a policy only steers it, through the hooks below. Every hook is
 * optional: NULL means the core's own behaviour, which is Linux's without
 * the shuffle. A new policy is one file plus a line in policy.c's table.
 *
 * Hooks that take a zone run under that zone's lock (except populated,
 * which takes it itself as it needs), so they may look at and reorder its
 * free lists but must not allocate.
 *
 * This header is the whole contract: the core never looks at a policy's
 * state (pgdat->policy_data is the policy's alone) and never asks which
 * policy a node has. What the core reports about a policy (the boot log,
 * `pagealloc`, the benches) comes from the shuffles flag and the stats
 * hook.
 */
#ifndef MM_POLICY_H
#define MM_POLICY_H

#include <pagoda/mmzone.h>

struct page;

/*
 * What a node's creator tells its policy when attaching it: everything a
 * policy may need to know about the node beyond its zones. The core keeps
 * none of it; a policy copies what it uses into its own state.
 */
struct policy_args {
	/* Seed of the node's random stream, for policies that draw random
	 * numbers: the same seed gives the same node, in the kernel and on
	 * the host (policy_boot_args() derives node 0's). */
	u64 seed;
	/* The direct-mapped memory-side cache in front of the node, in bytes
	 * (ACPI HMAT, page_alloc.colour_cache= or the node's creator). */
	u64 cache_bytes;
};

/*
 * What a policy has done to a node's lists, for the boot log, the shell's
 * `pagealloc` and `memory online`, the benches and the tests. Zeroed
 * before the stats hook fills what applies.
 */
struct policy_stats {
	unsigned long moved; /* blocks the populated hook moved, since attach */
	unsigned int order;  /* the order of the blocks it moves */
	u64 ns;              /* time the populated hook spent moving them */
	char detail[128];    /* the policy's own figures, in a few words */
};

struct page_alloc_policy {
	const char *name; /* what page_alloc.policy= and memsim take */
	const char *desc; /* one line for the shell and the lab */
	/*
	 * The populated hook randomizes the free lists, as the shuffle does:
	 * the boot log then says "shuffle on" (and "shuffled N blocks") and
	 * otherwise "free lists in address order".
	 */
	bool shuffles;

	/*
	 * Set up and tear down the policy's own per-node state, kept in
	 * pgdat->policy_data, with memory from pgdat->state_alloc (and back
	 * to pgdat->state_free, when the node has one). attach runs before
	 * the node's memory is freed into its lists; 0 or a negative errno
	 * (the node is then not built).
	 */
	int (*attach)(struct pglist_data *pgdat, const struct policy_args *args);
	void (*detach)(struct pglist_data *pgdat);

	/*
	 * The zone's free lists were just filled: at boot, when a simulated
	 * node is built, and when memory is onlined (hot-add: the zone
	 * already held memory, and the policy may rearrange it all again).
	 */
	void (*populated)(struct zone *zone);

	/*
	 * A freed block (after merging: pfn, order) is about to be listed.
	 * Return true and set *to_tail to decide head or tail; return false
	 * to leave it to the core's guess (buddy_merge_likely).
	 */
	bool (*free_to_tail)(struct zone *zone, struct page *page,
			     unsigned long pfn, unsigned int order, bool *to_tail);

	/*
	 * Which 2^order frames to hand out for a request of this order and
	 * migratetype: the first page of a naturally aligned block that lies
	 * inside a free block on the zone's mt lists (of that order or
	 * bigger; the core splits around it). NULL: the core's choice, the
	 * head of the smallest non-empty list.
	 */
	struct page *(*pick)(struct zone *zone, unsigned int order, int mt);

	/* Accounting: a block left the buddy lists to be allocated (it may
	 * wait on a per-CPU list first), or came back to them when freed.
	 * Memory arriving at boot or hot-add is not "freed". */
	void (*taken)(struct pglist_data *pgdat, unsigned long pfn, unsigned int order);
	void (*freed)(struct pglist_data *pgdat, unsigned long pfn, unsigned int order);

	/* Fill st (see struct policy_stats); NULL: nothing to report. */
	void (*stats)(struct pglist_data *pgdat, struct policy_stats *st);
};

/*
 * Make policy the node's. A policy with no hook on allocation (pick,
 * taken) and no count of frees (freed) lets freed pageblock-order blocks
 * wait on per-CPU caches (mm/page_alloc.c): a cached block skips those
 * hooks. free_to_tail does not forbid it: it decides where a block is
 * listed, and a cached block is listed (and asked about) only when it
 * goes back to the buddy lists, as in Linux, whose per-CPU lists keep
 * THP-sized pages under the shuffle too.
 */
static inline void policy_set(struct pglist_data *pgdat, const struct page_alloc_policy *policy)
{
	pgdat->policy = policy;
	pgdat->free_hooked = policy->freed || policy->free_to_tail;
	pgdat->alloc_hooked = policy->pick || policy->taken;
	pgdat->pcp_blocks_ok = !pgdat->alloc_hooked && !policy->freed;
}

/*
 * The registry: one line per policy, its name (what page_alloc.policy=,
 * memsim and the lab take; the same as its .name) and its ops table, in
 * the order the shell and the lab list them. A new policy is a file that
 * defines its table plus one line here: the declaration below, the
 * registry's array and page_alloc.policy='s choices all come from it.
 */
#define PAGE_ALLOC_POLICIES(POLICY)                                        \
	POLICY("inorder", policy_inorder)                 /* policy_inorder.c */ \
	POLICY("shuffle", policy_shuffle)                 /* policy_shuffle.c */ \
	POLICY("shuffle-entropy", policy_shuffle_entropy) /* policy_shuffle.c */ \
	POLICY("colour", policy_colour) /* policy_colour.c */

#define __POLICY_DECLARE(name, table) extern const struct page_alloc_policy table;
PAGE_ALLOC_POLICIES(__POLICY_DECLARE)

/* Every policy, in the registry's order. */
extern const struct page_alloc_policy *const page_alloc_policies[];
extern const unsigned int page_alloc_nr_policies;

#define for_each_page_alloc_policy(p, i)                                     \
	for ((i) = 0; (i) < page_alloc_nr_policies && ((p) = page_alloc_policies[i]); (i)++)

/* page_alloc.policy='s choices: "auto", then every policy's name; NULL-terminated. */
extern const char *const page_alloc_policy_param_names[];

/* The policy of that name, or NULL. */
const struct page_alloc_policy *page_alloc_policy_find(const char *name);


/*
 * Node 0's policy from page_alloc.policy=; "auto" is the shuffle's rule
 * (mm/policy_shuffle.c). *why says how it was chosen, for the boot log.
 */
const struct page_alloc_policy *page_alloc_policy_default(const char **why);

/* Node 0's arguments: page_alloc.shuffle_seed= (else the kernel's RNG)
 * and colour_cache_default(). */
void policy_boot_args(int nid, struct policy_args *args);
/* Give a built node its policy (attach); 0 or a negative errno, and the
 * node then stays in order. */
int policy_attach(struct pglist_data *pgdat, const struct page_alloc_policy *policy,
		  const struct policy_args *args);
void policy_detach(struct pglist_data *pgdat);
/* The zone's lists were filled: run the policy's populated hook. */
void policy_populated(struct zone *zone);
/* What the node's policy has done (st zeroed, then its stats hook). */
void policy_stats(struct pglist_data *pgdat, struct policy_stats *st);

/* The cache size the colour policy assumes for node 0 and for simulated
 * nodes whose creator gives none: page_alloc.colour_cache= when set, else
 * the HMAT memory-side cache, else 256 MiB. */
u64 colour_cache_default(void);

/* Colour bookkeeping, for the tests and the lab (policy_colour.c): pages
 * of colour c handed out in the current allocation window (shared by the
 * nodes behind one cache), or 0 when the node has no colour state. */
unsigned long colour_load(struct pglist_data *pgdat, unsigned long colour);
unsigned long colour_count(struct pglist_data *pgdat);

#endif
