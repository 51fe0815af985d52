// SPDX-License-Identifier: MIT
/*
 * The allocator-policy lab: the shuffle seed's experiments (Dan Williams,
 * "mm: Shuffle initial free memory to improve memory-side-cache
 * utilization", v10, LKML, 1 Feb 2019) against the real buddy allocator.
 *
 * The seed measured a Java server whose heap was 3x a direct-mapped
 * memory-side cache: 8% of its accesses conflicted on the first run, 21%
 * after the page allocator had aged, 11% with the free lists shuffled. The
 * lab rebuilds that situation from three parts:
 *
 *   the node      a simulated node (mm/memsim.c) of node= bytes under the
 *                 placement policy policy=, or node 0 as booted (node=real);
 *   the workload  fresh: allocate the working set (ratio= percent of the
 *                 cache, page by page, as a heap is faulted in) on an
 *                 untouched node;
 *                 aged: first churn the node (aging= node sizes' worth of
 *                 allocations of random order, each freeing a random live
 *                 block once live= percent of the node is in use: a
 *                 server's lifetime in miniature), then allocate the
 *                 working set with the churn's survivors still in place;
 *                 contrived: the seed's two-instance case, each instance
 *                 half a cache, each on its own cache-sized node;
 *                 interleaved: first allocate pairs of blocks of order=
 *                 (4 MiB), one of each pair long-lived, the other a
 *                 temporary freed once live= percent of the node is held
 *                 by the long-lived ones (requests that each keep one
 *                 buffer and drop another), then the working set;
 *   the measure   a heap is not touched evenly: hot= of its pages (chosen
 *                 by the seed, the same pages whatever the policy) take
 *                 the accesses. The conflict rate is the share of hot
 *                 pages whose cache colour (pfn modulo cache/PAGE_SIZE,
 *                 mm/lab/cache_model.c) holds another hot page: lines that
 *                 evict each other however the cache is used.
 *
 * Why a hot share: with every page equally hot, a working set 3x the cache
 * conflicts almost entirely under any placement. With a hot share q, a
 * contiguous heap (in-order, fresh) puts exactly ratio pages on each colour
 * and conflicts at 1-(1-q)^(ratio-1); random placement (the shuffle) puts
 * a Poisson number there and conflicts at 1-e^(-q*ratio). hot=4% turns the
 * first into the seed's 8% (7.8%) at ratio 3; the second (11.3%) is then a
 * prediction, not a fit. docs/allocator-policy.md works through the rest.
 *
 * Everything is drawn from seeded streams and the run stays on one CPU, so
 * the same arguments give the same numbers in the kernel and on the host.
 */
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/string.h>
#include "cache_model.h"
#include "../internal.h"
#include "../memsim.h"
#include "../policy.h"
#include "mmlab.h"

/* Simulated nodes of the lab; the tests use 3, the benchmarks their own. */
#define LAB_NID_A 5
#define LAB_NID_B 6
#define LAB_LINE 64

/* NULL-terminated: also the choices of workload= */
static const char *const workload_names[MMLAB_NR_WORKLOADS + 1] = {
	[MMLAB_FRESH] = "fresh",
	[MMLAB_AGED] = "aged",
	[MMLAB_CONTRIVED] = "contrived",
	[MMLAB_INTERLEAVED] = "interleaved",
	[MMLAB_NR_WORKLOADS] = NULL,
};

const char *mmlab_workload_name(enum mmlab_workload w)
{
	return w < MMLAB_NR_WORKLOADS ? workload_names[w] : "?";
}

void mmlab_defaults(struct mmlab_config *c)
{
	memset(c, 0, sizeof(*c));
	c->workload = MMLAB_FRESH;
	strlcpy(c->policy, "inorder", sizeof(c->policy));
	c->cache = 256ULL << 20;
	c->node = 4ULL << 30;
	c->ratio = 300;
	c->hot_ppm = 40000;
	c->aging = 4;
	c->live_pct = 50;
	c->pair_order = MAX_ORDER - 1;
	c->seed = 1;
}

static int fail(char *why, size_t len, int err, const char *msg)
{
	strlcpy(why, msg, len);
	return err;
}

/* "4", "4%", "0.5%": percent with up to four decimals, as ppm. */
static int parse_percent_ppm(const char *s, u32 *ppm)
{
	u64 whole = 0, frac = 0, scale = 10000;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9')
		whole = whole * 10 + (u64)(*p++ - '0');
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9' && scale > 1) {
			scale /= 10;
			frac += (u64)(*p++ - '0') * scale;
		}
	}
	if (*p == '%')
		p++;
	if (*p || whole > 100 || (whole == 100 && frac))
		return -EINVAL;
	*ppm = (u32)(whole * 10000 + frac);
	return 0;
}

/*
 * The lab's arguments as typed parameters (<pagoda/params.h>): the
 * parser checks types, ranges and choices and says what a key takes; two
 * keys have a syntax of their own and are read from their text after it
 * (node=real|SIZE, hot=PERCENT).
 */
struct lab_args {
	int workload;
	int policy; /* index into page_alloc_policy_param_names + 1 */
	char node[24];
	u64 cache, ratio, aging, live, order, seed;
	char hot[16];
};

enum { ARG_WORKLOAD, ARG_POLICY, ARG_NODE, ARG_CACHE, ARG_RATIO, ARG_HOT, ARG_AGING,
       ARG_LIVE, ARG_ORDER, ARG_SEED, NR_ARGS };

static void lab_args_table(struct lab_args *a, struct kernel_param *tab)
{
	tab[ARG_WORKLOAD] = (struct kernel_param){ .name = "workload", .type = PARAM_T_ENUM,
		.var = &a->workload, .names = workload_names };
	/* the registry's names: page_alloc.policy='s choices without "auto" */
	tab[ARG_POLICY] = (struct kernel_param){ .name = "policy", .type = PARAM_T_ENUM,
		.var = &a->policy, .names = page_alloc_policy_param_names + 1 };
	tab[ARG_NODE] = (struct kernel_param){ .name = "node", .type = PARAM_T_STRING,
		.var = a->node, .str = { sizeof(a->node) } };
	tab[ARG_CACHE] = (struct kernel_param){ .name = "cache", .type = PARAM_T_SIZE,
		.var = &a->cache, .u = { 1, ~0ULL } };
	tab[ARG_RATIO] = (struct kernel_param){ .name = "ratio", .type = PARAM_T_UINT,
		.var = &a->ratio, .u = { 0, 100000 } };
	tab[ARG_HOT] = (struct kernel_param){ .name = "hot", .type = PARAM_T_STRING,
		.var = a->hot, .str = { sizeof(a->hot) } };
	tab[ARG_AGING] = (struct kernel_param){ .name = "aging", .type = PARAM_T_UINT,
		.var = &a->aging, .u = { 0, 100000 } };
	tab[ARG_LIVE] = (struct kernel_param){ .name = "live", .type = PARAM_T_UINT,
		.var = &a->live, .u = { 0, 100000 } };
	tab[ARG_ORDER] = (struct kernel_param){ .name = "order", .type = PARAM_T_UINT,
		.var = &a->order, .u = { 0, MAX_ORDER - 1 } };
	tab[ARG_SEED] = (struct kernel_param){ .name = "seed", .type = PARAM_T_UINT,
		.var = &a->seed, .u = { 0, ~0ULL } };
}

int mmlab_parse_arg(struct mmlab_config *c, const char *arg, char *why, size_t len)
{
	struct kernel_param tab[NR_ARGS], *ptrs[NR_ARGS];
	struct lab_args a = {
		.workload = (int)c->workload, .cache = c->cache, .ratio = c->ratio,
		.aging = c->aging, .live = c->live_pct, .order = c->pair_order,
		.seed = c->seed,
	};
	u64 v;

	lab_args_table(&a, tab);
	for (int i = 0; i < NR_ARGS; i++)
		ptrs[i] = &tab[i];
	/* any refusal is -EINVAL here (mmlab.h): a bad argument */
	if (param_parse_arg(ptrs, NR_ARGS, arg, why, len))
		return -EINVAL;
	if (tab[ARG_NODE].set) {
		if (!strcmp(a.node, "real")) {
			c->real = true;
		} else if (!kstrtosize(a.node, &v) && v) {
			c->real = false;
			c->node = v;
		} else {
			return fail(why, len, -EINVAL, "node= is real or a size (4G)");
		}
	}
	if (tab[ARG_HOT].set && parse_percent_ppm(a.hot, &c->hot_ppm))
		return fail(why, len, -EINVAL, "hot= is a percentage up to 100 (4%)");
	if (tab[ARG_POLICY].set)
		strlcpy(c->policy, page_alloc_policy_param_names[1 + a.policy], sizeof(c->policy));
	c->workload = (enum mmlab_workload)a.workload;
	c->cache = a.cache;
	c->ratio = (u32)a.ratio;
	c->aging = (u32)a.aging;
	c->live_pct = (u32)a.live;
	c->pair_order = (u32)a.order;
	c->seed = a.seed;
	return 0;
}

int mmlab_check(const struct mmlab_config *c, char *why, size_t len)
{
	struct msc_model m;

	if (msc_init(&m, c->cache, LAB_LINE))
		return fail(why, len, -EINVAL, "cache= must be a multiple of the page size");
	if (c->workload >= MMLAB_NR_WORKLOADS)
		return fail(why, len, -EINVAL, "unknown workload");
	if (!c->real && !page_alloc_policy_find(c->policy)) {
		snprintf(why, len, "policy=%s: no such placement policy", c->policy);
		return -EINVAL;
	}
	if (!c->ratio)
		return fail(why, len, -EINVAL, "ratio= must be above 0");
	if (!c->hot_ppm)
		return fail(why, len, -EINVAL, "hot= must be above 0");
	if (c->live_pct >= 100)
		return fail(why, len, -EINVAL, "live= must be below 100 (percent of the node)");
	if (c->real && c->workload == MMLAB_CONTRIVED)
		return fail(why, len, -EINVAL, "the contrived case needs two simulated nodes (not node=real)");
	if (!c->real && c->node % (MAX_ORDER_NR_PAGES * PAGE_SIZE))
		return fail(why, len, -EINVAL, "node= must be a multiple of 4 MiB");
	if (!c->real && c->workload != MMLAB_CONTRIVED &&
	    (u64)c->ratio * c->cache / 100 > c->node) {
		u64 ws = (u64)c->ratio * c->cache / 100;

		snprintf(why, len, "the working set, ratio=%u percent of cache=%lluM (%llu MiB), "
			 "is larger than node=%lluM: give node=%lluM or more, or a smaller "
			 "cache= or ratio=", c->ratio,
			 (unsigned long long)(c->cache >> 20), (unsigned long long)(ws >> 20),
			 (unsigned long long)(c->node >> 20),
			 (unsigned long long)(ALIGN_UP(ws, MAX_ORDER_NR_PAGES * PAGE_SIZE) >> 20));
		return -EINVAL;
	}
	return 0;
}

/* --- the lab's bookkeeping ------------------------------------------------ */

struct lab_block {
	unsigned long pfn;
	u32 order;
};

struct lab {
	const struct mmlab_config *c;
	struct msc_model m;
	struct rng place_rng; /* the churn's choices */
	struct rng hot_rng;   /* which working-set pages are hot */
	unsigned long *ws;    /* the working set's pfns */
	unsigned long nr_ws, max_ws;
	struct lab_block *live; /* the churn's live blocks */
	unsigned long nr_live, max_live, live_pages;
	u32 *counts;          /* per colour */
};

static void *lab_alloc(size_t size)
{
	return memsim_alloc(size);
}

static void free_block(const struct lab_block *b)
{
	__free_pages(pfn_to_page(b->pfn), b->order);
}

static void free_live(struct lab *l)
{
	for (unsigned long i = 0; i < l->nr_live; i++)
		free_block(&l->live[i]);
	l->nr_live = l->live_pages = 0;
}

static void free_ws(struct lab *l)
{
	for (unsigned long i = 0; i < l->nr_ws; i++)
		__free_pages(pfn_to_page(l->ws[i]), 0);
	l->nr_ws = 0;
}

/*
 * Allocate n working-set pages from node nid, one at a time: a heap is
 * faulted in page by page, and order-0 requests are where placement
 * policy shows (they take whatever block the lists offer first).
 */
static int alloc_ws(struct lab *l, int nid, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		struct page *p = alloc_pages_node(nid, __GFP_MOVABLE | __GFP_NOWARN, 0);

		if (!p || p->node_id != nid) {
			if (p)
				__free_pages(p, 0);
			return -ENOMEM;
		}
		l->ws[l->nr_ws++] = page_to_pfn(p);
	}
	return 0;
}

/*
 * The churn's sizes: order k with probability 2^-(k+1) (order 9 takes the
 * rest), so half the requests are single pages and each order adds about
 * as many pages as the one below: many small objects, a few large
 * buffers. A quarter is unmovable (kernel objects), the rest movable, so
 * the migratetypes mix as they do on a real machine.
 */
static unsigned int churn_order(struct rng *r)
{
	u64 bits = rng_u64(r);
	unsigned int order = 0;

	while ((bits & 1) && order < MAX_ORDER - 2) {
		order++;
		bits >>= 1;
	}
	return order;
}

static void free_random_live(struct lab *l)
{
	unsigned long i = (unsigned long)rng_below(&l->place_rng, l->nr_live);

	free_block(&l->live[i]);
	l->live_pages -= 1UL << l->live[i].order;
	l->live[i] = l->live[--l->nr_live];
}

/*
 * Age node nid: allocate aging x node_pages pages' worth of random blocks,
 * each allocation above the live target first freeing a random live block
 * (memoryless lifetimes: every live block is as likely to go next). The
 * survivors stay for the working set to find.
 */
static int churn(struct lab *l, int nid, unsigned long node_pages, u64 *allocs,
		 u64 *fails)
{
	u64 budget = (u64)l->c->aging * node_pages, done = 0;
	unsigned long target = node_pages / 100 * l->c->live_pct;

	while (done < budget) {
		unsigned int order;
		struct page *p;
		gfp_t gfp;

		/* A long churn (seconds under TCG) can be stopped: Ctrl-C in the shell. */
		if (!(*allocs & 1023) && l->c->stop && l->c->stop())
			return -EINTR;
		order = churn_order(&l->place_rng);
		gfp = __GFP_NOWARN | (rng_below(&l->place_rng, 4) ? __GFP_MOVABLE : 0);

		while (l->nr_live && (l->live_pages + (1UL << order) > target ||
				      l->nr_live == l->max_live))
			free_random_live(l);
		p = alloc_pages_node(nid, gfp, order);
		/*
		 * Free memory can be too fragmented for the order even below
		 * the target (a policy that scatters blocks pays here): free
		 * more, as reclaim would, and count it.
		 */
		while (!p && l->nr_live) {
			(*fails)++;
			free_random_live(l);
			p = alloc_pages_node(nid, gfp, order);
		}
		if (!p)
			return -ENOMEM;
		l->live[l->nr_live].pfn = page_to_pfn(p);
		l->live[l->nr_live].order = order;
		l->nr_live++;
		l->live_pages += 1UL << order;
		done += 1UL << order;
		(*allocs)++;
	}
	return 0;
}

/*
 * Alternating lifetimes: allocate blocks of one order in pairs, keep the
 * first of each pair, and once the kept ones hold live= percent of the
 * node free all the second ones. In address order the survivors and the
 * holes alternate block by block; shuffled, they are strewn at random.
 */
static int interleave(struct lab *l, int nid, unsigned long node_pages, u64 *allocs)
{
	unsigned long target = node_pages / 100 * l->c->live_pct;
	unsigned int order = l->c->pair_order;
	unsigned long kept = 0;
	int err = 0;

	while (!err && l->live_pages < target && l->nr_live + 2 <= l->max_live) {
		struct page *keep, *temp;

		if (!(*allocs & 1023) && l->c->stop && l->c->stop()) {
			err = -EINTR;
			break;
		}
		keep = alloc_pages_node(nid, __GFP_MOVABLE | __GFP_NOWARN, order);
		temp = keep ? alloc_pages_node(nid, __GFP_MOVABLE | __GFP_NOWARN, order) : NULL;
		if (!keep || !temp) {
			if (keep)
				__free_pages(keep, order);
			err = -ENOMEM;
			break;
		}
		/* kept blocks gather at the front, temporaries at the back */
		l->live[kept].pfn = page_to_pfn(keep);
		l->live[kept].order = order;
		l->live[l->max_live - 1 - (l->nr_live - kept)].pfn = page_to_pfn(temp);
		l->live[l->max_live - 1 - (l->nr_live - kept)].order = order;
		kept++;
		l->nr_live += 2;
		l->live_pages += 1UL << order;
		*allocs += 2;
	}
	/* the temporaries go, in the order they came */
	for (unsigned long i = 0; i < l->nr_live - kept; i++)
		free_block(&l->live[l->max_live - 1 - i]);
	l->nr_live = kept;
	return err;
}

/* Pick the hot pages (the same choice for every policy) and measure. */
static void measure(struct lab *l, u32 hot_ppm, struct mmlab_result *r)
{
	unsigned long nr_hot = 0, covered = 0;
	unsigned long *hot = l->ws; /* compacted in place, after the colour counts */
	u32 max = 0;

	memset(l->counts, 0, l->m.nr_colours * sizeof(*l->counts));
	for (unsigned long i = 0; i < l->nr_ws; i++)
		l->counts[l->ws[i] % l->m.nr_colours]++;
	for (u64 c = 0; c < l->m.nr_colours; c++) {
		covered += l->counts[c] != 0;
		max = MAX(max, l->counts[c]);
	}
	r->pages = l->nr_ws;
	r->cover_ppm = (u64)covered * 1000000 / l->m.nr_colours;
	r->max_per_colour = max;

	/* Page i of the heap is hot or not by the seed alone. */
	for (unsigned long i = 0; i < l->nr_ws; i++) {
		unsigned long pfn = l->ws[i];

		if (rng_below(&l->hot_rng, 1000000) < hot_ppm)
			hot[nr_hot++] = pfn;
		else
			__free_pages(pfn_to_page(pfn), 0);
	}
	l->nr_ws = nr_hot; /* free_ws() now frees only the hot ones */
	r->hot = nr_hot;
	r->conflict_ppm = msc_conflict_ppm(&l->m, hot, nr_hot, l->counts);
}

/*
 * A simulated node could not be built. The policy and the layout were
 * checked before (mmlab_check), so what was missing is memory: for the
 * node's struct pages, or the policy's state.
 */
static int no_node(u64 bytes, char *why, size_t len)
{
	snprintf(why, len, "no memory for a simulated node of %llu MiB (its struct pages "
		 "take %llu MiB): try a smaller node= (or cache=, for contrived)",
		 (unsigned long long)(bytes >> 20),
		 (unsigned long long)(bytes / PAGE_SIZE * sizeof(struct page) >> 20));
	return -ENOMEM;
}

static int run_contrived(struct lab *l, struct mmlab_result *r, char *why, size_t len)
{
	const struct mmlab_config *c = l->c;
	unsigned long node_pages = c->cache / PAGE_SIZE, half = node_pages / 2;
	unsigned long zones[MAX_NR_ZONES] = { 0, 0, node_pages };
	struct memsim_range range = { 0, node_pages, false };
	struct pglist_data *a, *b;
	int err = 0;

	/* Two cache-sized nodes, as numa_emulation cut them: each starts on colour 0. */
	a = memsim_create_policy(LAB_NID_A, &range, 1, zones, c->policy, c->cache, c->seed);
	b = a ? memsim_create_policy(LAB_NID_B, &range, 1, zones, c->policy, c->cache,
				     c->seed + 1) : NULL;
	if (!a || !b) {
		memsim_destroy(a);
		return no_node(c->cache, why, len);
	}
	if (alloc_ws(l, LAB_NID_A, half) || alloc_ws(l, LAB_NID_B, half)) {
		err = fail(why, len, -ENOMEM, "an instance did not fit in its node");
	} else {
		/* Every page of both instances is in use: all of them are hot. */
		measure(l, 1000000, r);
	}
	free_ws(l);
	memsim_destroy(b);
	memsim_destroy(a);
	return err;
}

static int run_on_node(struct lab *l, struct mmlab_result *r, char *why, size_t len)
{
	const struct mmlab_config *c = l->c;
	unsigned long node_pages = c->node / PAGE_SIZE;
	unsigned long zones[MAX_NR_ZONES] = { 0, 0, node_pages };
	struct memsim_range range = { 0, node_pages, false };
	unsigned long ws_pages = (unsigned long)((u64)c->ratio * c->cache / 100 / PAGE_SIZE);
	struct pglist_data *pgdat = NULL;
	int nid = 0, err = 0;

	if (c->real) {
		/* all of node 0, not the part deferred init has written so far */
		deferred_init_all(NODE_DATA(0));
		node_pages = nr_free_pages();
		if (ws_pages + node_pages / 100 * c->live_pct >= node_pages)
			return fail(why, len, -ENOMEM,
				    "node 0 has too little free memory for the working set and the churn");
	} else {
		pgdat = memsim_create_policy(LAB_NID_A, &range, 1, zones, c->policy,
					     c->cache, c->seed);
		if (!pgdat)
			return no_node(c->node, why, len);
		nid = LAB_NID_A;
	}
	if (c->workload == MMLAB_AGED || c->workload == MMLAB_INTERLEAVED) {
		if (c->workload == MMLAB_AGED)
			err = churn(l, nid, node_pages, &r->churn_allocs, &r->churn_fails);
		else
			err = interleave(l, nid, node_pages, &r->churn_allocs);
		r->survivors = l->live_pages;
		if (err)
			fail(why, len, err, err == -EINTR ? "stopped during the churn (Ctrl-C)"
							  : "the churn ran out of memory");
	}
	if (!err && alloc_ws(l, nid, ws_pages))
		err = fail(why, len, -ENOMEM, "the working set did not fit");
	if (!err)
		measure(l, c->hot_ppm, r);
	free_ws(l);
	free_live(l);
	memsim_destroy(pgdat);
	return err;
}

int mmlab_run(const struct mmlab_config *c, struct mmlab_result *r, char *why,
	      size_t len)
{
	struct lab l = { .c = c };
	unsigned long live_max = 0;
	int err = mmlab_check(c, why, len);

	if (err)
		return err;
	memset(r, 0, sizeof(*r));
	msc_init(&l.m, c->cache, LAB_LINE);
	rng_seed(&l.place_rng, c->seed);
	rng_seed(&l.hot_rng, c->seed ^ 0x9e3779b97f4a7c15ULL);
	if (c->workload == MMLAB_CONTRIVED)
		l.max_ws = c->cache / PAGE_SIZE;
	else
		l.max_ws = (unsigned long)((u64)c->ratio * c->cache / 100 / PAGE_SIZE);
	if (c->workload == MMLAB_AGED)
		live_max = (unsigned long)((c->real ? nr_free_pages() : c->node / PAGE_SIZE) /
					   100 * c->live_pct) + 1;
	else if (c->workload == MMLAB_INTERLEAVED) /* pairs: kept + temporaries */
		live_max = 2 * (unsigned long)((c->real ? nr_free_pages() : c->node / PAGE_SIZE) /
					       100 * c->live_pct >> c->pair_order) + 2;
	l.max_live = live_max;
	l.ws = lab_alloc(l.max_ws * sizeof(*l.ws));
	l.counts = lab_alloc(l.m.nr_colours * sizeof(*l.counts));
	l.live = live_max ? lab_alloc(live_max * sizeof(*l.live)) : NULL;
	if (!l.ws || !l.counts || (live_max && !l.live)) {
		err = fail(why, len, -ENOMEM, "no memory for the lab's own tables");
		goto out;
	}
	if (c->workload == MMLAB_CONTRIVED)
		err = run_contrived(&l, r, why, len);
	else
		err = run_on_node(&l, r, why, len);
out:
	memsim_free(l.live);
	memsim_free(l.counts);
	memsim_free(l.ws);
	return err;
}

static void ppm_str(char *buf, size_t len, u64 ppm)
{
	snprintf(buf, len, "%llu.%03llu%%", (unsigned long long)(ppm / 10000),
		 (unsigned long long)(ppm % 10000 / 10));
}

int mmlab_format(char *buf, size_t len, const struct mmlab_config *c,
		 const struct mmlab_result *r)
{
	char conflict[16], cover[16], hot[16], node[24];

	ppm_str(conflict, sizeof(conflict), r->conflict_ppm);
	ppm_str(cover, sizeof(cover), r->cover_ppm);
	ppm_str(hot, sizeof(hot), c->workload == MMLAB_CONTRIVED ? 1000000 : c->hot_ppm);
	if (c->real)
		strlcpy(node, "real", sizeof(node));
	else
		snprintf(node, sizeof(node), "%lluM",
			 (unsigned long long)((c->workload == MMLAB_CONTRIVED ? c->cache : c->node) >> 20));
	return snprintf(buf, len,
			"mmlab: workload=%s policy=%s node=%s cache=%lluM ratio=%u hot=%s "
			"aging=%u live=%u order=%u seed=%llu: conflict=%s cover=%s max=%u pages=%lu "
			"hot_pages=%lu survivors=%lu churn=%llu fails=%llu",
			mmlab_workload_name(c->workload), c->policy,
			node,
			(unsigned long long)(c->cache >> 20),
			c->workload == MMLAB_CONTRIVED ? 100 : c->ratio, hot,
			c->workload == MMLAB_AGED ? c->aging : 0,
			c->workload == MMLAB_AGED || c->workload == MMLAB_INTERLEAVED ? c->live_pct : 0,
			c->workload == MMLAB_INTERLEAVED ? c->pair_order : 0,
			(unsigned long long)c->seed, conflict, cover, r->max_per_colour,
			r->pages, r->hot, r->survivors, (unsigned long long)r->churn_allocs,
			(unsigned long long)r->churn_fails);
}
