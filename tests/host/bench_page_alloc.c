// SPDX-License-Identifier: MIT
/*
 * bench-page-alloc: the cases of the page allocator's speed goal (issue
 * "Page allocator speed"), on the host, for mm/page_alloc.c built with
 * gcc -O2 and no sanitizers, against a minimal binary buddy allocator
 * (tests/host/peer_buddy.c) given exactly the same free frames: a 1 GiB
 * node of 262,144 frames, all free.
 *
 *   pair0   order-0 alloc then free, 1M times (per pair)
 *   burst   10,000 order-0 allocs (per alloc), then frees in allocation
 *           order (per free)
 *   random  the same allocs, frees in a fixed random order (per free)
 *   pair9   order-9 alloc then free (per pair)
 *   setup   set up the 1 GiB node, memory already faulted in
 *   cold    the same on memory never touched before (fresh mmap)
 *   whole   set-up and then all of deferred struct page init (Pagoda
 *           writes no struct page at set-up; this is what it owes)
 *
 * Pagoda runs twice, per-CPU lists on (the default) and off. Times are the
 * minimum over 15 runs. With --instructions, each case also runs under
 * valgrind's callgrind, which counts only inside the case's function
 * (--toggle-collect), so the count per operation does not depend on load.
 * Lines starting "BENCH " are JSON for tools (make bench).
 *
 * With --cost, instead: what each optional check and hook adds per
 * operation (fault injection armed, page_alloc.debug, each policy).
 *
 * Usage: bench-page-alloc [--instructions] [--cost] [--runs N]
 *        bench-page-alloc [--variant V] --one ALLOC CASE   (what callgrind runs)
 */
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/random.h>
#include <pagoda/time.h>
#include "../../mm/internal.h"
#include "../../mm/memsim.h"
#include "peer_buddy.h"

/* libc, declared by hand (host_prefix.h renames the kernel's string calls) */
extern void *mmap(void *addr, unsigned long len, int prot, int flags, int fd, long off);
extern int munmap(void *addr, unsigned long len);
extern int system(const char *cmd);
extern void *fopen(const char *path, const char *mode);
extern char *fgets(char *s, int n, void *f);
extern int fclose(void *f);
extern int unlink(const char *path);
extern int getpid(void);
extern long strtol(const char *s, char **end, int base);
#define PROT_RW 3           /* PROT_READ | PROT_WRITE */
#define MAP_ANON_PRIVATE 0x22 /* MAP_PRIVATE | MAP_ANONYMOUS */
#define MAP_FAILED_ ((void *)-1)

void host_env_init(void);
bool ktest_on_host(void) { return true; }

#define NID 1
#define FRAMES (1UL << (30 - PAGE_SHIFT))
#define N_PAIRS 1000000UL
#define N_BURST 10000UL
#define N_PAIRS9 100000UL
#define ALIGN_4M (4UL << 20)

enum alloc { PEER, PCP_ON, PCP_OFF, NR_ALLOCS };
static const char *const alloc_names[NR_ALLOCS] = { "peer", "pcp-on", "pcp-off" };

enum bcase { PAIR0, BURST_ALLOC, BURST_FREE, RANDOM_FREE, PAIR9, SETUP, COLD, WHOLE,
	     NR_CASES };
static const struct {
	const char *key, *what, *unit;
} cases[NR_CASES] = {
	[PAIR0] = { "pair0", "order-0 alloc then free, 1M times", "pair" },
	[BURST_ALLOC] = { "burst-alloc", "10,000 order-0 allocs (per alloc)", "alloc" },
	[BURST_FREE] = { "burst-free", "  then frees in allocation order", "free" },
	[RANDOM_FREE] = { "random-free", "  same, frees in random order", "free" },
	[PAIR9] = { "pair9", "order-9 alloc+free", "pair" },
	[SETUP] = { "setup", "set up 1 GiB (faulted in)", "setup" },
	[COLD] = { "cold", "set up 1 GiB (cold memory)", "setup" },
	/* not in the issue: what deferral leaves for later, done at once */
	[WHOLE] = { "whole", "  + every struct page written", "setup" },
};

static struct peer_buddy peer;
static char *peer_mem;          /* 1 GiB + 4 MiB, for alignment */
static unsigned long peer_map[FRAMES / 64];
static void *ptrs[N_BURST];
static unsigned int perm[N_BURST];

/* --- the two allocators behind one set of case functions -------------------- */

static inline void *peer_a(unsigned int order) { return peer_alloc(&peer, order); }
static inline void peer_f(void *p, unsigned int order) { peer_free(&peer, p, order); }
static inline void *pagoda_a(unsigned int order)
{
	return alloc_pages_node(NID, GFP_KERNEL, order);
}
static inline void pagoda_f(void *p, unsigned int order) { __free_pages(p, order); }

/*
 * Each case is its own out-of-line function, named so that callgrind can
 * count just inside it; the peer's and Pagoda's are the same source.
 */
#define DEFINE_CASES(X, A, F)                                                  \
	/* an allocation and its free, n times: order is a constant in each */     \
	static __hot_inline unsigned long X##_pairs(unsigned long n, unsigned int order) \
	{                                                                          \
		unsigned long bad = 0;                                             \
		for (unsigned long i = 0; i < n; i++) {                            \
			void *p = A(order);                                        \
			bad += !p;                                                 \
			F(p, order);                                               \
		}                                                                  \
		return bad;                                                        \
	}                                                                          \
	noinline static unsigned long X##_pair0(unsigned long n) { return X##_pairs(n, 0); } \
	noinline static unsigned long X##_pair9(unsigned long n) { return X##_pairs(n, 9); } \
	noinline static unsigned long X##_burst_alloc(unsigned long n) \
	{                                                                          \
		unsigned long bad = 0;                                             \
		for (unsigned long i = 0; i < n; i++)                              \
			bad += !(ptrs[i] = A(0));                                  \
		return bad;                                                        \
	}                                                                          \
	noinline static unsigned long X##_burst_free(unsigned long n) \
	{                                                                          \
		for (unsigned long i = 0; i < n; i++)                              \
			F(ptrs[i], 0);                                             \
		return 0;                                                          \
	}                                                                          \
	noinline static unsigned long X##_random_free(unsigned long n) \
	{                                                                          \
		for (unsigned long i = 0; i < n; i++)                              \
			F(ptrs[perm[i]], 0);                                       \
		return 0;                                                          \
	}

DEFINE_CASES(peer, peer_a, peer_f)
DEFINE_CASES(pagoda, pagoda_a, pagoda_f)

/*
 * The zone lock taken and released, uncontended, as every operation with
 * the lists off does once and the peer never does: the part of the
 * lists-off figures that is the lock's (--cost prints it).
 */
noinline static unsigned long zone_lock_pairs(unsigned long n)
{
	spinlock_t *lock = &NODE_DATA(NID)->node_zones[ZONE_NORMAL].lock;

	for (unsigned long i = 0; i < n; i++) {
		unsigned long flags;

		spin_lock_irqsave(lock, flags);
		spin_unlock_irqrestore(lock, flags);
	}
	return 0;
}

/* --- set-up ---------------------------------------------------------------- */

static void *map_fresh(unsigned long len)
{
	void *p = mmap(NULL, len, PROT_RW, MAP_ANON_PRIVATE, -1, 0);

	if (p == MAP_FAILED_)
		panic("bench: mmap of %lu bytes failed", len);
	return p;
}

static char *align4m(char *p)
{
	return (char *)ALIGN_UP((unsigned long)p, ALIGN_4M);
}

static const struct memsim_range whole = { 0, FRAMES, false };
static const unsigned long zone_ends[MAX_NR_ZONES] = { 0, 0, FRAMES };
static struct page *pagoda_map;  /* faulted in, reused by "setup" */
static unsigned long map_bytes;

/* Set-up defers every struct page (init_pages 0): the first allocation
 * writes a chunk on demand, a thread in the kernel writes the rest. */
noinline static struct pglist_data *pagoda_setup(struct page *map)
{
	return memsim_create_on(NID, &whole, 1, zone_ends, "inorder", map, 0);
}

noinline static struct pglist_data *pagoda_whole(struct page *map)
{
	struct pglist_data *pgdat = pagoda_setup(map);

	if (pgdat)
		deferred_init_all(pgdat);
	return pgdat;
}

noinline static void peer_setup(char *mem, unsigned long *map)
{
	peer_init(&peer, align4m(mem), FRAMES, map);
}

/*
 * --cost: what each optional check and hook adds, one variant at a time
 * against the default (in-order policy, no debug, no fault injection).
 */
enum variant { V_DEFAULT, V_FAIL, V_DEBUG, V_SHUFFLE, V_ENTROPY, V_COLOUR, NR_VARIANTS };
static const struct {
	const char *key, *what, *policy;
} variants[NR_VARIANTS] = {
	[V_DEFAULT] = { "default", "default (inorder; checks on free always on)", "inorder" },
	[V_FAIL] = { "fail", "fail_page_alloc armed, never firing", "inorder" },
	[V_DEBUG] = { "debug", "page_alloc.debug=1 (simulated: no poison)", "inorder" },
	[V_SHUFFLE] = { "shuffle", "policy shuffle (populated hook)", "shuffle" },
	[V_ENTROPY] = { "shuffle-entropy", "policy shuffle-entropy (+free_to_tail)",
			"shuffle-entropy" },
	[V_COLOUR] = { "colour", "policy colour (pick, taken hooks)", "colour" },
};
static enum variant variant = V_DEFAULT;

/* The node the other cases run on (not through pagoda_setup, which
 * callgrind counts), under the variant's policy and switches. */
static void node_up(void)
{
	if (!memsim_create_on(NID, &whole, 1, zone_ends, variants[variant].policy,
			      pagoda_map, ~0UL))
		panic("bench: could not set up the node");
	page_alloc_debug = variant == V_DEBUG;
	if (variant == V_FAIL)
		fail_page_alloc_set(~0UL >> 1, 100, -1); /* armed; fires every 2^63 calls */
}

/* Nanoseconds for one set-up; cold: on memory never touched; all: with
 * every struct page written. */
static u64 setup_once(enum alloc a, bool cold, bool all)
{
	u64 t0, t;

	if (a == PEER) {
		char *mem = cold ? map_fresh(FRAMES * PAGE_SIZE + ALIGN_4M) : peer_mem;
		unsigned long *map = cold ? map_fresh(sizeof(peer_map)) : peer_map;

		t0 = ktime_get_ns();
		peer_setup(mem, map);
		t = ktime_get_ns() - t0;
		if (cold) {
			munmap(mem, FRAMES * PAGE_SIZE + ALIGN_4M);
			munmap(map, sizeof(peer_map));
		}
		/* leave the peer on its usual memory for the other cases */
		peer_init(&peer, align4m(peer_mem), FRAMES, peer_map);
		return t;
	} else {
		struct page *map = cold ? map_fresh(map_bytes) : pagoda_map;
		struct pglist_data *pgdat;

		memsim_release(NODE_DATA(NID));
		t0 = ktime_get_ns();
		pgdat = all ? pagoda_whole(map) : pagoda_setup(map);
		t = ktime_get_ns() - t0;
		if (!pgdat)
			panic("bench: could not set up the node");
		memsim_release(pgdat);
		if (cold)
			munmap(map, map_bytes);
		node_up();
		return t;
	}
}

/* --- running a case ---------------------------------------------------------- */

static void select_alloc(enum alloc a)
{
	if (a == PEER)
		return;
	drain_all_pages(NODE_DATA(NID));
	page_alloc_pcp = a == PCP_ON;
}

static void shuffle_perm(void)
{
	struct rng r;

	rng_seed(&r, 42);
	rng_permutation(&r, perm, N_BURST);
}

static unsigned long ops_of(enum bcase c)
{
	switch (c) {
	case PAIR0: return N_PAIRS;
	case PAIR9: return N_PAIRS9;
	case SETUP: case COLD: case WHOLE: return 1;
	default: return N_BURST;
	}
}

/* A warm-up's operations: a tenth, but a burst's frees need a whole burst
 * (the random order is a permutation of all of it). */
static unsigned long warm_ops(enum bcase c)
{
	return c == BURST_FREE || c == RANDOM_FREE ? ops_of(c) : ops_of(c) / 10;
}

/* Operations under callgrind: a tenth of the pairs (it is ~50x slower),
 * whole bursts (the random order is a permutation of all of it). */
static unsigned long grind_ops(enum bcase c)
{
	return c == PAIR0 || c == PAIR9 ? ops_of(c) / 10 : ops_of(c);
}

/*
 * One run of case c: nanoseconds for ops_of(c) operations. The burst's
 * frees need its allocations first; those are done untimed.
 */
static u64 run_case(enum alloc a, enum bcase c, unsigned long n)
{
	bool p = a == PEER;
	unsigned long bad = 0;
	u64 t0, t;

	if (c == SETUP || c == COLD || c == WHOLE)
		return setup_once(a, c == COLD, c == WHOLE);
	if (c == BURST_FREE || c == RANDOM_FREE)
		bad += p ? peer_burst_alloc(n) : pagoda_burst_alloc(n);
	t0 = ktime_get_ns();
	switch (c) {
	case PAIR0: bad += p ? peer_pair0(n) : pagoda_pair0(n); break;
	case PAIR9: bad += p ? peer_pair9(n) : pagoda_pair9(n); break;
	case BURST_ALLOC: bad += p ? peer_burst_alloc(n) : pagoda_burst_alloc(n); break;
	case BURST_FREE: bad += p ? peer_burst_free(n) : pagoda_burst_free(n); break;
	case RANDOM_FREE: bad += p ? peer_random_free(n) : pagoda_random_free(n); break;
	default: break;
	}
	t = ktime_get_ns() - t0;
	if (c == BURST_ALLOC)
		p ? peer_burst_free(n) : pagoda_burst_free(n);
	if (bad)
		panic("bench: %s %s: %lu allocations failed", alloc_names[a], cases[c].key, bad);
	return t;
}

static void setup_all(void)
{
	host_env_init();
	map_bytes = FRAMES * sizeof(struct page);
	pagoda_map = map_fresh(map_bytes);
	memset(pagoda_map, 0, map_bytes);
	peer_mem = map_fresh(FRAMES * PAGE_SIZE + ALIGN_4M);
	peer_init(&peer, align4m(peer_mem), FRAMES, peer_map);
	/* fault the peer's frames in, as Pagoda's struct pages are */
	for (unsigned long i = 0; i < FRAMES * PAGE_SIZE + ALIGN_4M; i += PAGE_SIZE)
		peer_mem[i] = 0;
	peer_init(&peer, align4m(peer_mem), FRAMES, peer_map);
	node_up();
	shuffle_perm();
}

/* --- instructions, by callgrind ---------------------------------------------- */

static const char *self_path = "build/host/bench-page-alloc";

static const char *case_function(enum alloc a, enum bcase c)
{
	static char fn[64];
	static const char *const suffix[NR_CASES] = {
		[PAIR0] = "pair0", [BURST_ALLOC] = "burst_alloc", [BURST_FREE] = "burst_free",
		[RANDOM_FREE] = "random_free", [PAIR9] = "pair9", [SETUP] = "setup",
		[COLD] = "setup", [WHOLE] = "whole",
	};

	/* the peer defers nothing: its whole set-up is its set-up */
	snprintf(fn, sizeof(fn), "%s_%s", a == PEER ? "peer" : "pagoda",
		 a == PEER && c == WHOLE ? "setup" : suffix[c]);
	return fn;
}

/*
 * Instructions callgrind counts inside function fn (a glob) while this
 * program runs with the given arguments; 0 if it failed.
 */
static u64 callgrind_count(const char *fn, const char *args)
{
	char cmd[512], out[64], line[256];
	u64 total = 0;
	void *f;

	snprintf(out, sizeof(out), "/tmp/bench-page-alloc.%d.cg", getpid());
	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=callgrind --callgrind-out-file=%s --collect-atstart=no "
		 "--toggle-collect=%s %s %s >/dev/null 2>&1", out, fn, self_path, args);
	if (system(cmd) != 0)
		return 0;
	f = fopen(out, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "totals:", 7) || !strncmp(line, "summary:", 8))
			total = (u64)strtol(strchr(line, ':') + 1, NULL, 10);
	fclose(f);
	unlink(out);
	return total;
}

/* Instructions of case c under callgrind (both of its runs); 0 if it failed. */
static u64 count_instructions(enum alloc a, enum bcase c)
{
	char args[128];

	snprintf(args, sizeof(args), "--variant %s --one %s %s", variants[variant].key,
		 alloc_names[a], cases[c].key);
	return callgrind_count(case_function(a, c), args);
}

/* Instructions per zone lock pair, x1000, under callgrind; 0 if it failed.
 * (gcc may rename the function: the glob takes its clones too.) */
static u64 count_lock_instructions(void)
{
	return callgrind_count("zone_lock_pairs*", "--one lock pairs") * 1000 / N_PAIRS;
}

/*
 * What callgrind runs: the case twice, a warm-up and the run (set-up:
 * once); callgrind counts both, so the caller divides by twice the
 * operations.
 */
static int run_one(const char *alloc, const char *key)
{
	enum alloc a = NR_ALLOCS;
	enum bcase c = NR_CASES;

	if (!strcmp(alloc, "lock")) {
		setup_all();
		return (int)zone_lock_pairs(N_PAIRS);
	}
	for (int i = 0; i < NR_ALLOCS; i++)
		if (!strcmp(alloc, alloc_names[i]))
			a = i;
	for (int i = 0; i < NR_CASES; i++)
		if (!strcmp(key, cases[i].key))
			c = i;
	if (a == NR_ALLOCS || c == NR_CASES || c == COLD)
		return 2;
	setup_all();
	select_alloc(a);
	if (c < SETUP)
		run_case(a, c, grind_ops(c)); /* warm up */
	run_case(a, c, grind_ops(c));
	return 0;
}

/*
 * --cost: order-0 pairs with per-CPU lists off (every call reaches the
 * buddy core and the policy's hooks) and a burst's allocs and frees with
 * them on, per variant; time (min of runs) and callgrind instructions.
 */
static int cost_table(int runs, bool want_instr)
{
	static const enum bcase cc[] = { PAIR0, BURST_ALLOC, BURST_FREE };
	static const enum alloc ca[] = { PCP_OFF, PCP_ON, PCP_ON };
	u64 ns[NR_VARIANTS][3], in[NR_VARIANTS][3] = { { 0 } };
	u64 lock_ps = ~0ULL, lock_in = 0;

	for (int v = 0; v < NR_VARIANTS; v++) {
		variant = v;
		memsim_release(NODE_DATA(NID));
		node_up();
		for (int k = 0; k < 3; k++) {
			unsigned long n = ops_of(cc[k]);

			select_alloc(ca[k]);
			run_case(ca[k], cc[k], warm_ops(cc[k]));
			ns[v][k] = ~0ULL;
			for (int r = 0; r < runs; r++)
				ns[v][k] = MIN(ns[v][k], run_case(ca[k], cc[k], n) * 1000 / n);
			if (want_instr)
				in[v][k] = count_instructions(ca[k], cc[k]) * 1000 /
					   (2 * grind_ops(cc[k]));
		}
		page_alloc_debug = false;
		fail_page_alloc_set(1, 100, 0);
	}
	for (int r = 0; r < runs; r++) {
		u64 t0 = ktime_get_ns();

		zone_lock_pairs(N_PAIRS);
		lock_ps = MIN(lock_ps, (ktime_get_ns() - t0) * 1000 / N_PAIRS);
	}
	if (want_instr)
		lock_in = count_lock_instructions();
	kprintf("what each check and hook costs (Pagoda on the host, 1 GiB, min of %d runs;\n"
		"+N = instructions per operation above the default, callgrind)\n\n", runs);
	kprintf("%-44s  %-22s  %-22s  %-22s\n", "variant", "order-0 pair, pcp off",
		"burst alloc, pcp on", "burst free, pcp on");
	for (int v = 0; v < NR_VARIANTS; v++) {
		kprintf("%-44s", variants[v].what);
		for (int k = 0; k < 3; k++) {
			char b[48];
			long d = (long)in[v][k] - (long)in[V_DEFAULT][k];

			if (!want_instr)
				snprintf(b, sizeof(b), "%llu.%llu ns", (unsigned long long)(ns[v][k] / 1000),
					 (unsigned long long)(ns[v][k] % 1000 / 100));
			else if (v == V_DEFAULT)
				snprintf(b, sizeof(b), "%llu.%llu ns %llu ins",
					 (unsigned long long)(ns[v][k] / 1000),
					 (unsigned long long)(ns[v][k] % 1000 / 100),
					 (unsigned long long)(in[v][k] / 1000));
			else
				snprintf(b, sizeof(b), "%llu.%llu ns %s%ld ins",
					 (unsigned long long)(ns[v][k] / 1000),
					 (unsigned long long)(ns[v][k] % 1000 / 100),
					 d >= 0 ? "+" : "-", (d >= 0 ? d : -d) / 1000);
			kprintf("  %-22s", b);
		}
		kprintf("\n");
	}
	kprintf("\nthe zone lock, taken and released (uncontended; every operation with the\n"
		"lists off pays it once, the peer never): %llu.%llu ns",
		(unsigned long long)(lock_ps / 1000), (unsigned long long)(lock_ps % 1000 / 100));
	if (lock_in)
		kprintf(", %llu instructions", (unsigned long long)(lock_in / 1000));
	kprintf("\n");
	kprintf("BENCH {\"bench\":\"pagealloc-host-cost\",\"variant\":\"zone-lock\","
		"\"case\":\"lock-pair\",\"alloc\":\"pcp-off\",\"ns\":%llu.%03llu,"
		"\"instructions\":%llu.%03llu}\n", (unsigned long long)(lock_ps / 1000),
		(unsigned long long)(lock_ps % 1000), (unsigned long long)(lock_in / 1000),
		(unsigned long long)(lock_in % 1000));
	for (int v = 0; v < NR_VARIANTS; v++)
		for (int k = 0; k < 3; k++)
			kprintf("BENCH {\"bench\":\"pagealloc-host-cost\",\"variant\":\"%s\","
				"\"case\":\"%s\",\"alloc\":\"%s\",\"ns\":%llu.%03llu,"
				"\"instructions\":%llu.%03llu}\n", variants[v].key, cases[cc[k]].key,
				alloc_names[ca[k]], (unsigned long long)(ns[v][k] / 1000),
				(unsigned long long)(ns[v][k] % 1000),
				(unsigned long long)(in[v][k] / 1000),
				(unsigned long long)(in[v][k] % 1000));
	return 0;
}

/* --- the table ------------------------------------------------------------------- */

static void print_value(u64 ps, u64 base_ps, const char *unit)
{
	char v[32];

	if (!strcmp(unit, "ns") && ps >= 10000000)
		snprintf(v, sizeof(v), "%llu us", (unsigned long long)(ps / 1000000));
	else
		snprintf(v, sizeof(v), "%llu.%llu %s", (unsigned long long)(ps / 1000),
			 (unsigned long long)(ps % 1000 / 100), unit);
	if (base_ps)
		kprintf("  x%llu.%02llu %-10s", (unsigned long long)(ps / base_ps),
			(unsigned long long)(ps * 100 / base_ps % 100), v);
	else
		kprintf("  %-16s", v);
}

int main(int argc, char **argv)
{
	static u64 best[NR_ALLOCS][NR_CASES], instr[NR_ALLOCS][NR_CASES];
	bool want_instr = false, cost = false;
	int runs = 15;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--one") && i + 2 < argc)
			return run_one(argv[i + 1], argv[i + 2]);
		if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
			bool found = false;

			for (int v = 0; v < NR_VARIANTS; v++)
				if (!strcmp(argv[i + 1], variants[v].key))
					variant = v, found = true;
			if (!found) {
				kprintf("bench-page-alloc: no variant %s\n", argv[i + 1]);
				return 2;
			}
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--instructions"))
			want_instr = true;
		else if (!strcmp(argv[i], "--cost"))
			cost = true;
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = (int)strtol(argv[++i], NULL, 10);
		else {
			kprintf("usage: bench-page-alloc [--instructions] [--cost] [--runs N]\n");
			return 2;
		}
	}
	self_path = argv[0];
	if (runs < 1)
		runs = 1;
	setup_all();
	if (cost)
		return cost_table(runs, want_instr && system("valgrind --version >/dev/null 2>&1") == 0);
	for (int a = 0; a < NR_ALLOCS; a++) {
		select_alloc(a);
		for (int c = 0; c < NR_CASES; c++) {
			unsigned long n = ops_of(c);

			if (c < SETUP)
				run_case(a, c, warm_ops(c)); /* warm up */
			best[a][c] = ~0ULL;
			for (int r = 0; r < runs; r++) {
				u64 t = run_case(a, c, n) * 1000 / n; /* ps per op */

				best[a][c] = MIN(best[a][c], t);
			}
		}
	}
	page_alloc_pcp = true;
	if (want_instr && system("valgrind --version >/dev/null 2>&1") == 0)
		for (int a = 0; a < NR_ALLOCS; a++)
			for (int c = 0; c < NR_CASES; c++) {
				unsigned long n = 2 * grind_ops(c);

				if (c == SETUP || c == WHOLE)
					instr[a][c] = count_instructions(a, c) * 1000;
				else if (c != COLD)
					instr[a][c] = count_instructions(a, c) * 1000 / n;
			}
	else if (want_instr)
		kprintf("(valgrind not found: no instruction counts)\n");

	kprintf("page allocator on the host: 1 GiB, %lu free frames; gcc -O2; min of %d runs\n"
		"peer = minimal binary buddy (tests/host/peer_buddy.c); xN = Pagoda / peer\n\n",
		FRAMES, runs);
	kprintf("%-36s  %-16s  %-18s  %-18s\n", "time per operation", "peer",
		"Pagoda, pcp on", "Pagoda, pcp off");
	for (int c = 0; c < NR_CASES; c++) {
		kprintf("%-36s", cases[c].what);
		for (int a = 0; a < NR_ALLOCS; a++)
			print_value(best[a][c], a == PEER ? 0 : best[PEER][c], "ns");
		kprintf("\n");
	}
	if (instr[PEER][PAIR0]) {
		kprintf("\n%-36s  %-16s  %-18s  %-18s\n", "instructions per operation (callgrind)",
			"peer", "Pagoda, pcp on", "Pagoda, pcp off");
		for (int c = 0; c < NR_CASES; c++) {
			if (c == COLD)
				continue;
			kprintf("%-36s", cases[c].what);
			for (int a = 0; a < NR_ALLOCS; a++)
				print_value(instr[a][c], a == PEER ? 0 : instr[PEER][c], "");
			kprintf("\n");
		}
	}
	for (int a = 0; a < NR_ALLOCS; a++)
		for (int c = 0; c < NR_CASES; c++)
			kprintf("BENCH {\"bench\":\"pagealloc-host\",\"alloc\":\"%s\",\"case\":\"%s\","
				"\"unit\":\"ns/%s\",\"ns\":%llu.%03llu,\"instructions\":%llu.%03llu,"
				"\"ratio_x1000\":%llu}\n", alloc_names[a], cases[c].key, cases[c].unit,
				(unsigned long long)(best[a][c] / 1000),
				(unsigned long long)(best[a][c] % 1000),
				(unsigned long long)(instr[a][c] / 1000),
				(unsigned long long)(instr[a][c] % 1000),
				(unsigned long long)(best[a][c] * 1000 / MAX(best[PEER][c], 1ULL)));
	return 0;
}
