// SPDX-License-Identifier: MIT
/*
 * The registry of placement policies (mm/policy.h) and the choice of node
 * 0's: page_alloc.policy=auto|inorder|shuffle|shuffle-entropy|colour.
 *
 * "auto", the default, is the rule the kernel had before policies were
 * separate: shuffle when the firmware reports a direct-mapped memory-side
 * cache or page_alloc.shuffle=1 says so, with entropy on free unless
 * page_alloc.shuffle_on_free=0. Naming a policy overrides the rule.
 *
 * page_alloc.shuffle_seed= seeds node 0's random stream (policy_args.seed,
 * for every policy that draws random numbers), so a boot can be repeated.
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/string.h>
#include "internal.h"
#include "policy.h"
#include "policy_shuffle.h"

#define POLICY_TABLE(name, table) &table,
#define POLICY_NAME(name, table) name,

const struct page_alloc_policy *const page_alloc_policies[] = {
	PAGE_ALLOC_POLICIES(POLICY_TABLE)
};
const unsigned int page_alloc_nr_policies = ARRAY_SIZE(page_alloc_policies);

/*
 * An enum, so a misspelt policy is refused while the command line is parsed,
 * counted with the other problems and answered with the valid names, and
 * `params` never shows a name that is not in effect. The list is "auto" and
 * then the registry's names in its order (the policy tests check that each
 * name is its table's .name).
 */
const char *const page_alloc_policy_param_names[] = {
	"auto", PAGE_ALLOC_POLICIES(POLICY_NAME) NULL
};
static int policy_param;
PARAM_ENUM("page_alloc.policy", policy_param, page_alloc_policy_param_names,
	   "placement policy (auto: shuffle when the firmware or page_alloc.shuffle asks)");
static u64 seed_param;
PARAM_UINT("page_alloc.shuffle_seed", seed_param, 0, ~0ULL,
	   "seed for the shuffle's random stream (0: from the kernel RNG)");

const struct page_alloc_policy *page_alloc_policy_find(const char *name)
{
	for (unsigned int i = 0; i < page_alloc_nr_policies; i++)
		if (!strcmp(page_alloc_policies[i]->name, name))
			return page_alloc_policies[i];
	return NULL;
}

const struct page_alloc_policy *page_alloc_policy_default(const char **why)
{
	static char reason[64];
	const struct page_alloc_policy *p;

	if (policy_param) {
		p = page_alloc_policy_find(page_alloc_policy_param_names[policy_param]);
		if (p) {
			/* Say "shuffle on/off" as auto would, for the same log line. */
			snprintf(reason, sizeof(reason), "%s (page_alloc.policy=%s)",
				 p->shuffles ? "on" : "off", p->name);
			*why = reason;
			return p;
		}
	}
	if (!shuffle_enabled_default())
		p = &policy_inorder;
	else
		p = shuffle_on_free_default() ? &policy_shuffle_entropy : &policy_shuffle;
	*why = shuffle_reason();
	return p;
}

void policy_boot_args(int nid, struct policy_args *args)
{
	/* Each node its own stream; the same seed gives the same streams. */
	args->seed = seed_param ? seed_param + (u64)nid : get_random_u64();
	args->cache_bytes = colour_cache_default();
}

int policy_attach(struct pglist_data *pgdat, const struct page_alloc_policy *policy,
		  const struct policy_args *args)
{
	static const struct policy_args none;
	int err;

	policy_set(pgdat, policy);
	if (!policy->attach)
		return 0;
	if (!args)
		args = &none;
	err = policy->attach(pgdat, args);
	if (err) {
		policy_set(pgdat, &policy_inorder);
		pgdat->policy_data = NULL;
	}
	return err;
}

void policy_detach(struct pglist_data *pgdat)
{
	if (pgdat->policy->detach)
		pgdat->policy->detach(pgdat);
	policy_set(pgdat, &policy_inorder);
	pgdat->policy_data = NULL;
}

void policy_populated(struct zone *zone)
{
	const struct page_alloc_policy *p = zone->zone_pgdat->policy;

	if (p->populated)
		p->populated(zone);
}

void policy_stats(struct pglist_data *pgdat, struct policy_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (pgdat->policy->stats)
		pgdat->policy->stats(pgdat, st);
}

/*
 * Deferred struct page init leaves part of a node unwritten for a while;
 * a policy that looks at frames of its own choosing (pick), arranges the
 * whole node when it is filled (populated) or keeps its own accounting
 * must see all of it at once, so its nodes are written whole at boot.
 */
bool policy_allows_deferred_init(const struct page_alloc_policy *policy)
{
	return !policy->pick && !policy->populated && !policy->free_to_tail &&
	       !policy->taken && !policy->freed;
}
