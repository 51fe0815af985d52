// SPDX-License-Identifier: MIT
/*
 * System calls: Linux's numbers for the arch (<asm/unistd.h>, through
 * arch.h), Linux's semantics, negative errno returns. The arch's entry
 * code hands over the number and the six argument registers; a number
 * without a handler answers -ENOSYS and is logged once, so a program's
 * first unknown call shows up in the log without flooding it.
 */
#include <pagoda/arch.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/uaccess.h>

typedef long (*syscall_fn)(const unsigned long *args);

/* write(2) on the console: fds 1 and 2, the only ones so far. */
static long sys_write(const unsigned long *args)
{
	unsigned long fd = args[0], buf = args[1], count = args[2], done = 0;
	char chunk[128];

	if (fd != 1 && fd != 2)
		return -EBADF;
	while (done < count) {
		unsigned long n = MIN(count - done, sizeof(chunk));
		unsigned long left = copy_from_user(chunk, buf + done, n);

		console_write(chunk, n - left);
		done += n - left;
		if (left)
			return done ? (long)done : -EFAULT;
	}
	return (long)done;
}

/* One thread per process: exit and exit_group end the same way. */
static long sys_exit_group(const unsigned long *args)
{
	process_exit((int)((args[0] & 0xff) << 8));
}

static long sys_getpid(const unsigned long *args)
{
	(void)args;
	return current->pid;
}

static long sys_sched_yield(const unsigned long *args)
{
	(void)args;
	yield();
	return 0;
}

static const syscall_fn sys_call_table[NR_syscalls] = {
	[__NR_write] = sys_write,
	[__NR_exit] = sys_exit_group,
	[__NR_exit_group] = sys_exit_group,
	[__NR_getpid] = sys_getpid,
	[__NR_gettid] = sys_getpid,
	[__NR_sched_yield] = sys_sched_yield,
};

static unsigned long reported[NR_syscalls / 64 + 1];

static void report_unknown(unsigned long nr)
{
	unsigned long slot = MIN(nr, (unsigned long)NR_syscalls);
	unsigned long bit = 1UL << (slot % 64);

	if (__atomic_fetch_or(&reported[slot / 64], bit, __ATOMIC_RELAXED) & bit)
		return;
	pr_warn("syscall: %s[%d] called unknown number %lu: -ENOSYS (logged once%s)\n",
		current->name, current->pid, nr, nr >= NR_syscalls ? " for all out of range" : "");
}

long syscall_dispatch(unsigned long nr, const unsigned long args[6])
{
	if (nr < NR_syscalls && sys_call_table[nr])
		return sys_call_table[nr](args);
	report_unknown(nr);
	return -ENOSYS;
}
