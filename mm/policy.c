// SPDX-License-Identifier: MIT
/*
 * The registry of placement policies (mm/policy.h) and the choice of node
 * 0's: page_alloc.policy=auto|inorder|shuffle|shuffle-entropy|colour.
 *
 * "auto", the default, is the rule the kernel had before policies were
 * separate: shuffle when the firmware reports a direct-mapped memory-side
 * cache or page_alloc.shuffle=1 says so, with entropy on free unless
 * page_alloc.shuffle_on_free=0. Naming a policy overrides the rule.
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "internal.h"
#include "policy.h"

const struct page_alloc_policy *const page_alloc_policies[] = {
	&policy_inorder,
	&policy_shuffle,
	&policy_shuffle_entropy,
	&policy_colour,
};
const unsigned int page_alloc_nr_policies = ARRAY_SIZE(page_alloc_policies);

/*
 * An enum, so a misspelt policy is refused while the command line is parsed,
 * counted with the other problems and answered with the valid names, and
 * `params` never shows a name that is not in effect. The list is "auto" and
 * then the registry's names in its order (the policy tests hold them equal).
 */
const char *const page_alloc_policy_param_names[] = {
	"auto", "inorder", "shuffle", "shuffle-entropy", "colour", NULL
};
static int policy_param;
PARAM_ENUM("page_alloc.policy", policy_param, page_alloc_policy_param_names,
	   "placement policy (auto: shuffle when the firmware or page_alloc.shuffle asks)");

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
				 p->populated == shuffle_zone ? "on" : "off", p->name);
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

int policy_attach(struct pglist_data *pgdat, const struct page_alloc_policy *policy)
{
	int err;

	pgdat->policy = policy;
	if (!policy->attach)
		return 0;
	err = policy->attach(pgdat);
	if (err)
		pgdat->policy = &policy_inorder;
	return err;
}

void policy_detach(struct pglist_data *pgdat)
{
	if (pgdat->policy->detach)
		pgdat->policy->detach(pgdat);
	pgdat->policy = &policy_inorder;
	pgdat->policy_data = NULL;
}

void policy_populated(struct zone *zone)
{
	const struct page_alloc_policy *p = zone->zone_pgdat->policy;

	if (p->populated)
		p->populated(zone);
}
