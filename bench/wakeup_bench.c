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
#include <pagoda/string.h>
#include <pagoda/time.h>

#define WAKEUP_SAMPLES 2000

struct wakeup_run {
	struct task *t[2];
	volatile int turn;
	volatile u64 stamp;	/* the cycle counter just before the wake-up */
	volatile unsigned int seq;	/* the hand-over under way (index of the arrays) */
	u64 *lat_ns;		/* stamp until the woken thread runs */
	u64 *waker_ns;		/* stamp until wake_up_process() returned */
	u64 *ipi_ns;		/* stamp until the reschedule IPI arrived (0: none) */
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
		smp_rmb();
		if (r->stamp) {
			u64 now = arch_cycles(), ipi = this_cpu()->resched_ipi_cycles;

			r->lat_ns[r->seq] = cycles_to_ns(now - r->stamp);
			r->ipi_ns[r->seq] = ipi >= r->stamp ? cycles_to_ns(ipi - r->stamp) + 1 : 0;
		}
		if (me && i == WAKEUP_SAMPLES / 2 - 1)
			break;	/* the other has finished: it may be gone */
		r->seq++;
		r->stamp = arch_cycles();
		smp_wmb();	/* seq and stamp before the turn that publishes them */
		r->turn = !me;
		{
			unsigned int seq = r->seq;	/* the woken thread may move it on */

			u64 stamp = r->stamp;	/* and stamp again */

			wake_up_process(r->t[!me]);
			r->waker_ns[seq] = cycles_to_ns(arch_cycles() - stamp);
		}
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

/* One distribution line (and its BENCH record); v is sorted here. */
static void wakeup_print(const char *what, const char *step, u64 *v, unsigned int n)
{
	u64 p50, p90, p99, max;

	if (n < 10) {
		kprintf("%-12s %-10s too few samples (%u)\n", what, step, n);
		return;
	}
	sort_u64(v, n);
	p50 = v[n / 2];
	p90 = v[n * 90 / 100];
	p99 = v[n * 99 / 100];
	max = v[n - 1];
	kprintf("%-12s %-10s %10llu %10llu %10llu %10llu  (ns, %u)\n", what, step,
		(unsigned long long)p50, (unsigned long long)p90, (unsigned long long)p99,
		(unsigned long long)max, n);
	kprintf("BENCH {\"bench\":\"wakeup\",\"arch\":\"%s\",\"accel\":\"%s\",\"cpus\":%u,"
		"\"case\":\"%s%s%s\",\"p50_ns\":%llu,\"p90_ns\":%llu,\"p99_ns\":%llu,"
		"\"max_ns\":%llu,\"samples\":%u}\n", arch_name, arch_accelerator(),
		num_online_cpus(), what, strcmp(step, "run") ? "/" : "",
		strcmp(step, "run") ? step : "", (unsigned long long)p50,
		(unsigned long long)p90, (unsigned long long)p99, (unsigned long long)max, n);
}

/*
 * Besides the whole wake-up ("run"), where its time went: "waker" is the
 * waker's own wake_up_process() (a run-queue lock held by a vCPU the host
 * has descheduled shows here), "ipi" the reschedule IPI's arrival on the
 * woken CPU, and "ipi-run" from that arrival to the woken thread running.
 */
static void wakeup_case(const char *what, unsigned int cpu_a, unsigned int cpu_b)
{
	struct wakeup_run r = { .turn = 0 };
	u64 *ipi, *ipi_run;
	unsigned int n, ni = 0;

	r.lat_ns = kcalloc(WAKEUP_SAMPLES, sizeof(u64), GFP_KERNEL);
	r.waker_ns = kcalloc(WAKEUP_SAMPLES, sizeof(u64), GFP_KERNEL);
	r.ipi_ns = kcalloc(WAKEUP_SAMPLES, sizeof(u64), GFP_KERNEL);
	ipi = kcalloc(WAKEUP_SAMPLES, sizeof(u64), GFP_KERNEL);
	ipi_run = kcalloc(WAKEUP_SAMPLES, sizeof(u64), GFP_KERNEL);
	r.t[0] = kthread_create(wakeup0, &r, "wakeup0");
	r.t[1] = kthread_create(wakeup1, &r, "wakeup1");
	if (!r.lat_ns || !r.waker_ns || !r.ipi_ns || !ipi || !ipi_run || !r.t[0] || !r.t[1]) {
		kprintf("%-12s no memory\n", what);
		goto out;
	}
	set_cpus_allowed(r.t[0], 1ULL << cpu_a);
	set_cpus_allowed(r.t[1], 1ULL << cpu_b);
	wake_up_process(r.t[0]);
	wake_up_process(r.t[1]);
	kthread_join(r.t[0]);
	kthread_join(r.t[1]);
	/* Hand-overs 1..seq were measured; slot 0 is the start. */
	n = r.seq;
	for (unsigned int i = 1; i <= n; i++) {
		if (!r.ipi_ns[i])
			continue;
		ipi[ni] = r.ipi_ns[i] - 1;
		ipi_run[ni++] = r.lat_ns[i] > r.ipi_ns[i] - 1 ? r.lat_ns[i] - (r.ipi_ns[i] - 1) : 0;
	}
	wakeup_print(what, "run", r.lat_ns + 1, n);
	wakeup_print(what, "waker", r.waker_ns + 1, n);
	if (cpu_a != cpu_b) {
		wakeup_print(what, "ipi", ipi, ni);
		wakeup_print(what, "ipi-run", ipi_run, ni);
	}
out:
	kfree(r.lat_ns);
	kfree(r.waker_ns);
	kfree(r.ipi_ns);
	kfree(ipi);
	kfree(ipi_run);
}

static void bench_wakeup(void)
{
	unsigned int other = 0, cpu;

	for_each_online_cpu(cpu)
		if (cpu != 0) {
			other = cpu;
			break;
		}
	kprintf("%-12s %-10s %10s %10s %10s %10s\n", "wake-up", "step", "median", "p90", "p99",
		"max");
	wakeup_case("same-cpu", 0, 0);
	if (other)
		wakeup_case("cross-cpu", 0, other);
	else
		kprintf("cross-cpu    (one CPU online)\n");
}
KBENCH(wakeup, "wake-up to running: median, p90, p99, max, on one CPU and across two",
       bench_wakeup);
