// SPDX-License-Identifier: MIT
/*
 * The colour policy: Pagoda's own attempt to beat the shuffle on a
 * direct-mapped memory-side cache.
 *
 * In such a cache, frames whose pfns are equal modulo nr_colours (cache
 * size / PAGE_SIZE) share the same lines: they have the same colour. The
 * shuffle makes every colour equally likely for every allocation, so a
 * working set's pages pile up on colours at random (Poisson). Fresh memory
 * taken in address order does better: every cache-sized run of
 * allocations covers every colour exactly once. This policy makes any
 * memory behave like that:
 *
 *   - it counts, per colour, the pages handed out in the current window of
 *     nr_colours pages, and starts a new window (all counts zero) when one
 *     fills. Frees are ignored: counting live pages instead would steer a
 *     new working set away from long-lived cold survivors, which skews its
 *     own spread (it was worse than the shuffle on aged memory);
 *   - only order-0 requests are steered; bigger ones take the core's
 *     choice, so the big blocks they need are not shredded (steering every
 *     order failed most of the lab's aged churn);
 *   - pick() wants a colour unused in this window, splitting as little as
 *     it can: first the first page of an unused colour in the first blocks
 *     of each list, smallest order first; else, when the lists of the
 *     requested type are short (unmovable ones usually are), any block on
 *     them with an unused colour; else the next unused colour from a
 *     cursor that has a free page, the copy in the smallest free block;
 *     else the least loaded of the list heads;
 *   - nodes behind the same cache (same size, all simulated or all real)
 *     share one window, so two nodes do not fill the same colours unseen;
 *   - at boot and hot-add the lists are shuffled (shuffle_zone, with a
 *     shuffle_state of the node's own), as the unsteered orders are then
 *     no worse than the shuffle's.
 *
 * The counts are kept for aligned runs of 2^k colours (k < MAX_ORDER):
 * pages handed out (load) and colours used (used). A free block of order k
 * covers one such run, so whether it holds an unused colour is one lookup,
 * finding the first one is one descent of k levels, and the search for the
 * next unused colour passes a fully used run in one step. That keeps a
 * pick to a few dozen lookups in the common cases, where scanning colour
 * by colour and copy by copy cost about 100 times an in-order allocation.
 * It needs the cache to be a multiple of 4 MiB: then a free block of any
 * order covers one aligned run of colours.
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/random.h>
#include <pagoda/spinlock.h>
#include <pagoda/string.h>
#include "internal.h"
#include "policy.h"
#include "policy_shuffle.h"

static u64 colour_cache_param = 256 * SZ_1M;
PARAM_SIZE("page_alloc.colour_cache", colour_cache_param, 4 * SZ_1M, 1ULL << 40,
	   "memory-side cache size the colour policy assumes (default: HMAT's, else 256M)");

/*
 * Only order-0 requests are steered; bigger ones take the core's choice
 * (the head of the smallest list), so the policy never shreds the big
 * blocks that higher-order requests need. (steer() looks for a single
 * unused colour, so it is for order 0 only.)
 */
#define STEER_MAX_ORDER 0
/* Candidates per pick: the first blocks of each list, the requested order
 * up. A bound on the cost, and on how deep a list is disturbed. */
#define HEADS_PER_LIST 4
/*
 * When the lists of the requested type hold at most this many blocks (the
 * unmovable ones, say), a pick that the heads could not serve looks at them
 * all: that costs less than the directed search, whose copies of a colour
 * are then nearly all the other type's, and it settles whether any free
 * page of the type has an unused colour.
 */
#define WALK_BLOCKS 128
/* Unused colours the directed search may try per pick, bounding its cost. */
#define COLOUR_TRIES 64

/*
 * One per cache, not per node: nodes behind the same cache (the same
 * size, and all simulated or all real, so also the same state_free) share
 * one window, or two nodes' allocations would pile onto the same colours
 * without either seeing it.
 */
struct colour_state {
	struct colour_state *next; /* in shared_states */
	unsigned int users;        /* nodes attached, under shared_lock */
	bool simulated;
	void (*state_free)(void *p);

	/* Everything below is under lock (taken inside a zone's lock: two
	 * nodes sharing the state have different zone locks). */
	spinlock_t lock;
	unsigned long nr_colours;
	/* pages handed out in the current window (at most nr_colours) */
	unsigned long window_used;
	/* where the directed search resumes: colours below it were loaded
	 * or had no free page when it last looked */
	unsigned long cursor;
	/* load[k][i]: pages handed out in the current window with a colour
	 * in [i << k, (i + 1) << k) */
	u32 *load[MAX_ORDER];
	/* used[k][i]: how many colours of that run have a page in the window
	 * (load[0] nonzero). A run holds an unused colour exactly when
	 * used < 2^k, which load[] cannot say once a colour is loaded twice;
	 * so the pick finds an unused colour with one descent through these,
	 * and skips a run of used colours with one lookup. */
	u32 *used[MAX_ORDER];
	size_t load_bytes; /* of all levels of both together, for the reset */
};

/* What is the node's own: its shuffle, and the cache's shared state. */
struct colour_node {
	struct shuffle_state shuffle;
	struct colour_state *cs;
};

static struct colour_state *shared_states;
static DEFINE_SPINLOCK(shared_lock);

u64 colour_cache_default(void)
{
	const struct kernel_param *p = param_find("page_alloc.colour_cache");

	if (!(p && p->set) && boot_info.mem_side_cache.size)
		return boot_info.mem_side_cache.size;
	return colour_cache_param;
}

static bool fits(const struct colour_state *cs, const struct pglist_data *pgdat,
		 unsigned long n)
{
	return cs->nr_colours == n && cs->simulated == pgdat->simulated &&
	       cs->state_free == pgdat->state_free;
}

/* The state shared with another node behind the same cache, or NULL. */
static struct colour_state *join_shared(const struct pglist_data *pgdat, unsigned long n)
{
	struct colour_state *cs;

	spin_lock(&shared_lock);
	for (cs = shared_states; cs; cs = cs->next)
		if (fits(cs, pgdat, n)) {
			cs->users++;
			break;
		}
	spin_unlock(&shared_lock);
	return cs;
}

/* The colour state for n colours behind the node's cache: the one shared
 * with other nodes behind it, or a new one. NULL: no memory. */
static struct colour_state *colour_state_get(const struct pglist_data *pgdat, unsigned long n)
{
	struct colour_state *cs, *other;
	unsigned long words = 0;
	u32 *mem;

	cs = join_shared(pgdat, n);
	if (cs)
		return cs;
	/* allocate outside shared_lock: state_alloc may be any allocator */
	for (int k = 0; k < MAX_ORDER; k++)
		words += n >> k;
	cs = pgdat->state_alloc(sizeof(*cs) + 2 * words * sizeof(u32));
	if (!cs)
		return NULL;
	cs->users = 1;
	cs->simulated = pgdat->simulated;
	cs->state_free = pgdat->state_free;
	spin_lock_init(&cs->lock);
	cs->nr_colours = n;
	cs->load_bytes = 2 * words * sizeof(u32);
	mem = (u32 *)(cs + 1);
	for (int k = 0; k < MAX_ORDER; k++) {
		cs->load[k] = mem;
		mem += n >> k;
	}
	for (int k = 0; k < MAX_ORDER; k++) {
		cs->used[k] = mem;
		mem += n >> k;
	}
	spin_lock(&shared_lock);
	for (other = shared_states; other; other = other->next)
		if (fits(other, pgdat, n))
			break;
	if (other) { /* another node got there while we allocated */
		other->users++;
	} else {
		cs->next = shared_states;
		shared_states = cs;
	}
	spin_unlock(&shared_lock);
	if (other) {
		if (pgdat->state_free)
			pgdat->state_free(cs);
		cs = other;
	}
	return cs;
}

static void colour_state_put(struct colour_state *cs)
{
	struct colour_state **pp;
	bool last;

	spin_lock(&shared_lock);
	last = --cs->users == 0;
	if (last)
		for (pp = &shared_states; *pp; pp = &(*pp)->next)
			if (*pp == cs) {
				*pp = cs->next;
				break;
			}
	spin_unlock(&shared_lock);
	if (last && cs->state_free)
		cs->state_free(cs);
}

static int colour_attach(struct pglist_data *pgdat, const struct policy_args *args)
{
	unsigned long n = (unsigned long)(args->cache_bytes / PAGE_SIZE);
	struct colour_node *cn;

	if (!n || n % MAX_ORDER_NR_PAGES)
		return -EINVAL;
	cn = pgdat->state_alloc(sizeof(*cn));
	if (!cn)
		return -ENOMEM;
	cn->cs = colour_state_get(pgdat, n);
	if (!cn->cs) {
		if (pgdat->state_free)
			pgdat->state_free(cn);
		return -ENOMEM;
	}
	shuffle_state_init(&cn->shuffle, args);
	pgdat->policy_data = cn;
	return 0;
}

static void colour_detach(struct pglist_data *pgdat)
{
	struct colour_node *cn = pgdat->policy_data;

	if (!cn)
		return;
	colour_state_put(cn->cs);
	if (pgdat->state_free)
		pgdat->state_free(cn);
	pgdat->policy_data = NULL;
}

static struct colour_state *node_colours(const struct pglist_data *pgdat)
{
	const struct colour_node *cn = pgdat->policy_data;

	return cn->cs;
}

/*
 * Count the block's 2^order pages in the current window, starting a new
 * window first when they would not fit in this one. The reset is one
 * memset of the counts per nr_colours pages handed out: a few words per
 * page, amortised.
 */
static void colour_taken(struct pglist_data *pgdat, unsigned long pfn, unsigned int order)
{
	struct colour_state *cs = node_colours(pgdat);
	unsigned long c = pfn % cs->nr_colours, flags;
	u32 newly;

	spin_lock_irqsave(&cs->lock, flags);
	if (cs->window_used + (1UL << order) > cs->nr_colours) {
		memset(cs->load[0], 0, cs->load_bytes);
		cs->window_used = 0;
	}
	cs->window_used += 1UL << order;
	/* colours of the block that had no page in this window yet */
	newly = (1u << order) - cs->used[order][c >> order];
	for (unsigned int k = 0; k < MAX_ORDER; k++) {
		/* runs of 2^k colours wholly inside the block get 2^k pages
		 * each and are now all used; a bigger run holds the whole
		 * block and gains its newly used colours */
		unsigned int span = k <= order ? k : order;
		unsigned long runs = k <= order ? 1UL << (order - k) : 1;

		for (unsigned long i = 0; i < runs; i++) {
			cs->load[k][(c >> k) + i] += 1u << span;
			if (k <= order)
				cs->used[k][(c >> k) + i] = 1u << k;
			else
				cs->used[k][c >> k] += newly;
		}
	}
	spin_unlock_irqrestore(&cs->lock, flags);
}

static u32 load_of(const struct colour_state *cs, unsigned long pfn, unsigned int k)
{
	return cs->load[k][(pfn % cs->nr_colours) >> k];
}

/* Whether the 2^k colours of the aligned block at pfn include one unused
 * in this window. */
static bool has_unused(const struct colour_state *cs, unsigned long pfn, unsigned int k)
{
	return cs->used[k][(pfn % cs->nr_colours) >> k] < (1u << k);
}

/*
 * In the free block at pfn of order high, which has an unused colour, the
 * first page whose colour is unused: at each level the lower half if it
 * has one (so an unused block is used in address order), else the upper
 * half, which then must.
 */
static unsigned long first_unused_page(const struct colour_state *cs, unsigned long pfn,
				       unsigned int high)
{
	while (high > 0) {
		high--;
		if (!has_unused(cs, pfn, high))
			pfn += 1UL << high;
	}
	return pfn;
}

/*
 * The first colour from c up that is unused in this window, or nr_colours
 * if there is none. A fully used run is passed in one step, and once the
 * walk reaches the start of a bigger aligned run it looks at that run
 * whole; so a long stretch of used colours costs a few steps per level,
 * not one per colour.
 */
static unsigned long next_unused_colour(const struct colour_state *cs, unsigned long c)
{
	unsigned long i = c;
	unsigned int k = 0;

	while (cs->used[k][i] == 1u << k) {
		i++;
		while (!(i & 1) && k + 1 < MAX_ORDER) {
			i >>= 1;
			k++;
		}
		if (i << k >= cs->nr_colours)
			return cs->nr_colours;
	}
	while (k > 0) { /* into the first half that has one */
		k--;
		i <<= 1;
		if (cs->used[k][i] == 1u << k)
			i++;
	}
	return i;
}

/*
 * In the free block at pfn of order high, the order-low sub-block reached
 * by always taking the less loaded half (the lower one on a tie). Only for
 * the last resort, when no candidate has an unused colour.
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

/*
 * The free block holding pfn, if it is of the wanted migratetype, as its
 * order; -1 if pfn is not free (or is in the zone but another type's).
 */
static int free_block_order(struct zone *zone, unsigned long pfn, int mt)
{
	/*
	 * The head of any block holding pfn is in pfn's pageblock or, for a
	 * block bigger than a pageblock, starts the max-order run. When
	 * neither pageblock is of type mt, no block of this type holds pfn:
	 * two lookups instead of one per order, and most copies of a colour
	 * are another type's when this type has few free pages.
	 */
	if (get_pageblock_migratetype(pfn_to_page(pfn)) != mt &&
	    get_pageblock_migratetype(pfn_to_page(pfn & ~(MAX_ORDER_NR_PAGES - 1))) != mt)
		return -1;
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct page *block = find_free_block(zone, pfn & ~((1UL << o) - 1), o);

		if (block)
			return get_pageblock_migratetype(block) == mt ? (int)o : -1;
	}
	return -1;
}

/*
 * The free page of colour c in the zone that splits the smallest free
 * block, or 0 (no pfn 0 is ever worth it: it would need c == 0 and the
 * zone to start at 0, and then the other copies of the colour are tried).
 */
static unsigned long free_page_of_colour(struct zone *zone, const struct colour_state *cs,
					 unsigned long c, int mt)
{
	unsigned long start = zone->zone_start_pfn, end = zone_end_pfn(zone);
	unsigned long pfn = start - start % cs->nr_colours + c, best = 0;
	int best_order = MAX_ORDER;

	if (pfn < start)
		pfn += cs->nr_colours;
	for (; pfn < end && pfn; pfn += cs->nr_colours) {
		int o = free_block_order(zone, pfn, mt);

		if (o < 0 || o >= best_order)
			continue;
		best = pfn;
		best_order = o;
		if (!o)
			break; /* a lone free page: nothing is split at all */
	}
	return best;
}

/*
 * Every free block on this type's lists, smallest order first, while there
 * are at most WALK_BLOCKS of them: 1 and *pfn the first page of an unused
 * colour in the first block that has one; 0 if no block has one; -1 if
 * the lists hold more blocks than that, and the answer is not known.
 */
static int walk_lists(struct zone *zone, const struct colour_state *cs, int mt,
		      unsigned long *pfn)
{
	unsigned int budget = WALK_BLOCKS;

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct list_head *list = &zone->free_area[o].free_list[mt];
		struct page *page;

		list_for_each_entry(page, list, lru) {
			if (!budget--)
				return -1;
			if (has_unused(cs, page_to_pfn(page), o)) {
				*pfn = first_unused_page(cs, page_to_pfn(page), o);
				return 1;
			}
		}
	}
	return 0;
}

/*
 * Order-0 requests. What keeps a working set's pages apart in the cache is
 * that every nr_colours consecutive allocations cover every colour once,
 * as fresh memory taken in address order does; so the pick wants a colour
 * not yet used in the current window, splitting as little as it can:
 *
 *   1. the first HEADS_PER_LIST blocks of each list, smallest order first:
 *      the first that holds an unused colour gives its first page of one
 *      (usually a leftover of the last split: in fresh memory, the next
 *      page up). Both the test and the descent are lookups in used[];
 *   2. else, if this type's lists hold at most WALK_BLOCKS blocks, the
 *      first of them with an unused colour; if none has one, straight
 *      to 4 (the search in 3 could only find pages of the other type);
 *   3. else the directed search: from the cursor, the next unused colour
 *      (used runs skipped whole) with a free page, the copy in the
 *      smallest free block;
 *   4. else (a window's last few colours may have no free page) the least
 *      loaded of the heads, a bigger block only when strictly better.
 */
static struct page *steer(struct zone *zone, struct colour_state *cs, int mt)
{
	unsigned long best_pfn = 0, pfn;
	u32 best_load = 0;
	bool found = false;

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct list_head *list = &zone->free_area[o].free_list[mt];
		struct page *page;
		int seen = 0;

		list_for_each_entry(page, list, lru) {
			if (seen++ == HEADS_PER_LIST)
				break;
			found = true;
			if (has_unused(cs, page_to_pfn(page), o))
				return pfn_to_page(first_unused_page(cs, page_to_pfn(page), o));
		}
	}
	if (!found)
		return NULL; /* nothing of this migratetype: the core falls back */

	switch (walk_lists(zone, cs, mt, &pfn)) {
	case 1:
		return pfn_to_page(pfn);
	case 0:
		goto least_loaded; /* no free page of this type has one */
	default:
		break; /* too many blocks to look at each: search by colour */
	}

	for (int i = 0; i < COLOUR_TRIES; i++) {
		unsigned long c = next_unused_colour(cs, cs->cursor);

		if (c == cs->nr_colours && cs->cursor)
			c = next_unused_colour(cs, 0); /* wrap around */
		if (c == cs->nr_colours)
			break; /* every colour is used: the window is nearly full */
		cs->cursor = (c + 1) % cs->nr_colours;
		pfn = free_page_of_colour(zone, cs, c, mt);
		if (pfn)
			return pfn_to_page(pfn);
	}

least_loaded:
	found = false;
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct list_head *list = &zone->free_area[o].free_list[mt];
		struct page *page;
		int seen = 0;

		list_for_each_entry(page, list, lru) {
			u32 load;

			if (seen++ == HEADS_PER_LIST)
				break;
			pfn = best_sub_block(cs, page_to_pfn(page), o, 0);
			load = load_of(cs, pfn, 0);
			if (found && load >= best_load)
				continue;
			best_pfn = pfn;
			best_load = load;
			found = true;
		}
	}
	return pfn_to_page(best_pfn);
}

static struct page *colour_pick(struct zone *zone, unsigned int order, int mt)
{
	struct colour_state *cs = node_colours(zone->zone_pgdat);
	struct page *page;
	unsigned long flags;

	if (order > STEER_MAX_ORDER)
		return NULL;
	spin_lock_irqsave(&cs->lock, flags);
	page = steer(zone, cs, mt);
	spin_unlock_irqrestore(&cs->lock, flags);
	return page;
}

static void colour_populated(struct zone *zone)
{
	struct colour_node *cn = zone->zone_pgdat->policy_data;

	shuffle_zone(zone, &cn->shuffle);
}

static void colour_stats(struct pglist_data *pgdat, struct policy_stats *st)
{
	struct colour_node *cn = pgdat->policy_data;

	shuffle_state_stats(&cn->shuffle, st);
}

unsigned long colour_count(struct pglist_data *pgdat)
{
	if (pgdat->policy != &policy_colour || !pgdat->policy_data)
		return 0;
	return node_colours(pgdat)->nr_colours;
}

unsigned long colour_load(struct pglist_data *pgdat, unsigned long colour)
{
	if (colour >= colour_count(pgdat))
		return 0;
	return node_colours(pgdat)->load[0][colour];
}

const struct page_alloc_policy policy_colour = {
	.name = "colour",
	.desc = "steer allocations to the least used colours of a direct-mapped cache",
	.shuffles = true,
	.attach = colour_attach,
	.detach = colour_detach,
	.populated = colour_populated,
	.pick = colour_pick,
	.taken = colour_taken,
	.stats = colour_stats,
};
