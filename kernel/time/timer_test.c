// SPDX-License-Identifier: MIT
/*
 * Timers, sleeping and cross-CPU calls.
 *
 * Timers must fire in expiry order and never early; "on time" is asserted
 * with a stated tolerance of TIMER_SLACK_MS late, far above a hardware
 * interrupt's latency because an emulator's virtual CPUs are host threads
 * the host may deschedule for tens of milliseconds.
 */
#include <pagoda/ktest.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>

#define TIMER_SLACK_MS 500
#define NTIMERS 16

struct stamp_timer {
	struct timer_list t;
	int index;
	u64 fired_at;
};

static int fire_order[NTIMERS];
static int nr_fired;

static void stamp(struct timer_list *t)
{
	struct stamp_timer *s = container_of(t, struct stamp_timer, t);

	s->fired_at = ktime_get_ns();
	fire_order[__atomic_fetch_add(&nr_fired, 1, __ATOMIC_RELAXED)] = s->index;
}

static void test_timers_in_order_and_on_time(struct ktest *t)
{
	static struct stamp_timer st[NTIMERS];
	/* Expiry of timer i: a shuffled order of 2 ms steps. */
	static const int slot[NTIMERS] = { 7, 2, 13, 0, 9, 4, 15, 11, 1, 6, 14, 3, 10, 5, 12, 8 };
	u64 base = ktime_get_ns() + 5 * NSEC_PER_MSEC, deadline;
	unsigned long flags;

	nr_fired = 0;
	/*
	 * All on this CPU (timers on two CPUs need not fire in global order),
	 * and all armed before any fires: on a slow emulator (raspi4b) arming
	 * can outlast the 5 ms lead, and a tick in the middle would run the
	 * early ones before the earlier-due ones were even queued.
	 */
	flags = arch_irq_save();
	for (int i = 0; i < NTIMERS; i++) {
		st[i].index = i;
		st[i].fired_at = 0;
		timer_setup(&st[i].t, stamp);
		mod_timer(&st[i].t, base + (u64)slot[i] * 2 * NSEC_PER_MSEC);
	}
	arch_irq_restore(flags);
	deadline = ktime_get_ns() + 10 * NSEC_PER_SEC;
	while (READ_ONCE(nr_fired) < NTIMERS && ktime_get_ns() < deadline)
		msleep(5);
	KASSERT_EQ(t, nr_fired, NTIMERS);
	for (int k = 0; k < NTIMERS; k++)
		KEXPECT_EQ(t, slot[fire_order[k]], k); /* the k-th to fire was due k-th */
	for (int i = 0; i < NTIMERS; i++) {
		u64 due = st[i].t.expires;

		KEXPECT_GE(t, st[i].fired_at, due); /* never early */
		KEXPECT_LT(t, st[i].fired_at - due, TIMER_SLACK_MS * NSEC_PER_MSEC);
		KEXPECT_FALSE(t, timer_pending(&st[i].t));
	}
}

static void never(struct timer_list *t)
{
	nr_fired = -1000;
}

static void test_del_timer(struct ktest *t)
{
	struct timer_list tl;

	nr_fired = 0;
	timer_setup(&tl, never);
	KEXPECT_FALSE(t, mod_timer(&tl, ktime_get_ns() + 20 * NSEC_PER_MSEC));
	KEXPECT_TRUE(t, timer_pending(&tl));
	KEXPECT_TRUE(t, mod_timer(&tl, ktime_get_ns() + 30 * NSEC_PER_MSEC));
	KEXPECT_TRUE(t, del_timer_sync(&tl));
	KEXPECT_FALSE(t, del_timer(&tl));
	msleep(50);
	KEXPECT_EQ(t, nr_fired, 0);
}

static void test_msleep(struct ktest *t)
{
	for (unsigned int ms = 1; ms <= 16; ms *= 4) {
		u64 t0 = ktime_get_ns(), took;

		msleep(ms);
		took = ktime_get_ns() - t0;
		KEXPECT_GE(t, took, ms * NSEC_PER_MSEC);
		KEXPECT_LT(t, took, (ms + TIMER_SLACK_MS) * NSEC_PER_MSEC);
	}
}

static void test_clocks(struct ktest *t)
{
	u64 a = ktime_get_ns(), b = ktime_get_ns();
	u64 real = ktime_get_real_ns();

	KEXPECT_LE(t, a, b);
	if (realtime_from_rtc())
		KEXPECT_GT(t, real / NSEC_PER_SEC, 1577836800ull); /* after 2020 */
}

static void record_cpu(void *info)
{
	unsigned int *where = info;

	where[smp_processor_id()] = smp_processor_id() + 100;
}

static void test_cross_cpu_calls(struct ktest *t)
{
	unsigned int where[NR_CPUS] = { 0 }, cpu;
	u64 tlb_before = 0, tlb_after = 0;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU online: no other CPU to call or shoot down");
		return;
	}

	for_each_online_cpu(cpu) {
		KEXPECT_EQ(t, smp_call_function_single(cpu, record_cpu, where, true), 0);
		KEXPECT_EQ(t, where[cpu], cpu + 100);
	}
	for_each_online_cpu(cpu)
		where[cpu] = 0;
	on_each_cpu(record_cpu, where, true);
	for_each_online_cpu(cpu)
		KEXPECT_EQ(t, where[cpu], cpu + 100);
	KEXPECT_EQ(t, smp_call_function_single(NR_CPUS - 1, record_cpu, where, true),
		   num_possible_cpus() == NR_CPUS ? 0 : -ENODEV);
	for_each_online_cpu(cpu)
		tlb_before += cpu_locals[cpu].ipis[IPI_TLB_FLUSH];
	flush_tlb_kernel_range(VMALLOC_START, VMALLOC_START + PAGE_SIZE);
	for_each_online_cpu(cpu)
		tlb_after += cpu_locals[cpu].ipis[IPI_TLB_FLUSH];
	KEXPECT_EQ(t, tlb_after - tlb_before, num_online_cpus() - 1);
}

/*
 * Two CPUs re-arming and disarming one timer at once, as the swiotlb grow
 * and shrink workers re-arm the shrink timer. Each arming finds the timer
 * not pending at times; both linking it once made a loop of two CPUs'
 * lists, and the next walk spun there with interrupts off (an arm64 boot
 * hung in a cross-CPU call that way). After the storm both lists must be
 * whole and the timer on none.
 */
#define REARM_ROUNDS 20000
#define REARM_LEAST 1000

struct rearmer {
	struct timer_list *timer;
	unsigned int cpu;
	u64 until;
	bool done;
};

static void never_runs(struct timer_list *t)
{
}

static int rearm_fn(void *arg)
{
	struct rearmer *r = arg;

	/*
	 * 20,000 rounds take about 200 ms on a quiet host. On a busy one each
	 * CPU waits out whole host time slices for a lock whose holder's vCPU
	 * is off the host's CPUs (57 s once, at load 5): past a second, a
	 * thousand rounds are enough.
	 */
	for (unsigned int i = 0; i < REARM_ROUNDS && (i < REARM_LEAST || ktime_get_ns() < r->until);
	     i++) {
		mod_timer(r->timer, ktime_get_ns() + NSEC_PER_SEC + i);
		del_timer(r->timer); /* not pending again: the next arming races */
	}
	smp_store_release(&r->done, true);
	return 0;
}

static void test_rearm_from_two_cpus(struct ktest *t)
{
	struct timer_list timer;
	struct rearmer r[2];
	struct task *task[2];
	unsigned int n = 0, cpu;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU online: nobody to race with");
		return;
	}
	timer_setup(&timer, never_runs);
	for_each_online_cpu(cpu) {
		if (n == 2)
			break;
		r[n] = (struct rearmer){ .timer = &timer, .cpu = cpu,
					 .until = ktime_get_ns() + NSEC_PER_SEC };
		task[n] = kthread_create(rearm_fn, &r[n], "rearm%u", cpu);
		KASSERT_TRUE(t, task[n] != NULL);
		set_cpus_allowed(task[n], 1ULL << cpu);
		n++;
	}
	for (unsigned int i = 0; i < n; i++)
		wake_up_process(task[i]);
	for (unsigned int i = 0; i < n; i++)
		kthread_join(task[i]);
	KEXPECT_TRUE(t, r[0].done && r[1].done);
	del_timer_sync(&timer);
	KEXPECT_FALSE(t, timer_pending(&timer));
	KEXPECT_TRUE(t, timer_bases_consistent());
}

static struct ktest_case timer_cases[] = {
	KTEST_CASE(test_clocks),
	KTEST_CASE(test_timers_in_order_and_on_time),
	KTEST_CASE(test_del_timer),
	KTEST_CASE(test_msleep),
	KTEST_CASE(test_cross_cpu_calls),
	KTEST_CASE(test_rearm_from_two_cpus),
	{}
};
KTEST_SUITE_FULL(timers_smp, .cases = timer_cases, .kernel_only = true);
