// SPDX-License-Identifier: MIT
/*
 * The clocks a program reads through system calls (clock_gettime,
 * clock_getres, gettimeofday), after Linux's kernel/time/posix-timers.c
 * and posix-cpu-timers.c. They must agree with the vDSO's answers
 * (lib/vdso/gettimeofday.c), because a program mixes the two freely and
 * Linux's vdso_test_correctness checks that a vDSO read falls between two
 * system calls made around it:
 *
 * - the fine clocks are one function of the counter (ktime_get_ns());
 * - the coarse clocks are the last tick's time, which the vvar page
 *   holds: the system call reads that same value (vdso_coarse_ns()), so
 *   neither path can run ahead of the other;
 * - CLOCK_TAI is realtime plus the TAI offset, 0 as on a Linux nobody
 *   has told the leap seconds (adjtimex's ADJ_TAI);
 * - the CPU-time clocks are the scheduler's run time of the caller,
 *   which the vDSO does not serve (it makes this call).
 */
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/task.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/uaccess.h>
#include <pagoda/vdso.h>
#include "../syscalls.h"

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define CLOCK_TAI 11

/*
 * A negative clock id names another task's or process's CPU clock
 * (clock_getcpuclockid()): the pid is ~(id >> 3), bit 2 says "thread",
 * the low two bits which count (0 PROF, 1 VIRT, 2 SCHED, 3 invalid).
 */
#define CPUCLOCK_SCHED 2

/*
 * The caller's CPU time: its thread's, or its process's (every thread's,
 * run_time_ns()). A CPU clock id of another process or thread is refused
 * (-EINVAL, as Linux answers for a pid it cannot find); PROF and VIRT
 * would need user/system accounting Pagoda does not keep.
 */
static int cpu_clock_ns(long clk, u64 *ns)
{
	struct process *p = current_process();
	bool thread = clk == CLOCK_THREAD_CPUTIME_ID;

	if (clk < 0) {
		long pid = ~(clk >> 3);

		thread = clk & 4;
		if ((clk & 3) != CPUCLOCK_SCHED ||
		    (pid && pid != (thread || !p ? current->pid : p->pid)))
			return -EINVAL;
	}
	*ns = thread || !p ? task_sched_runtime(current) : run_time_ns(p);
	return 0;
}

/* The time of clock clk now, and its resolution: 0, or -EINVAL for no such clock. */
static int clock_read(long clk, u64 *ns, u64 *res)
{
	*res = 1; /* the counter's clocks: nanoseconds, as Linux's high-resolution ones */
	switch (clk) {
	case CLOCK_REALTIME:
	case CLOCK_TAI:
		*ns = ktime_get_ns() + (u64)realtime_offset_ns();
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME:
		*ns = ktime_get_ns();
		return 0;
	case CLOCK_REALTIME_COARSE:
		*res = TICK_NSEC;
		*ns = vdso_coarse_ns() + (u64)realtime_offset_ns();
		return 0;
	case CLOCK_MONOTONIC_COARSE:
		*res = TICK_NSEC;
		*ns = vdso_coarse_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		return cpu_clock_ns(clk, ns);
	}
	if (clk < 0)
		return cpu_clock_ns(clk, ns);
	return -EINVAL; /* the alarm clocks too: they need an RTC alarm, as on Linux */
}

int posix_clock_read(long clk, u64 *ns)
{
	u64 res;

	return clock_read(clk, ns, &res);
}

static int put_timespec(u64 uts, u64 ns)
{
	u64 ts[2] = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return copy_to_user(uts, ts, sizeof(ts)) ? -EFAULT : 0;
}

int get_timespec_ns(u64 uts, u64 *ns)
{
	s64 ts[2];

	if (copy_from_user(ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	/* Linux's timespec64_to_ns(): past KTIME_MAX is KTIME_MAX, never a wrap. */
	if ((u64)ts[0] >= KTIME_MAX / NSEC_PER_SEC)
		*ns = KTIME_MAX;
	else
		*ns = (u64)ts[0] * NSEC_PER_SEC + (u64)ts[1];
	return 0;
}

long sys_clock_gettime(const unsigned long *args)
{
	u64 ns, res;
	int err = clock_read((int)args[0], &ns, &res);

	return err ? err : put_timespec(args[1], ns);
}

long sys_clock_getres(const unsigned long *args)
{
	u64 ns, res;
	int err = clock_read((int)args[0], &ns, &res);

	if (err || !args[1])
		return err;
	return put_timespec(args[1], res);
}

/* gettimeofday(tv, tz): the time zone is Linux's sys_tz, all zeros unless set. */
long sys_gettimeofday(const unsigned long *args)
{
	u64 ns = ktime_get_ns() + (u64)realtime_offset_ns();
	u64 tv[2] = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC / 1000 };
	s32 tz[2] = { 0, 0 };

	if (args[0] && copy_to_user(args[0], tv, sizeof(tv)))
		return -EFAULT;
	if (args[1] && copy_to_user(args[1], tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}
