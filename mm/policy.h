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
 */
#ifndef MM_POLICY_H
#define MM_POLICY_H

#include <pagoda/mmzone.h>

struct page;

struct page_alloc_policy {
	const char *name; /* what page_alloc.policy= and memsim take */
	const char *desc; /* one line for the shell and the lab */

	/*
	 * Set up and tear down per-node state (pgdat->policy_data), with
	 * memory from pgdat->state_alloc. attach runs before the node's
	 * memory is freed into its lists; 0 or a negative errno (the node is
	 * then not built).
	 */
	int (*attach)(struct pglist_data *pgdat);
	void (*detach)(struct pglist_data *pgdat);

	/* The zone's free lists were just filled (boot, memsim, hot-add). */
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
};

/* Every policy, in the order the shell and the lab list them. */
extern const struct page_alloc_policy *const page_alloc_policies[];
extern const unsigned int page_alloc_nr_policies;

#define for_each_page_alloc_policy(p, i)                                     \
	for ((i) = 0; (i) < page_alloc_nr_policies && ((p) = page_alloc_policies[i]); (i)++)

/* page_alloc.policy='s choices: "auto", then every policy's name; NULL-terminated. */
extern const char *const page_alloc_policy_param_names[];

/* The policy of that name, or NULL. */
const struct page_alloc_policy *page_alloc_policy_find(const char *name);

/* The policies themselves, one file each. */
extern const struct page_alloc_policy policy_inorder;         /* policy_inorder.c */
extern const struct page_alloc_policy policy_shuffle;         /* policy_shuffle.c */
extern const struct page_alloc_policy policy_shuffle_entropy; /* policy_shuffle.c */
extern const struct page_alloc_policy policy_colour;          /* policy_colour.c */

/*
 * Node 0's policy from page_alloc.policy=; "auto" is the shuffle's rule
 * (mm/policy_shuffle.c). *why says how it was chosen, for the boot log.
 */
const struct page_alloc_policy *page_alloc_policy_default(const char **why);

/* Give a built node its policy (attach); 0 or a negative errno. */
int policy_attach(struct pglist_data *pgdat, const struct page_alloc_policy *policy);
void policy_detach(struct pglist_data *pgdat);
/* The zone's lists were filled: run the policy's populated hook. */
void policy_populated(struct zone *zone);

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
