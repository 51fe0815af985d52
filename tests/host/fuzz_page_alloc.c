// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the buddy allocator and its placement policies: the
 * input picks a policy (mm/policy.h) and is a program of allocations,
 * frees, drains, shuffles, per-CPU-list switches and frees of frames in
 * holes, run on a simulated node with holes and three zones. After every step the allocator must never have handed out
 * a frame twice; every 64 steps and at the end page_alloc_verify() must
 * hold; after freeing everything the free set must be exactly the initial
 * one, and a colour-counting policy must count nothing handed out. Any
 * violation aborts, which is what the fuzzer looks for.
 *
 *   make fuzz-page-alloc FUZZ_SECONDS=60
 */
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "../../mm/internal.h"
#include "../../mm/memsim.h"
#include "../../mm/policy.h"

extern void abort(void);
extern int printf(const char *fmt, ...);

#define NID 2
#define SPAN 20480
#define MAX_LIVE 512

static const struct memsim_range ranges[] = {
	{ 1, 3000, false }, { 3500, 10240, false }, { 10496, 15360, false },
	{ 16384, 20000, false }, { 20011, 20480, true },
};
static const unsigned long zones[MAX_NR_ZONES] = { 4096, 12288, 20480 };
static const unsigned long hole_pfns[] = { 0, 3000, 3499, 10300, 15360, 20005 };

static struct page *live[MAX_LIVE];
static u8 live_order[MAX_LIVE];
static u8 owner[SPAN];
static unsigned long initial[SPAN], after[SPAN];

static void die(const char *what, struct pglist_data *pgdat)
{
	char why[200];

	if (page_alloc_verify(pgdat, why, sizeof(why)))
		printf("fuzz_page_alloc: %s; verify: %s\n", what, why);
	else
		printf("fuzz_page_alloc: %s\n", what);
	abort();
}

static size_t free_set(struct pglist_data *pgdat, unsigned long *out)
{
	size_t n = 0;

	for (unsigned long i = 0; i < pgdat->node_spanned_pages; i++) {
		struct page *p = &pgdat->node_mem_map[i];

		if (PageBuddy(p)) {
			out[n++] = (i << 4) | p->order;
			i += (1UL << p->order) - 1;
		}
	}
	return n;
}

static void verify(struct pglist_data *pgdat)
{
	char why[200];

	if (page_alloc_verify(pgdat, why, sizeof(why))) {
		printf("fuzz_page_alloc: invariant broken: %s\n", why);
		abort();
	}
}

static void mark(struct pglist_data *pgdat, struct page *p, unsigned int order, u8 v)
{
	unsigned long rel = page_to_pfn(p) - pgdat->node_start_pfn;

	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (rel + i >= SPAN)
			die("allocated frame outside the node", pgdat);
		if (v && owner[rel + i])
			die("frame handed out twice", pgdat);
		owner[rel + i] = v;
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct kernel_param *shuffle_order = param_find("page_alloc.shuffle_order");
	const struct page_alloc_policy *policy;
	struct pglist_data *pgdat;
	char order[8];
	bool saved_pcp = page_alloc_pcp, onlined = false;
	unsigned long bad0, before;
	size_t n0, n1;
	int nlive = 0;

	if (size < 2)
		return 0;
	/* data[0]: bits 4-7 the policy, bits 1-3 the shuffle order (a
	 * parameter of the shuffle, which the policies that shuffle read
	 * when they attach) */
	policy = page_alloc_policies[(data[0] >> 4) % page_alloc_nr_policies];
	snprintf(order, sizeof(order), "%d", data[0] >> 1 & 7 ? 10 - (data[0] >> 1 & 7) : 10);
	if (!shuffle_order || param_set(shuffle_order, order))
		abort();
	pgdat = memsim_create_policy(NID, ranges, ARRAY_SIZE(ranges), zones, policy->name,
				     16 * SZ_1M, data[1]);
	if (!pgdat)
		abort();
	memset(owner, 0, sizeof(owner));
	n0 = free_set(pgdat, initial);
	before = 0;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		before += pgdat->node_zones[z].free_pages;
	bad0 = pgdat->bad_pages;

	for (size_t i = 2; i + 1 < size; i += 2) {
		u8 op = data[i], arg = data[i + 1];

		switch (op & 7) {
		case 0: case 1: case 2: case 3: {
			unsigned int order = (arg & 0x80) ? arg % MAX_ORDER : arg % 3;
			gfp_t gfp = __GFP_NOWARN | ((op & 8) ? __GFP_MOVABLE : 0) |
				    ((op & 16) ? __GFP_DMA : 0) | ((op & 32) ? __GFP_DMA32 : 0);
			struct page *p;

			if (nlive == MAX_LIVE)
				break;
			p = alloc_pages_node(NID, gfp, order);
			if (!p)
				break;
			if ((gfp & __GFP_DMA) && page_zone(p)->idx != ZONE_DMA)
				die("GFP_DMA served from another zone", pgdat);
			if ((gfp & __GFP_DMA32) && page_zone(p)->idx > ZONE_DMA32)
				die("GFP_DMA32 served from a higher zone", pgdat);
			if (page_to_pfn(p) & ((1UL << order) - 1))
				die("misaligned block", pgdat);
			mark(pgdat, p, order, 1);
			live[nlive] = p;
			live_order[nlive++] = (u8)order;
			break;
		}
		case 4: case 5:
			if (nlive) {
				int k = arg % nlive;

				mark(pgdat, live[k], live_order[k], 0);
				__free_pages(live[k], live_order[k]);
				live[k] = live[--nlive];
				live_order[k] = live_order[nlive];
			}
			break;
		case 6: {
			/* a frame in a hole: must be refused, nothing changes */
			unsigned long b = pgdat->bad_pages;

			__free_pages(pfn_to_page(pgdat->node_start_pfn +
						 hole_pfns[arg % ARRAY_SIZE(hole_pfns)]), 0);
			if (pgdat->bad_pages != b + 1)
				die("free of a hole frame accepted", pgdat);
			bad0++;
			break;
		}
		default:
			if (arg % 4 == 0)
				drain_all_pages(pgdat);
			else if (arg % 4 == 1)
				page_alloc_pcp = !page_alloc_pcp;
			else if (arg % 4 == 2)
				/* memory "arrives" again: a policy that
				 * shuffles does so now, amid allocations */
				policy_populated(&pgdat->node_zones[arg / 4 % MAX_NR_ZONES]);
			else if (!onlined) {
				onlined = true; /* hot-add the offline tail */
				before += memsim_online(pgdat, 20011, 20480);
			}
			break;
		}
		if ((i / 2) % 64 == 0)
			verify(pgdat);
	}
	verify(pgdat);
	while (nlive--)
		__free_pages(live[nlive], live_order[nlive]);
	drain_all_pages(pgdat);
	page_alloc_pcp = saved_pcp;
	verify(pgdat);
	{
		unsigned long now = 0;

		for (int z = 0; z < MAX_NR_ZONES; z++)
			now += pgdat->node_zones[z].free_pages;
		if (now != before)
			die("free pages not restored", pgdat);
	}
	if (pgdat->bad_pages != bad0)
		die("a legitimate free was refused", pgdat);
	if (pgdat->bad_picks)
		die("the policy picked memory that was not free", pgdat);
	{
		unsigned long sum = 0; /* colour counts one allocation window */

		for (unsigned long c = 0; c < colour_count(pgdat); c++)
			sum += colour_load(pgdat, c);
		if (sum > colour_count(pgdat))
			die("colour counts more than one window", pgdat);
	}
	if (!onlined) {
		n1 = free_set(pgdat, after);
		if (n1 != n0 || memcmp(initial, after, n0 * sizeof(initial[0])))
			die("free set differs after freeing everything", pgdat);
	}
	memsim_destroy(pgdat);
	return 0;
}
