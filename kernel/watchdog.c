// SPDX-License-Identifier: MIT
/*
 * The soft-lockup watchdog. Linux's question: has this CPU been stuck in
 * the kernel, unable to schedule, for watchdog_thresh= seconds (10 by
 * default)? Linux answers it with a high-priority thread per CPU that the
 * timer expects to have run. Pagoda asks the same question from the
 * scheduler's tick, which runs on every busy CPU: a context switch, an
 * idle CPU, or a tick that interrupts preemptible code all mean the CPU
 * could schedule, and reset the CPU's timestamp; a tick that finds the
 * interrupted task with preemption off looks at how long ago that was,
 * and past the threshold reports "BUG: soft lockup" with the stack, once
 * until the CPU makes progress again.
 *
 * Past half the threshold the tick also asks for a reschedule (see
 * watchdog_tick()), so that code which enables preemption now and then,
 * but never when a tick lands, is not reported.
 *
 * It cannot see a CPU with interrupts off (no tick reaches it): that is a
 * hard lockup, which needs an NMI (Linux's hardlockup detector).
 * A loop that knows it is long and harmless calls
 * touch_softlockup_watchdog(), as the hibernation bitmap's walk does at
 * each leaf (the memory-bitmap seed's patch 6).
 */
#include <pagoda/params.h>
#include <pagoda/preempt.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/task.h>
#include <pagoda/time.h>
#include <pagoda/watchdog.h>

static u64 watchdog_thresh = 10;
PARAM_UINT("watchdog_thresh", watchdog_thresh, 0, 60,
	   "seconds a CPU may run with preemption off before a soft lockup is reported (0: off)");

/* A test's shorter threshold (watchdog_set_test_thresh_ms), 0: none. */
static unsigned int test_thresh_ms;

static struct {
	u64 touch_ns;
	bool reported;
} watchdog_cpu[NR_CPUS];
static unsigned long reports;

void touch_softlockup_watchdog(void)
{
	unsigned int cpu = smp_processor_id();

	WRITE_ONCE(watchdog_cpu[cpu].touch_ns, ktime_get_ns());
	WRITE_ONCE(watchdog_cpu[cpu].reported, false);
}

void watchdog_tick(bool preemptible)
{
	unsigned int cpu = smp_processor_id();
	unsigned int test_ms = READ_ONCE(test_thresh_ms);
	u64 now, stuck, thresh = test_ms ? test_ms * NSEC_PER_MSEC :
					   READ_ONCE(watchdog_thresh) * NSEC_PER_SEC;

	if (!thresh || preemptible) {
		touch_softlockup_watchdog();
		return;
	}
	now = ktime_get_ns();
	stuck = now - READ_ONCE(watchdog_cpu[cpu].touch_ns);
	if (watchdog_cpu[cpu].reported)
		return;
	/*
	 * Half way, ask for a reschedule, as Linux's watchdog thread waking
	 * up does: a CPU that only passes through preemptible code between
	 * long stretches with preemption off (programmed I/O, one request at
	 * a time under the host's lock) is seldom caught there by a tick,
	 * but its next preempt_enable() now schedules, which touches. A CPU
	 * that never gets there is stuck indeed.
	 */
	if (stuck > thresh / 2)
		resched_cpu(cpu);
	if (stuck <= thresh)
		return;
	watchdog_cpu[cpu].reported = true;
	__atomic_fetch_add(&reports, 1, __ATOMIC_RELAXED);
	pr_emerg("BUG: soft lockup - CPU#%u stuck for %llus! [%s]\n", cpu,
		 (unsigned long long)(stuck / NSEC_PER_SEC), current->name);
	dump_stack();
}

unsigned long softlockup_reports(void)
{
	return __atomic_load_n(&reports, __ATOMIC_RELAXED);
}

void watchdog_set_test_thresh_ms(unsigned int ms)
{
	WRITE_ONCE(test_thresh_ms, ms);
}
