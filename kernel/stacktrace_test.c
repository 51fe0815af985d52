// SPDX-License-Identifier: MIT
/*
 * Stack traces of another task (kernel/stacktrace.c's stack_trace_task(),
 * what /proc/PID/stack prints). Kernel only: it needs a second thread.
 */
#include <pagoda/arch.h>
#include <pagoda/completion.h>
#include <pagoda/ksyms.h>
#include <pagoda/ktest.h>
#include <pagoda/sched.h>
#include <pagoda/string.h>
#include <pagoda/task.h>

static struct completion stack_probe_go;

static int noinline stack_probe_sleeper(void *arg)
{
	(void)arg;
	wait_for_completion(&stack_probe_go);
	__asm__ volatile("" ::: "memory"); /* not a tail call: this frame stays */
	return 0;
}

struct frames_seen {
	bool scheduler, sleeper;
};

static void note_frame(u64 pc, void *arg)
{
	struct frames_seen *seen = arg;
	const char *name = ksym_lookup(pc, NULL);

	if (name && !strcmp(name, "stack_probe_sleeper"))
		seen->sleeper = true;
	if (name && !strcmp(name, "wait_for_completion"))
		seen->scheduler = true;
}

/*
 * A thread asleep in wait_for_completion(), called from a function of
 * this file: its trace, read from another thread, names both. Until it
 * has switched out its saved frame is older, so a few tries are allowed.
 */
static void test_sleeping_task_stack(struct ktest *t)
{
	struct frames_seen seen = { 0 };
	struct task *th;

	init_completion(&stack_probe_go);
	th = kthread_run(stack_probe_sleeper, NULL, "stackprobe");
	KASSERT_TRUE(t, th != NULL);
	for (int i = 0; i < 200 && !(seen.sleeper && seen.scheduler); i++) {
		msleep(5);
		seen = (struct frames_seen){ 0 };
		if (READ_ONCE(th->state) == TASK_UNINTERRUPTIBLE)
			stack_trace_task(th, note_frame, &seen);
	}
	KEXPECT_TRUE(t, seen.sleeper);
	KEXPECT_TRUE(t, seen.scheduler);
	complete(&stack_probe_go);
	KEXPECT_EQ(t, kthread_join(th), 0);
}

static volatile bool stack_probe_stop;

static int noinline stack_probe_spinner(void *arg)
{
	(void)arg;
	wait_for_completion(&stack_probe_go);
	while (!stack_probe_stop)
		arch_cpu_relax();
	return 0;
}

static void count_frame(u64 pc, void *arg)
{
	(void)pc;
	(*(int *)arg)++;
}

/*
 * A thread that slept (its saved frame in wait_for_completion()) and now
 * spins on CPU 1: no frames while it is on a CPU, rather than the old
 * ones (a fuzzing run's worker, busy in the kernel, was shown where it
 * had last slept). Read only between two looks that find it on its CPU.
 */
static void test_running_task_has_no_stack(struct ktest *t)
{
	struct task *th;
	int frames = -1;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU");
		return;
	}
	init_completion(&stack_probe_go);
	stack_probe_stop = false;
	th = kthread_create(stack_probe_spinner, NULL, "stackspin");
	KASSERT_TRUE(t, th != NULL);
	set_cpus_allowed(th, 1ULL << 1);
	set_cpus_allowed(current, 1ULL); /* the reader stays off the spinner's CPU */
	wake_up_process(th);
	while (READ_ONCE(th->state) != TASK_UNINTERRUPTIBLE)
		msleep(1);
	complete(&stack_probe_go);
	for (int i = 0; i < 1000 && frames < 0; i++) {
		int n = 0;

		if (task_on_cpu(th)) {
			stack_trace_task(th, count_frame, &n);
			if (task_on_cpu(th))
				frames = n;
		}
		if (frames < 0)
			msleep(1);
	}
	stack_probe_stop = true;
	KEXPECT_EQ(t, kthread_join(th), 0);
	set_cpus_allowed(current, CPU_MASK_ALL);
	KEXPECT_EQ(t, frames, 0);
}

static struct ktest_case stacktrace_cases[] = {
	KTEST_CASE(test_sleeping_task_stack),
	KTEST_CASE(test_running_task_has_no_stack),
	{}
};
KTEST_SUITE_FULL(stacktrace, .cases = stacktrace_cases, .kernel_only = true);
