// SPDX-License-Identifier: MIT
/*
 * A cross-CPU call to a CPU that keeps interrupts masked: the caller
 * waits, reports the wait once it passes the timeout (here shortened to
 * 100 ms), names the target's task and what its stack holds, sends the
 * IPI again, and the call still runs once the target unmasks. What a
 * hang in a cross-CPU call prints (docs/scheduling.md).
 */
#include <pagoda/ktest.h>
#include <pagoda/preempt.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/time.h>

#define TIMEOUT_MS 100
#define MASKED_NS (3 * TIMEOUT_MS * NSEC_PER_MSEC)

struct masked {
	int cpu;     /* where it spins, -1 until it does */
	bool done;
};

/* Spin with interrupts masked for MASKED_NS: no IPI lands meanwhile. */
static noinline int spin_masked(void *arg)
{
	struct masked *m = arg;
	u64 end;

	arch_irq_disable();
	end = ktime_get_ns() + MASKED_NS;
	smp_store_release(&m->cpu, (int)smp_processor_id());
	while (ktime_get_ns() < end)
		arch_cpu_relax();
	arch_irq_enable();
	smp_store_release(&m->done, true);
	return 0;
}

static void mark_ran(void *info)
{
	*(int *)info = (int)smp_processor_id() + 1;
}

static void test_call_to_masked_cpu_is_reported(struct ktest *t)
{
	struct masked m = { .cpu = -1 };
	unsigned long before = smp_csd_lock_reports();
	u64 mask = current->cpus_allowed;
	struct task *spinner;
	unsigned int me, other;
	int ran = 0, cpu;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU: nothing to call");
		return;
	}
	/*
	 * This thread on one CPU, the spinner on another: a sleep of this
	 * thread's ends by its own CPU's timer, which the spinner's masked
	 * CPU would not take.
	 */
	preempt_disable();
	me = smp_processor_id();
	preempt_enable();
	for (other = 0; other == me || !cpu_online(other); other++)
		;
	KASSERT_EQ(t, set_cpus_allowed(current, 1ULL << me), 0);
	spinner = kthread_create(spin_masked, &m, "csd-masked");
	KASSERT_TRUE(t, spinner != NULL);
	set_cpus_allowed(spinner, 1ULL << other);
	wake_up_process(spinner);
	while ((cpu = smp_load_acquire(&m.cpu)) < 0)
		msleep(1);
	/* Its CPU is taken, with interrupts off: this call comes from another. */
	smp_set_test_csd_timeout_ms(TIMEOUT_MS);
	ktest_expect_reports(t, true); /* the report is the point */
	KEXPECT_EQ(t, smp_call_function_single((unsigned int)cpu, mark_ran, &ran, true), 0);
	ktest_expect_reports(t, false);
	smp_set_test_csd_timeout_ms(0);
	KEXPECT_EQ(t, ran, cpu + 1);
	KEXPECT_GE(t, smp_csd_lock_reports() - before, 1);
	kthread_join(spinner);
	KEXPECT_TRUE(t, m.done);
	set_cpus_allowed(current, mask);
}

static struct ktest_case smp_csd_cases[] = {
	KTEST_CASE(test_call_to_masked_cpu_is_reported),
	{}
};
KTEST_SUITE_FULL(smp_csd, .cases = smp_csd_cases, .kernel_only = true);
