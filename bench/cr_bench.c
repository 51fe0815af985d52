// SPDX-License-Identifier: MIT
/*
 * bench cr: the seed's table. One busy-loop process (user/crloop, the
 * seed's busyloop00) and the 11-process tree (user/crtree, its
 * session00) are checkpointed to ram0 and restored, again and again, the
 * restored processes being the next checkpoint's: 30 times with the
 * vDSO in kdat mode and 30 in legacy mode, interleaved, so that both see
 * the same machine. Each dump (freeze, image, write, kill) and each
 * restore (read, check, build, start) is timed; mean and standard
 * deviation per mode, the restore's change from legacy to kdat, and in
 * place of the seed's system-call counts the kernel operations each
 * restore took (cr_stats).
 */
#include <pagoda/bench.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "../kernel/cr/cr.h"

#define ITERS 30
#define DEV "ram0"

struct series {
	u64 n, sum, sumsq;      /* ns */
	u64 x[ITERS];           /* each, for the median: the machine's load makes outliers */
};

static void add(struct series *s, u64 ns)
{
	if (s->n < ITERS)
		s->x[s->n] = ns;
	s->n++;
	s->sum += ns;
	s->sumsq += ns * ns / 1000; /* in ns*us: no overflow for seconds */
}

typedef unsigned long long ull; /* what %llu takes, on both arches */

static ull mean_us(const struct series *s)
{
	return s->n ? s->sum / s->n / 1000 : 0;
}

static ull median_us(const struct series *s)
{
	u64 v[ITERS];
	unsigned int n = (unsigned int)MIN(s->n, (u64)ITERS);

	if (!n)
		return 0;
	memcpy(v, s->x, n * sizeof(v[0]));
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j && v[j - 1] > v[j]; j--) {
			u64 t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return (n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) / 1000;
}

/* The standard deviation in us: sqrt(E[x^2] - E[x]^2), whole numbers. */
static ull sd_us(const struct series *s)
{
	ull m = mean_us(s), ex2, var, r = 0;

	if (!s->n)
		return 0;
	ex2 = s->sumsq / s->n / 1000; /* us^2 */
	var = ex2 > m * m ? ex2 - m * m : 0;
	while ((r + 1) * (r + 1) <= var)
		r++;
	return r;
}

struct shape_result {
	struct series dump[2], restore[2];  /* [0] legacy, [1] kdat */
	struct series vstep[2];             /* the restore's vDSO step alone */
	struct cr_stats ops[2];             /* summed over the restores */
	u64 dump_pages;
	unsigned int nproc;
	int failed;
};

static void stats_diff(struct cr_stats *acc, const struct cr_stats *a, const struct cr_stats *b)
{
	acc->symtab_parses += b->symtab_parses - a->symtab_parses;
	acc->vdso_maps += b->vdso_maps - a->vdso_maps;
	acc->vdso_moves += b->vdso_moves - a->vdso_moves;
	acc->trampolines += b->trampolines - a->trampolines;
	acc->pte_updates += b->pte_updates - a->pte_updates;
	acc->pages_copied += b->pages_copied - a->pages_copied;
	acc->vdso_ns += b->vdso_ns - a->vdso_ns;
}

static int start(const char *path, const char *arg)
{
	const char *argv[] = { path, arg, "quiet" }, *why;
	struct process *p = process_create(strrchr(path, '/') + 1);
	int err;

	if (!p)
		return -ENOMEM;
	err = process_exec(p, path, 3, argv, &why);
	if (!err) {
		p->autoreap = true;
		err = process_start(p, p->entry, p->stack, 0);
	}
	if (err) {
		pr_err("bench cr: %s: %s\n", path, why);
		process_destroy(p);
		return err;
	}
	return p->pid;
}

static void run_shape(struct shape_result *r, const char *path, bool tree)
{
	const char *why = "";
	int pid = start(path, "1000000");
	size_t bytes;

	memset(r, 0, sizeof(*r));
	if (pid < 0) {
		r->failed = pid;
		return;
	}
	msleep(500); /* the tree forks its ten */
	for (int i = 0; i < 2 * ITERS && !r->failed; i++) {
		int mode = i & 1; /* legacy, kdat, legacy, ... */
		struct cr_stats s0 = cr_stats, s1;
		u64 t0 = ktime_get_ns(), t1;

		r->failed = cr_checkpoint(pid, tree, false, DEV, &why, &r->nproc, &bytes);
		t1 = ktime_get_ns();
		if (r->failed)
			break;
		add(&r->dump[mode], t1 - t0);
		r->dump_pages += cr_stats.pages_copied - s0.pages_copied;
		cr_wait_killed(); /* the reaper's work, not the dump's */
		s1 = cr_stats;
		t0 = ktime_get_ns();
		r->failed = cr_restore_dev(DEV, mode ? CR_VDSO_KDAT : CR_VDSO_LEGACY, NULL, &why);
		t1 = ktime_get_ns();
		if (r->failed)
			break;
		add(&r->restore[mode], t1 - t0);
		add(&r->vstep[mode], cr_stats.vdso_ns - s1.vdso_ns);
		stats_diff(&r->ops[mode], &s1, &cr_stats);
		msleep(20); /* let them run a little between checkpoints */
	}
	if (r->failed)
		pr_err("bench cr: %s: %s\n", path, why);
	/* The last image's processes go: a checkpoint that kills them. */
	cr_checkpoint(pid, tree, false, DEV, &why, &r->nproc, &bytes);
	cr_wait_killed();
}

static void print_shape(const char *name, const struct shape_result *r)
{
	static const char *const mode[2] = { "legacy", "kdat" };
	ull ml = mean_us(&r->restore[0]), mk = mean_us(&r->restore[1]);
	s64 pct10 = ml ? (s64)(ml - mk) * 1000 / (s64)ml : 0;

	if (r->failed)
		return;
	kprintf("%s (%u process%s), %d C/R per mode:\n", name, r->nproc, r->nproc == 1 ? "" : "es",
		ITERS);
	for (int m = 0; m < 2; m++) {
		const struct cr_stats *o = &r->ops[m];
		ull n = r->restore[m].n ? r->restore[m].n : 1;

		kprintf("  %-6s dump %6llu us +-%5llu  restore %6llu us +-%5llu  per restore: "
			"%llu symtab parses, %llu vDSO maps, %llu moves, %llu vDSO PTEs, %llu pages\n",
			mode[m], mean_us(&r->dump[m]), sd_us(&r->dump[m]), mean_us(&r->restore[m]),
			sd_us(&r->restore[m]), o->symtab_parses / n, o->vdso_maps / n,
			(ull)o->vdso_moves / n, (ull)o->pte_updates / n, (ull)o->pages_copied / n);
		kprintf("BENCH {\"bench\":\"cr\",\"shape\":\"%s\",\"procs\":%u,\"mode\":\"%s\","
			"\"iters\":%llu,\"dump_us\":%llu,\"dump_sd_us\":%llu,\"dump_median_us\":%llu,"
			"\"restore_us\":%llu,\"restore_median_us\":%llu,"
			"\"restore_sd_us\":%llu,\"vdso_step_ns\":%llu,\"vdso_step_median_us\":%llu,"
			"\"symtab_parses\":%llu,\"vdso_maps\":%llu,"
			"\"vdso_moves\":%llu,\"vdso_ptes\":%llu,\"pages_restored\":%llu,"
			"\"pages_dumped\":%llu}\n",
			name, r->nproc, mode[m], (ull)r->restore[m].n, mean_us(&r->dump[m]),
			sd_us(&r->dump[m]), median_us(&r->dump[m]), mean_us(&r->restore[m]),
			median_us(&r->restore[m]), sd_us(&r->restore[m]),
			(ull)o->vdso_ns / n, median_us(&r->vstep[m]), (ull)o->symtab_parses / n,
			(ull)o->vdso_maps / n, (ull)o->vdso_moves / n,
			(ull)o->pte_updates / n, (ull)o->pages_copied / n,
			(ull)r->dump_pages / (r->dump[0].n + r->dump[1].n));
	}
	kprintf("  restore: kdat %s%lld.%lld%% against legacy (the seed: 21%% faster for one "
		"process, 8%% for ~10)\n", pct10 >= 0 ? "faster by " : "slower by ",
		(long long)(pct10 >= 0 ? pct10 : -pct10) / 10,
		(long long)(pct10 >= 0 ? pct10 : -pct10) % 10);
}

static void bench_cr(void)
{
	static struct shape_result loop, tree;

	bench_print_machine();
	kprintf("bench cr: images on %s\n", DEV);
	run_shape(&loop, "/bin/crloop", false);
	print_shape("busyloop", &loop);
	run_shape(&tree, "/bin/crtree", true);
	print_shape("tree", &tree);
}
KBENCH(cr, "checkpoint/restore: a busy loop and an 11-process tree, legacy vs kdat vDSO, 30 each",
       bench_cr);
