// SPDX-License-Identifier: MIT
/*
 * The free-list shuffle as two placement policies (mm/policy.h), after
 * Linux's mm/shuffle.c (the seed: Dan Williams, "mm: Shuffle initial free
 * memory to improve memory-side-cache utilization", v10, LKML, 1 Feb 2019).
 *
 * Freed in address order at boot, the buddy lists hand out memory in
 * address order, and after long uptime in an order shaped by history. With
 * a direct-mapped memory-side cache, physical placement decides which lines
 * collide, so a workload's performance depends on luck and on age. The
 * shuffle makes placement uniformly random instead: predictable on average.
 *
 *   shuffle_zone()       a Fisher-Yates pass over the zone's order-aligned
 *                        pfns at SHUFFLE_ORDER (default MAX_ORDER-1, 4 MiB):
 *                        each free block swaps list positions with a random
 *                        free block of the same order and migratetype.
 *                        The populated hook: run when free memory is first
 *                        filled in at boot and when memory is onlined.
 *   shuffle_pick_tail()  entropy on free (Linux's follow-on patch): freed
 *                        blocks of SHUFFLE_ORDER and up go to the head or
 *                        the tail of their list at random, so aging does
 *                        not slowly undo the initial shuffle.
 *
 * Policy "shuffle" is the first alone, "shuffle-entropy" both. Each node's
 * shuffle keeps its state (granularity, random stream, figures) in its own
 * struct shuffle_state (mm/policy_shuffle.h), which the colour policy
 * reuses for its own boot-time shuffle.
 *
 * With page_alloc.policy=auto (the default) Linux's rule picks node 0's
 * policy: page_alloc.shuffle= forces the shuffle on or off; otherwise it is
 * on only when the firmware describes a direct-mapped memory-side cache
 * (ACPI HMAT), and page_alloc.shuffle_on_free= adds the entropy on free.
 * Beyond Linux, for experiments: page_alloc.shuffle_order= (granularity);
 * page_alloc.shuffle_seed= (mm/policy.c) makes node 0's stream
 * reproducible.
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "internal.h"
#include "policy.h"
#include "policy_shuffle.h"

static bool shuffle_param;
PARAM_BOOL("page_alloc.shuffle", shuffle_param,
	   "randomize the free lists (default: only with a direct-mapped memory-side cache)");
static bool shuffle_on_free_param = true;
PARAM_BOOL("page_alloc.shuffle_on_free", shuffle_on_free_param,
	   "while shuffling is on, free high-order blocks to a random end of their list");
static u64 shuffle_order_param = MAX_ORDER - 1;
PARAM_UINT("page_alloc.shuffle_order", shuffle_order_param, 0, MAX_ORDER - 1,
	   "order of the blocks the shuffle swaps (MAX_ORDER-1: 4 MiB)");

/*
 * As in Linux, two inputs decide: platform detection asks for ENABLE, the
 * command line may FORCE_DISABLE, and a disable wins whichever comes first.
 */
#define SHUFFLE_STATE_ENABLE 1u
#define SHUFFLE_STATE_FORCE_DISABLE 2u
static unsigned int shuffle_state;
static const char *reason = "off (no direct-mapped memory-side cache)";

void page_alloc_shuffle(enum mm_shuffle_ctl ctl)
{
	if (ctl == SHUFFLE_FORCE_DISABLE) {
		shuffle_state = (shuffle_state & ~SHUFFLE_STATE_ENABLE) |
				SHUFFLE_STATE_FORCE_DISABLE;
	} else if (!(shuffle_state & SHUFFLE_STATE_FORCE_DISABLE)) {
		shuffle_state |= SHUFFLE_STATE_ENABLE;
	}
}

/* The decision for node 0, from the command line and the firmware. */
bool shuffle_enabled_default(void)
{
	const struct kernel_param *p = param_find("page_alloc.shuffle");
	const struct boot_mem_side_cache *msc = &boot_info.mem_side_cache;

	if (p && p->set) {
		page_alloc_shuffle(shuffle_param ? SHUFFLE_ENABLE : SHUFFLE_FORCE_DISABLE);
		reason = shuffle_param ? "on (page_alloc.shuffle=1)" : "off (page_alloc.shuffle=0)";
	} else if (msc->size && msc->associativity == 1) {
		page_alloc_shuffle(SHUFFLE_ENABLE);
		reason = "on (direct-mapped memory-side cache found)";
	} else if (msc->size) {
		reason = "off (the memory-side cache is not direct-mapped)";
	}
	return shuffle_state & SHUFFLE_STATE_ENABLE;
}

const char *shuffle_reason(void)
{
	return reason;
}

bool shuffle_on_free_default(void)
{
	return shuffle_on_free_param;
}

void shuffle_state_init(struct shuffle_state *s, const struct policy_args *args)
{
	memset(s, 0, sizeof(*s));
	s->order = (unsigned int)shuffle_order_param;
	rng_seed(&s->rng, args->seed);
}

void shuffle_state_stats(const struct shuffle_state *s, struct policy_stats *st)
{
	st->moved = s->swaps;
	st->order = s->order;
	st->ns = s->ns;
	snprintf(st->detail, sizeof(st->detail),
		 "(order %u, %lu swaps, %lu without partner, %lu migratetype mismatches, %llu us)",
		 s->order, s->swaps, s->no_partner, s->mt_mismatch,
		 (unsigned long long)(s->ns / 1000));
}

/* A random pick lands in a hole or on a busy block: try this often. */
#define SHUFFLE_RETRY 10

void shuffle_zone(struct zone *z, struct shuffle_state *s)
{
	const unsigned int order = s->order;
	const unsigned long order_pages = 1UL << order;
	unsigned long start_pfn, end_pfn = zone_end_pfn(z), flags;
	u64 t0 = ktime_get_ns();

	if (!z->managed_pages)
		return;
	spin_lock_irqsave(&z->lock, flags);
	start_pfn = ALIGN_UP(z->zone_start_pfn, order_pages);
	for (unsigned long i = start_pfn; i < end_pfn; i += order_pages) {
		struct page *page_i, *page_j = NULL;
		int retry;

		/*
		 * Fisher-Yates: each position in turn swaps with a random one.
		 * Both must be free blocks of exactly the shuffle order (not
		 * part of a bigger free block, not split) in this zone.
		 */
		page_i = find_free_block(z, i, order);
		if (!page_i)
			continue;
		for (retry = 0; retry < SHUFFLE_RETRY; retry++) {
			unsigned long j = z->zone_start_pfn +
				ALIGN_DOWN(rng_below(&s->rng, z->spanned_pages),
					   order_pages);

			page_j = find_free_block(z, j, order);
			if (page_j && page_j != page_i)
				break;
		}
		if (retry >= SHUFFLE_RETRY) {
			s->no_partner++;
			continue;
		}
		/* Each migratetype has its own lists: never mix them. */
		if (get_pageblock_migratetype(page_i) != get_pageblock_migratetype(page_j)) {
			s->mt_mismatch++;
			continue;
		}
		list_swap(&page_i->lru, &page_j->lru);
		s->swaps++;

		/* Let others at the zone lock now and then. */
		if ((i % (100 * order_pages)) == 0) {
			spin_unlock_irqrestore(&z->lock, flags);
			spin_lock_irqsave(&z->lock, flags);
		}
	}
	spin_unlock_irqrestore(&z->lock, flags);
	s->ns += ktime_get_ns() - t0;
}

/* One random bit per call, drawn 64 at a time. */
static bool shuffle_pick_tail(struct shuffle_state *s)
{
	bool bit;

	if (!s->rand_nbits) {
		s->rand_bits = rng_u64(&s->rng);
		s->rand_nbits = 64;
	}
	bit = s->rand_bits & 1;
	s->rand_bits >>= 1;
	s->rand_nbits--;
	return bit;
}

/* The policies' hooks: the node's shuffle_state is its policy_data. */
static int shuffle_attach(struct pglist_data *pgdat, const struct policy_args *args)
{
	struct shuffle_state *s = pgdat->state_alloc(sizeof(*s));

	if (!s)
		return -ENOMEM;
	shuffle_state_init(s, args);
	pgdat->policy_data = s;
	return 0;
}

static void shuffle_detach(struct pglist_data *pgdat)
{
	if (pgdat->state_free)
		pgdat->state_free(pgdat->policy_data);
	pgdat->policy_data = NULL;
}

static void shuffle_populated(struct zone *zone)
{
	shuffle_zone(zone, zone->zone_pgdat->policy_data);
}

/* Entropy on free: shuffle-order blocks and up get a random end. */
static bool shuffle_free_to_tail(struct zone *zone, struct page *page,
				 unsigned long pfn, unsigned int order, bool *to_tail)
{
	struct shuffle_state *s = zone->zone_pgdat->policy_data;

	if (order < s->order)
		return false;
	*to_tail = shuffle_pick_tail(s);
	return true;
}

static void shuffle_stats(struct pglist_data *pgdat, struct policy_stats *st)
{
	shuffle_state_stats(pgdat->policy_data, st);
}

const struct page_alloc_policy policy_shuffle = {
	.name = "shuffle",
	.desc = "shuffle the free lists at boot and hot-add (Linux, shuffle_on_free=0)",
	.shuffles = true,
	.attach = shuffle_attach,
	.detach = shuffle_detach,
	.populated = shuffle_populated,
	.stats = shuffle_stats,
};

const struct page_alloc_policy policy_shuffle_entropy = {
	.name = "shuffle-entropy",
	.desc = "shuffle at boot and hot-add, and free big blocks to a random end (Linux)",
	.shuffles = true,
	.attach = shuffle_attach,
	.detach = shuffle_detach,
	.populated = shuffle_populated,
	.free_to_tail = shuffle_free_to_tail,
	.stats = shuffle_stats,
};
