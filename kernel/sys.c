// SPDX-License-Identifier: MIT
/*
 * Small system calls a libc makes while starting or that programs use for
 * identity, limits and sleeping, after Linux's kernel/sys.c: there is one
 * user (root, uid 0) and no resource accounting, so these answer what a
 * single-user system would.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/uaccess.h>
#include <pagoda/vdso.h>
#include "syscalls.h"

#define RLIMIT_STACK 3
#define RLIMIT_NOFILE 7
#define RLIM_INFINITY (~0ULL)

/* getuid, geteuid, getgid, getegid: everyone is root. */
long sys_getuid(const unsigned long *args)
{
	(void)args;
	return 0;
}

/* madvise(addr, len, advice): mm/madvise.c, under mmap_lock (changes_areas). */
long sys_madvise(const unsigned long *args)
{
	return do_madvise(current_process(), args[0], args[1], (int)args[2]);
}

/* getcpu(cpu, node, cache): the CPU this call runs on; one node. */
long sys_getcpu(const unsigned long *args)
{
	unsigned int cpu = smp_processor_id(), node = 0;

	if (args[0] && copy_to_user(args[0], &cpu, sizeof(cpu)))
		return -EFAULT;
	if (args[1] && copy_to_user(args[1], &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

/*
 * prlimit64(pid, resource, new, old) for the caller: the stack is the
 * 128 KiB exec maps (it does not grow), descriptors NR_OPEN plus the
 * console's three; everything else unlimited. Setting is refused.
 */
long sys_prlimit64(const unsigned long *args)
{
	u64 lim[2] = { RLIM_INFINITY, RLIM_INFINITY };

	if (args[0] && (long)args[0] != current->pid)
		return -ESRCH;
	if (args[1] >= 16)
		return -EINVAL;
	if (args[1] == RLIMIT_STACK)
		lim[0] = STACK_RLIMIT; /* what the stack may grow to (mm/memory.c); hard: none */
	else if (args[1] == RLIMIT_NOFILE)
		lim[0] = lim[1] = 3 + NR_OPEN;
	if (args[3] && copy_to_user(args[3], lim, sizeof(lim)))
		return -EFAULT;
	return args[2] ? -EPERM : 0;
}

static void count_task(struct task *t, void *arg)
{
	(void)t;
	(*(unsigned int *)arg)++;
}

/*
 * sysinfo(info): uptime (whole seconds, rounded up as Linux's), memory in
 * pages (mem_unit = the page size), the number of tasks (Linux's procs
 * counts every thread, the kernel's too). No load average is kept and
 * there is no swap: those are 0.
 */
long sys_sysinfo(const unsigned long *args)
{
	u8 info[112] = { 0 };
	u64 ns = ktime_get_ns(), v;
	unsigned int tasks = 0, unit = PAGE_SIZE;
	u16 procs;

	task_for_each(count_task, &tasks);
	procs = (u16)MIN(tasks, 65535U);
	v = ns / NSEC_PER_SEC + (ns % NSEC_PER_SEC ? 1 : 0);
	memcpy(info + 0, &v, 8);   /* uptime */
	v = totalram_pages();
	memcpy(info + 32, &v, 8);  /* totalram */
	v = nr_free_pages();
	memcpy(info + 40, &v, 8);  /* freeram */
	memcpy(info + 80, &procs, 2);
	memcpy(info + 104, &unit, 4); /* mem_unit */
	return copy_to_user(args[0], info, sizeof(info)) ? -EFAULT : 0;
}

/*
 * rseq(2) registration, which glibc tries at every program's start: Pagoda
 * answers as a Linux built without CONFIG_RSEQ does, -ENOSYS, and glibc
 * carries on without it (sched_getcpu() then asks the kernel or the
 * vDSO). Registering would oblige the kernel to keep the area's cpu_id
 * current at every return to user mode and to restart critical sections
 * a preemption cut, which nothing here does yet. No log line: the answer
 * is deliberate, not a missing handler.
 */
long sys_rseq(const unsigned long *args)
{
	(void)args;
	return -ENOSYS;
}

/* A signal to act on (a kill, or one with a handler and not blocked) ends a sleep early. */
static bool sleep_interrupted(const struct process *p)
{
	return signal_pending_thread(p);
}

/*
 * Sleep for a timespec. A signal (SIGALRM from alarm(), say) ends it with
 * -EINTR and, for a relative sleep, the time left, as Linux's nanosleep
 * answers when a handler ran (SA_RESTART does not restart it there either).
 */
static long sleep_ts(u64 uts, u64 urem, bool absolute, int clock)
{
	struct process *p = current_process();
	u64 ns;
	int err = get_timespec_ns(uts, &ns);

	if (err)
		return err;
	if (absolute) {
		/* CLOCK_REALTIME and CLOCK_TAI (0, 11) count from the epoch; the rest from boot. */
		u64 now = clock == 0 || clock == 11 ? ktime_get_ns() + (u64)realtime_offset_ns()
						    : ktime_get_ns();

		ns = ns > now ? ns - now : 0;
	}
	while (ns) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (sleep_interrupted(p)) {
			set_current_state(TASK_RUNNING);
			break;
		}
		ns = schedule_timeout(ns);
	}
	if (!ns)
		return 0;
	if (urem && !absolute) {
		s64 left[2] = { (s64)(ns / NSEC_PER_SEC), (s64)(ns % NSEC_PER_SEC) };

		if (copy_to_user(urem, left, sizeof(left)))
			return -EFAULT;
	}
	return -EINTR;
}

long sys_nanosleep(const unsigned long *args)
{
	return sleep_ts(args[0], args[1], false, 1);
}

/* Sleep until a signal comes: pause(2), and a CPU-time sleep nothing can end otherwise. */
static long wait_for_signal(void)
{
	struct process *p = current_process();

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (sleep_interrupted(p))
			break;
		schedule();
	}
	set_current_state(TASK_RUNNING);
	return -EINTR;
}

/*
 * A sleep on CLOCK_PROCESS_CPUTIME_ID: the process's one thread is the
 * sleeper, so its CPU time stands still; a target already reached ends
 * at once, any other only by a signal, as on Linux.
 */
static long cpu_clock_sleep(u64 uts, bool absolute)
{
	u64 ns;
	int err = get_timespec_ns(uts, &ns);

	if (err)
		return err;
	if (absolute ? ns <= task_sched_runtime(current) : !ns)
		return 0;
	return wait_for_signal();
}

/*
 * clock_nanosleep(clock, flags, req, rem): TIMER_ABSTIME is flag 1. The
 * clocks Linux sleeps on (REALTIME, MONOTONIC, BOOTTIME, TAI, the
 * process's CPU time); those it reads but cannot sleep on (MONOTONIC_RAW,
 * the coarse ones, the alarm clocks without an RTC alarm) are
 * -EOPNOTSUPP; the thread's CPU clock and unknown ids -EINVAL (the
 * answers Linux gave on the host). glibc names the process's CPU clock
 * as Linux's encoding of "this process" (a negative id: pid 0, not a
 * thread's clock), which is the same sleep.
 */
long sys_clock_nanosleep(const unsigned long *args)
{
	int clk = (int)args[0];

	if (clk < 0) {
		/* ~pid << 3 | thread << 2 | which: this process's, not a thread's (Linux: -EINVAL) */
		if ((clk & 4) || (clk & 3) == 3 || (~(clk >> 3) != 0 && ~(clk >> 3) != current->pid))
			return -EINVAL;
		return cpu_clock_sleep(args[2], args[1] & 1);
	}
	switch (clk) {
	case 0:
	case 1:
	case 7:
	case 11:
		return sleep_ts(args[2], args[3], args[1] & 1, (int)args[0]);
	case 2:
		return cpu_clock_sleep(args[2], args[1] & 1);
	case 4:
	case 5:
	case 6:
	case 8:
	case 9:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/* pause(): until a signal's handler has run (or it ends the process); always -EINTR. */
long sys_pause(const unsigned long *args)
{
	(void)args;
	return wait_for_signal();
}

#define PR_SET_NAME 15
#define PR_GET_NAME 16

/*
 * prctl(option, ...): the process's name (what /proc/PID/comm and ps
 * show; busybox renames a child that runs an applet without exec). Other
 * options are -EINVAL, as Linux answers an option it does not know.
 */
long sys_prctl(const unsigned long *args)
{
	struct process *p = current_process();
	char name[16];
	int err;

	switch (args[0]) {
	case PR_SET_NAME:
		err = string_from_user(name, args[1], sizeof(name));
		if (err == -ENAMETOOLONG) {
			/* Linux keeps the first 15 bytes of a longer name. */
			if (copy_from_user(name, args[1], sizeof(name) - 1))
				return -EFAULT;
			name[sizeof(name) - 1] = '\0';
		} else if (err) {
			return err;
		}
		strlcpy(p->name, name, sizeof(p->name));
		strlcpy(current->name, name, sizeof(current->name));
		return 0;
	case PR_GET_NAME:
		return copy_to_user(args[1], p->name, sizeof(p->name)) ? -EFAULT : 0;
	default:
		return -EINVAL;
	}
}
