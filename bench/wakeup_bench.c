// SPDX-License-Identifier: MIT
/*
 * `bench wakeup` (and `make bench`): how long a wake-up takes to become a
 * running task, as a distribution. Two threads hand a token back and
 * forth; the waker stamps the cycle counter just before wake_up_process(),
 * the woken thread reads it again as soon as it runs. Across CPUs that is
 * the reschedule IPI, the idle CPU leaving its halt and the switch; on one
 * CPU, the switch alone.
 *
 * The mean (bench sched's wake-remote) hides the shape that matters to
 * dm-snapshot's and fork's costs: most wake-ups are quick, and a few wait
 * for something slow (a tick, a vCPU the host has descheduled). So this
 * prints the median, the 90th and 99th percentiles and the maximum.
 */
#include <pagoda/arch.h>
#include <pagoda/bench.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/time.h>

#define WAKEUP_SAMPLES 2000

struct wakeup_run {
	struct task *t[2];
	volatile int turn;
	volatile u64 stamp;	/* the cycle counter just before the wake-up */
	u64 *lat_ns;		/* one per hand-over */
	unsigned int n;
};

static int wakeup_thread(struct wakeup_run *r, int me)
{
	for (unsigned int i = 0; i < WAKEUP_SAMPLES / 2; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (r->turn == me)
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		if (r->stamp)
			r->lat_ns[r->n++] = cycles_to_ns(arch_cycles() - r->stamp);
		r->turn = !me;
		if (me && i == WAKEUP_SAMPLES / 2 - 1)
			break;	/* the other has finished: it may be gone */
		r->stamp = arch_cycles();
		wake_up_process(r->t[!me]);
	}
	return 0;
}

static int wakeup0(void *arg) { return wakeup_thread(arg, 0); }
static int wakeup1(void *arg) { return wakeup_thread(arg, 1); }

/* Shell sort: a few thousand numbers, once. */
static void sort_u64(u64 *v, unsigned int n)
{
	for (unsigned int gap = n / 2; gap; gap /= 2)
		for (unsigned int i = gap; i < n; i++)
			for (unsigned int j = i; j >= gap && v[j - gap] > v[j]; j -= gap) {
				u64 x = v[j];

				v[j] = v[j - gap];
				v[j - gap] = x;
			}
}

static void wakeup_case(const char *what, unsigned int cpu_a, unsigned int cpu_b)
{
	struct wakeup_run r = { .turn = 0 };
	u64 p50, p90, p99, max;

	r.lat_ns = kcalloc(WAKEUP_SAMPLES, sizeof(u64), GFP_KERNEL);
	r.t[0] = kthread_create(wakeup0, &r, "wakeup0");
	r.t[1] = kthread_create(wakeup1, &r, "wakeup1");
	if (!r.lat_ns || !r.t[0] || !r.t[1]) {
		kprintf("%-12s no memory\n", what);
		kfree(r.lat_ns);
		return;
	}
	set_cpus_allowed(r.t[0], 1ULL << cpu_a);
	set_cpus_allowed(r.t[1], 1ULL << cpu_b);
	wake_up_process(r.t[0]);
	wake_up_process(r.t[1]);
	kthread_join(r.t[0]);
	kthread_join(r.t[1]);
	if (r.n < 10) {
		kprintf("%-12s too few samples (%u)\n", what, r.n);
		kfree(r.lat_ns);
		return;
	}
	sort_u64(r.lat_ns, r.n);
	p50 = r.lat_ns[r.n / 2];
	p90 = r.lat_ns[r.n * 90 / 100];
	p99 = r.lat_ns[r.n * 99 / 100];
	max = r.lat_ns[r.n - 1];
	kprintf("%-12s %10llu %10llu %10llu %10llu  (ns, %u wake-ups)\n", what,
		(unsigned long long)p50, (unsigned long long)p90, (unsigned long long)p99,
		(unsigned long long)max, r.n);
	kprintf("BENCH {\"bench\":\"wakeup\",\"arch\":\"%s\",\"accel\":\"%s\",\"cpus\":%u,"
		"\"case\":\"%s\",\"p50_ns\":%llu,\"p90_ns\":%llu,\"p99_ns\":%llu,\"max_ns\":%llu,"
		"\"samples\":%u}\n", arch_name, arch_accelerator(), num_online_cpus(), what,
		(unsigned long long)p50, (unsigned long long)p90, (unsigned long long)p99,
		(unsigned long long)max, r.n);
	kfree(r.lat_ns);
}

static void bench_wakeup(void)
{
	unsigned int other = 0, cpu;

	for_each_online_cpu(cpu)
		if (cpu != 0) {
			other = cpu;
			break;
		}
	kprintf("%-12s %10s %10s %10s %10s\n", "wake-up", "median", "p90", "p99", "max");
	wakeup_case("same-cpu", 0, 0);
	if (other)
		wakeup_case("cross-cpu", 0, other);
	else
		kprintf("cross-cpu    (one CPU online)\n");
}
KBENCH(wakeup, "wake-up to running: median, p90, p99, max, on one CPU and across two",
       bench_wakeup);
