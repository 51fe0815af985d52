// SPDX-License-Identifier: MIT
/*
 * `bench sched`: what the scheduler's basic operations cost.
 *   switch      one context switch: two threads on one CPU handing the
 *               CPU back and forth through wake_up_process + schedule
 *   wake-remote a wake-up round trip between two CPUs (IPI, wake, reply)
 *   create+join creating a thread that returns at once, and joining it
 *   ipi         an smp_call_function_single round trip (IPI there, the
 *               function runs, done flag seen back here)
 * Medians of several runs, as a table and BENCH JSON lines.
 */
#include <pagoda/bench.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/time.h>

#define RUNS 5

static u64 median(u64 *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			u64 x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return v[n / 2];
}

static void report(const char *bench, const char *what, u64 ns_per_op, unsigned int ops)
{
	kprintf("%-14s %10llu.%03llu us  (median of %d runs of %u)\n", what,
		(unsigned long long)(ns_per_op / 1000), (unsigned long long)(ns_per_op % 1000),
		RUNS, ops);
	kprintf("BENCH {\"bench\":\"%s\",\"arch\":\"%s\",\"accel\":\"%s\",\"cpus\":%u,"
		"\"op\":\"%s\",\"ns\":%llu,\"ops\":%u}\n", bench, arch_name, arch_accelerator(),
		num_online_cpus(), what, (unsigned long long)ns_per_op, ops);
}

struct pingpong {
	struct task *a, *b;
	volatile int turn;
	int rounds;
};

static int pp_thread(void *arg, int me)
{
	struct pingpong *p = arg;
	struct task *other;

	for (int i = 0; i < p->rounds; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (p->turn == me)
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		p->turn = !me;
		if (me && i == p->rounds - 1)
			break; /* the other is done: it may be gone */
		other = me ? p->a : p->b;
		wake_up_process(other);
	}
	return 0;
}

static int pp0(void *arg) { return pp_thread(arg, 0); }
static int pp1(void *arg) { return pp_thread(arg, 1); }

/* ns per hand-over between two threads on cpu_a and cpu_b. */
static u64 pingpong_ns(unsigned int cpu_a, unsigned int cpu_b, int rounds)
{
	struct pingpong p = { .turn = 0, .rounds = rounds };
	u64 t0;

	p.a = kthread_create(pp0, &p, "pp0");
	p.b = kthread_create(pp1, &p, "pp1");
	if (!p.a || !p.b)
		return 0;
	set_cpus_allowed(p.a, 1ULL << cpu_a);
	set_cpus_allowed(p.b, 1ULL << cpu_b);
	t0 = arch_cycles();
	wake_up_process(p.a);
	wake_up_process(p.b);
	kthread_join(p.a);
	kthread_join(p.b);
	return cycles_to_ns(arch_cycles() - t0) / (2 * (u64)rounds);
}

static int nop_thread(void *arg)
{
	return 0;
}

static void nop_ipi(void *arg)
{
}

static void bench_sched(void)
{
	u64 v[RUNS];
	unsigned int other = num_online_cpus() > 1 ? 1 : 0;
	const int n = 2000;

	kprintf("%u CPUs online\n", num_online_cpus());
	for (int r = 0; r < RUNS; r++)
		v[r] = pingpong_ns(other, other, n);
	report("sched", "switch", median(v, RUNS), n);
	if (num_online_cpus() > 1) {
		for (int r = 0; r < RUNS; r++)
			v[r] = pingpong_ns(0, 1, n / 4);
		report("sched", "wake-remote", median(v, RUNS), n / 4);
	}
	for (int r = 0; r < RUNS; r++) {
		u64 t0 = arch_cycles();

		for (int i = 0; i < n / 4; i++)
			kthread_join(kthread_run(nop_thread, NULL, "nop"));
		v[r] = cycles_to_ns(arch_cycles() - t0) / (n / 4);
	}
	report("sched", "create+join", median(v, RUNS), n / 4);
	if (num_online_cpus() > 1) {
		set_cpus_allowed(current, 1ULL << 0); /* from CPU 0 to CPU 1 */
		for (int r = 0; r < RUNS; r++) {
			u64 t0 = arch_cycles();

			for (int i = 0; i < n; i++)
				smp_call_function_single(1, nop_ipi, NULL, true);
			v[r] = cycles_to_ns(arch_cycles() - t0) / n;
		}
		set_cpus_allowed(current, CPU_MASK_ALL);
		report("sched", "ipi-roundtrip", median(v, RUNS), n);
	}
}
KBENCH(sched, "context switch, remote wake-up, thread create+join, IPI round trip",
       bench_sched);
