// SPDX-License-Identifier: MIT
/*
 * The colour policy: Pagoda's own attempt to beat the shuffle on a
 * direct-mapped memory-side cache.
 *
 * In such a cache, frames whose pfns are equal modulo nr_colours (cache
 * size / PAGE_SIZE) share the same lines: they have the same colour. The
 * shuffle makes every colour equally likely for every allocation, so two
 * allocations still collide at random. This policy instead counts, per
 * colour, the pages handed out, and steers each allocation to the least
 * loaded colours it can find cheaply:
 *
 *   - at boot and hot-add the lists are shuffled (shuffle_zone), so the
 *     first blocks of every list are random places in the zone;
 *   - pick() looks at a few candidates: the first blocks of each list from
 *     the requested order up, and a few free blocks found at random pfns;
 *     inside each it follows the less loaded half down to the requested
 *     order, and takes the candidate that ends least loaded (ties: the
 *     smaller block, so big blocks are split only for a gain);
 *   - the core splits the chosen block around that sub-block.
 *
 * The counts are kept for aligned runs of 2^k colours (k < MAX_ORDER), so
 * comparing two halves of a block is one lookup per level. That needs the
 * cache to be a multiple of 4 MiB: then a free block of any order covers
 * one aligned run of colours.
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/random.h>
#include <pagoda/string.h>
#include "internal.h"
#include "policy.h"

static u64 colour_cache_param = 256 * SZ_1M;
PARAM_SIZE("page_alloc.colour_cache", colour_cache_param, 4 * SZ_1M, 1ULL << 40,
	   "memory-side cache size the colour policy assumes (default: HMAT's, else 256M)");

/* Candidates per pick: list heads per order, and random probes. */
#define HEADS_PER_LIST 4
#define RANDOM_PROBES 4

struct colour_state {
	unsigned long nr_colours;
	/* load[k][i]: pages handed out with a colour in [i << k, (i + 1) << k) */
	u32 *load[MAX_ORDER];
};

u64 colour_cache_default(void)
{
	const struct kernel_param *p = param_find("page_alloc.colour_cache");

	if (!(p && p->set) && boot_info.mem_side_cache.size)
		return boot_info.mem_side_cache.size;
	return colour_cache_param;
}

static int colour_attach(struct pglist_data *pgdat)
{
	unsigned long n = (unsigned long)(pgdat->cache_bytes / PAGE_SIZE), words = 0;
	struct colour_state *cs;
	u32 *mem;

	if (!n || n % MAX_ORDER_NR_PAGES)
		return -EINVAL;
	for (int k = 0; k < MAX_ORDER; k++)
		words += n >> k;
	cs = pgdat->state_alloc(sizeof(*cs) + words * sizeof(u32));
	if (!cs)
		return -ENOMEM;
	cs->nr_colours = n;
	mem = (u32 *)(cs + 1);
	for (int k = 0; k < MAX_ORDER; k++) {
		cs->load[k] = mem;
		mem += n >> k;
	}
	pgdat->policy_data = cs;
	return 0;
}

static void colour_detach(struct pglist_data *pgdat)
{
	if (pgdat->state_free)
		pgdat->state_free(pgdat->policy_data);
}

/*
 * Add (or take back) the block's 2^order pages to every count covering
 * its colours. u32 arithmetic wraps, so subtracting is adding the
 * negation; every run a free undoes was added by the allocation before.
 */
static void account(struct pglist_data *pgdat, unsigned long pfn, unsigned int order,
		    bool add)
{
	struct colour_state *cs = pgdat->policy_data;
	unsigned long c = pfn % cs->nr_colours;

	for (unsigned int k = 0; k < MAX_ORDER; k++) {
		/* runs of 2^k colours wholly inside the block get 2^k pages
		 * each; a bigger run holds the whole block */
		unsigned int span = k <= order ? k : order;
		unsigned long runs = k <= order ? 1UL << (order - k) : 1;
		u32 amount = add ? 1u << span : -(1u << span);

		for (unsigned long i = 0; i < runs; i++)
			cs->load[k][(c >> k) + i] += amount;
	}
}

static void colour_taken(struct pglist_data *pgdat, unsigned long pfn, unsigned int order)
{
	account(pgdat, pfn, order, true);
}

static void colour_freed(struct pglist_data *pgdat, unsigned long pfn, unsigned int order)
{
	account(pgdat, pfn, order, false);
}

static u32 load_of(const struct colour_state *cs, unsigned long pfn, unsigned int k)
{
	return cs->load[k][(pfn % cs->nr_colours) >> k];
}

/*
 * In the free block at pfn of order high, the order-low sub-block reached
 * by always taking the less loaded half (the lower one on a tie, so an
 * unloaded block is used in address order).
 */
static unsigned long best_sub_block(const struct colour_state *cs, unsigned long pfn,
				    unsigned int high, unsigned int low)
{
	while (high > low) {
		high--;
		if (load_of(cs, pfn + (1UL << high), high) < load_of(cs, pfn, high))
			pfn += 1UL << high;
	}
	return pfn;
}

struct choice {
	unsigned long pfn; /* the sub-block to hand out */
	unsigned int order; /* of the free block it comes from */
	u32 load;
	bool found;
};

static void consider(const struct colour_state *cs, struct choice *best,
		     unsigned long block_pfn, unsigned int block_order, unsigned int order)
{
	unsigned long pfn = best_sub_block(cs, block_pfn, block_order, order);
	u32 load = load_of(cs, pfn, order);

	if (best->found && (load > best->load ||
			    (load == best->load && block_order >= best->order)))
		return;
	*best = (struct choice){ pfn, block_order, load, true };
}

/* The free block covering a random pfn of the zone, if it is big enough
 * and in a pageblock of the wanted migratetype. */
static void probe(struct zone *zone, const struct colour_state *cs,
		  struct choice *best, unsigned int order, int mt)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	unsigned long pfn = zone->zone_start_pfn +
			    (unsigned long)rng_below(&pgdat->shuffle_rng, zone->spanned_pages);

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		unsigned long head = pfn & ~((1UL << o) - 1);
		struct page *page = find_free_block(zone, head, o);

		if (!page)
			continue;
		if (o >= order && get_pageblock_migratetype(page) == mt)
			consider(cs, best, head, o, order);
		return;
	}
}

static struct page *colour_pick(struct zone *zone, unsigned int order, int mt)
{
	const struct colour_state *cs = zone->zone_pgdat->policy_data;
	struct choice best = { .found = false };

	for (unsigned int o = order; o < MAX_ORDER; o++) {
		struct list_head *list = &zone->free_area[o].free_list[mt];
		struct page *page;
		int seen = 0;

		list_for_each_entry(page, list, lru) {
			if (seen++ == HEADS_PER_LIST)
				break;
			consider(cs, &best, page_to_pfn(page), o, order);
			/* Nothing beats an unloaded block that needs no split. */
			if (best.load == 0 && best.order == order)
				return pfn_to_page(best.pfn);
		}
	}
	if (!best.found)
		return NULL; /* nothing of this migratetype: the core falls back */
	for (int i = 0; i < RANDOM_PROBES && best.load; i++)
		probe(zone, cs, &best, order, mt);
	return pfn_to_page(best.pfn);
}

unsigned long colour_count(struct pglist_data *pgdat)
{
	const struct colour_state *cs = pgdat->policy_data;

	return pgdat->policy == &policy_colour && cs ? cs->nr_colours : 0;
}

unsigned long colour_load(struct pglist_data *pgdat, unsigned long colour)
{
	const struct colour_state *cs = pgdat->policy_data;

	if (colour >= colour_count(pgdat))
		return 0;
	return cs->load[0][colour];
}

const struct page_alloc_policy policy_colour = {
	.name = "colour",
	.desc = "steer allocations to the least used colours of a direct-mapped cache",
	.attach = colour_attach,
	.detach = colour_detach,
	.populated = shuffle_zone,
	.pick = colour_pick,
	.taken = colour_taken,
	.freed = colour_freed,
};
