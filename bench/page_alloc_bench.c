// SPDX-License-Identifier: MIT
/*
 * `bench pagealloc`: what the page allocator costs, and what the shuffle
 * adds to it, measured in one boot so the ratios compare like with like.
 *
 *   order-0 alloc+free pairs on this machine's memory, per-CPU lists on
 *   and off; a burst of 1000 allocations then 1000 frees (the pcp lists'
 *   batching at work); pairs at higher orders;
 *   the same pairs on two simulated 1 GiB nodes, one shuffled and one not
 *   (shuffle changes the lists' order and adds entropy on free);
 *   bursts on a simulated node under the colour policy against in-order
 *   (what steering every order-0 allocation to a free colour costs);
 *   shuffle time per GiB (a simulated 4 GiB node), and the boot's own
 *   shuffle against its memory-init step ("in the noise", the seed says);
 *   the cases of the speed goal (make bench-host runs them on the host
 *   against a minimal buddy allocator) on this machine's zone, pcp lists
 *   on and off, and the boot's memory step against the whole boot, with
 *   the struct pages deferred init wrote after it.
 * Each line is printed for people and as a BENCH JSON record.
 */
#include <pagoda/arch.h>
#include <pagoda/bench.h>
#include <pagoda/init.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "../mm/internal.h"
#include "../mm/memsim.h"
#include "../mm/policy.h"

#define BENCH_NID 6

static void report(const char *what, const char *unit, u64 value_ps, u64 base_ps)
{
	kprintf("  %-44s %8llu.%01llu %-8s", what, (unsigned long long)(value_ps / 1000),
		(unsigned long long)(value_ps % 1000 / 100), unit);
	if (base_ps)
		kprintf(" x%llu.%02llu", (unsigned long long)(value_ps / base_ps),
			(unsigned long long)(value_ps * 100 / base_ps % 100));
	kprintf("\n");
	kprintf("BENCH {\"bench\":\"pagealloc\",\"arch\":\"%s\",\"accel\":\"%s\",\"mem_mib\":%lu,"
		"\"case\":\"%s\",\"unit\":\"%s\",\"value\":%llu.%03llu,\"ratio_x1000\":%llu}\n",
		arch_name, arch_accelerator(), totalram_pages() >> (20 - PAGE_SHIFT), what, unit,
		(unsigned long long)(value_ps / 1000), (unsigned long long)(value_ps % 1000),
		(unsigned long long)(base_ps ? value_ps * 1000 / base_ps : 0));
}

/*
 * Values are passed in thousandths of their unit (picoseconds for ns).
 */

/*
 * Picoseconds per alloc+free pair of the given order on node nid; 0 when
 * no block of that order is free (a small machine: MEM=16M has no order-10
 * block). Quietly: the bench says so on its own row.
 */
static u64 pairs(int nid, unsigned int order, gfp_t gfp, unsigned long n)
{
	u64 t0 = arch_cycles(), t1;

	for (unsigned long i = 0; i < n; i++) {
		struct page *p = alloc_pages_node(nid, gfp | __GFP_NOWARN, order);

		if (!p)
			return 0;
		__free_pages(p, order);
	}
	t1 = arch_cycles();
	return cycles_to_ns((t1 - t0) * 1000) / n;
}

static struct page *burst[1000];

static u64 bursts(int nid, unsigned long rounds)
{
	u64 t0 = arch_cycles();

	for (unsigned long r = 0; r < rounds; r++) {
		for (int i = 0; i < 1000; i++)
			burst[i] = alloc_pages_node(nid, GFP_KERNEL | __GFP_NOWARN, 0);
		for (int i = 0; i < 1000; i++)
			if (burst[i])
				__free_pages(burst[i], 0);
	}
	return cycles_to_ns((arch_cycles() - t0) * 1000) / (rounds * 1000);
}

static struct pglist_data *sim_policy(unsigned long gib, const char *policy)
{
	struct memsim_range r = { 0, gib << (30 - PAGE_SHIFT), false };
	unsigned long zones[MAX_NR_ZONES] = { 0, 0, r.end };

	return memsim_create_policy(BENCH_NID, &r, 1, zones, policy, 0, 1);
}

/* The same pairs on a shuffled and an unshuffled 1 GiB node; plain is freed. */
static void sim_pairs(struct pglist_data *plain, const unsigned int *orders, size_t n,
		      bool saved_pcp)
{
	struct pglist_data *shuf;
	char what[64];
	u64 v;

	page_alloc_pcp = false;
	for (size_t i = 0; i < n; i += 2) {
		u64 p = pairs(BENCH_NID, orders[i], GFP_KERNEL, 100000);

		memsim_destroy(plain);
		shuf = sim_policy(1, "shuffle-entropy");
		if (!shuf) {
			plain = NULL;
			break;
		}
		v = pairs(BENCH_NID, orders[i], GFP_KERNEL, 100000);
		memsim_destroy(shuf);
		snprintf(what, sizeof(what), "sim 1 GiB order-%u pair, unshuffled", orders[i]);
		report(what, "ns/pair", p, 0);
		snprintf(what, sizeof(what), "sim 1 GiB order-%u pair, shuffled", orders[i]);
		report(what, "ns/pair", v, p);
		plain = sim_policy(1, "inorder");
		if (!plain)
			break;
	}
	page_alloc_pcp = saved_pcp;
	if (plain)
		memsim_destroy(plain);
}

/*
 * What steering costs: the colour policy searches for an unused colour on
 * every order-0 allocation; in-order takes a list head. Bursts, so that
 * allocations are not just the page freed last.
 */
static void bench_colour(bool saved_pcp)
{
	struct pglist_data *plain, *shuf;
	u64 base;

	page_alloc_pcp = false;
	plain = sim_policy(1, "inorder");
	base = plain ? bursts(BENCH_NID, 20) : 0;
	memsim_destroy(plain);
	shuf = base ? sim_policy(1, "colour") : NULL;
	if (shuf) {
		report("sim 1 GiB 1000 allocs then frees, inorder", "ns/page", base, 0);
		report("sim 1 GiB 1000 allocs then frees, colour", "ns/page",
		       bursts(BENCH_NID, 20), base);
		memsim_destroy(shuf);
	} else {
		kprintf("  %-44s not measured: no memory for a simulated 1 GiB node\n",
			"colour against inorder bursts");
	}
	page_alloc_pcp = saved_pcp;
}

/*
 * The speed goal's cases (tests/host/bench_page_alloc.c has the same on
 * the host): order-0 pairs; 10,000 order-0 allocations, then frees in
 * allocation order, and again with frees in a fixed random order; order-9
 * pairs. On node 0's preferred zone, as GFP_KERNEL gets it.
 */
#define GOAL_BURST 10000
static struct page *goal[GOAL_BURST];
static unsigned int goal_perm[GOAL_BURST];

/* Picoseconds per allocation of a 10,000-page burst; 0 if one failed. */
static u64 goal_allocs(void)
{
	u64 t0 = arch_cycles();
	unsigned long bad = 0;

	for (int i = 0; i < GOAL_BURST; i++)
		bad += !(goal[i] = alloc_pages_node(0, GFP_KERNEL | __GFP_NOWARN, 0));
	t0 = cycles_to_ns((arch_cycles() - t0) * 1000) / GOAL_BURST;
	if (!bad)
		return t0;
	for (int i = 0; i < GOAL_BURST; i++)
		if (goal[i])
			__free_pages(goal[i], 0);
	return 0;
}

static u64 goal_frees(bool random)
{
	u64 t0 = arch_cycles();

	for (int i = 0; i < GOAL_BURST; i++)
		__free_pages(goal[random ? goal_perm[i] : (unsigned int)i], 0);
	return cycles_to_ns((arch_cycles() - t0) * 1000) / GOAL_BURST;
}

static void bench_goal(bool saved_pcp)
{
	struct rng r;
	char what[64];

	rng_seed(&r, 42);
	rng_permutation(&r, goal_perm, GOAL_BURST);
	for (int on = 1; on >= 0; on--) {
		const char *pcp = on ? "pcp on" : "pcp off";
		u64 a;

		page_alloc_pcp = on;
		drain_all_pages(NODE_DATA(0));
		pairs(0, 0, GFP_KERNEL, 1000); /* warm up */
		snprintf(what, sizeof(what), "goal: order-0 alloc then free, %s", pcp);
		report(what, "ns/pair", pairs(0, 0, GFP_KERNEL, 1000000), 0);
		a = goal_allocs();
		if (!a) {
			kprintf("  %-44s not measured: 10,000 free pages needed\n", "goal: bursts");
			continue;
		}
		snprintf(what, sizeof(what), "goal: 10,000 allocs, %s", pcp);
		report(what, "ns/alloc", a, 0);
		snprintf(what, sizeof(what), "goal:   then frees in order, %s", pcp);
		report(what, "ns/free", goal_frees(false), 0);
		if (goal_allocs()) {
			snprintf(what, sizeof(what), "goal:   frees in random order, %s", pcp);
			report(what, "ns/free", goal_frees(true), 0);
		}
		snprintf(what, sizeof(what), "goal: order-9 alloc+free, %s", pcp);
		a = pairs(0, 9, GFP_KERNEL, 20000);
		if (a)
			report(what, "ns/pair", a, 0);
		else
			kprintf("  %-44s not measured: no free order-9 block\n", what);
	}
	page_alloc_pcp = saved_pcp;
	drain_all_pages(NODE_DATA(0));
}

/* The boot's memory step (random_init excluded) against the whole boot. */
static void bench_memory_step(void)
{
	u64 mem_step = 0, boot = 0;
	char what[64];

	for (int i = 1; i < nr_boot_steps; i++) {
		if (!strcmp(boot_steps[i].name, "memory"))
			mem_step = cycles_to_ns(boot_steps[i].cycles - boot_steps[i - 1].cycles);
		if (!strcmp(boot_steps[i].name, "shell"))
			boot = cycles_to_ns(boot_steps[i].cycles - boot_entry_cycles);
	}
	if (!mem_step || !boot)
		return;
	snprintf(what, sizeof(what), "memory step of boot, %lu MiB (xN of boot)",
		 totalram_pages() >> (20 - PAGE_SHIFT));
	report(what, "us", mem_step, boot);
	if (NODE_DATA(0)->deferred_pages)
		report("  struct pages written after boot (thread)", "us",
		       NODE_DATA(0)->deferred_ns, 0);
	else
		kprintf("  (this boot wrote every struct page at boot: mem=, a shuffling"
			" policy or page_alloc.deferred_init=0)\n");
}

/* The shuffle on a simulated node, and this boot's shuffle against its memory step. */
static void bench_shuffle_time(void)
{
	struct pglist_data *shuf = sim_policy(4, "shuffle-entropy");
	struct policy_stats st;
	u64 mem_step = 0;

	if (shuf) {
		policy_stats(shuf, &st);
		report("shuffle per GiB (sim 4 GiB, order 10)", "us", st.ns / 4, 0);
		memsim_destroy(shuf);
	} else {
		kprintf("  %-44s not measured: no memory for a simulated 4 GiB node\n",
			"shuffle per GiB");
	}
	for (int i = 1; i < nr_boot_steps; i++)
		if (!strcmp(boot_steps[i].name, "memory"))
			mem_step = cycles_to_ns(boot_steps[i].cycles - boot_steps[i - 1].cycles);
	if (!mem_step)
		return;
	policy_stats(NODE_DATA(0), &st);
	report("memory init at boot (this boot)", "us", mem_step, 0);
	if (st.moved)
		report("  of which shuffling (this boot)", "us", st.ns, mem_step);
	else
		kprintf("  (this boot did not shuffle: page_alloc.shuffle=1 or a memory-side"
			" cache, HMAT=, would)\n");
}

static void bench_pagealloc(void)
{
	bool saved_pcp = page_alloc_pcp;
	const unsigned int orders[] = { 0, 1, 3, 5, 9, 10 };
	struct pglist_data *plain;
	char what[64];
	u64 base, v;

	kprintf("page allocator, %lu MiB managed (ratios against the first line of each group)\n",
		totalram_pages() >> (20 - PAGE_SHIFT));
	/* this machine's memory */
	page_alloc_pcp = true;
	pairs(0, 0, GFP_KERNEL, 1000); /* warm up */
	base = pairs(0, 0, GFP_KERNEL, 200000);
	report("order-0 alloc+free, pcp lists on", "ns/pair", base, 0);
	page_alloc_pcp = false;
	report("order-0 alloc+free, pcp lists off", "ns/pair", pairs(0, 0, GFP_KERNEL, 200000), base);
	page_alloc_pcp = true;
	report("1000 allocs then 1000 frees, pcp on", "ns/page", bursts(0, 100), base);
	page_alloc_pcp = false;
	report("1000 allocs then 1000 frees, pcp off", "ns/page", bursts(0, 100), base);
	page_alloc_pcp = saved_pcp;
	drain_all_pages(NODE_DATA(0));
	for (size_t i = 1; i < ARRAY_SIZE(orders); i++) {
		snprintf(what, sizeof(what), "order-%u alloc+free", orders[i]);
		v = pairs(0, orders[i], GFP_KERNEL, 50000);
		if (v)
			report(what, "ns/pair", v, base);
		else
			kprintf("  %-44s not measured: no free block of that order\n", what);
	}

	if (shell_interrupted())
		return;
	/* shuffled against unshuffled, same layout, same boot */
	plain = sim_policy(1, "inorder");
	if (!plain)
		kprintf("  %-44s not measured: no memory for a simulated 1 GiB node\n",
			"shuffled against unshuffled pairs");
	else
		sim_pairs(plain, orders, ARRAY_SIZE(orders), saved_pcp);
	if (shell_interrupted())
		return;
	bench_colour(saved_pcp);
	if (shell_interrupted())
		return;
	bench_shuffle_time();
	if (shell_interrupted())
		return;
	bench_goal(saved_pcp);
	bench_memory_step();
}
KBENCH(pagealloc, "page allocator: alloc/free cost, pcp lists, shuffle cost", bench_pagealloc);
