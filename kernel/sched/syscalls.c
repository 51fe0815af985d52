// SPDX-License-Identifier: MIT
/*
 * The scheduler's system calls for CPU affinity, after Linux's
 * sched_getaffinity(2) and sched_setaffinity(2): a mask of up to 64 CPUs
 * (one unsigned long, Linux's cpumask_size() with NR_CPUS <= 64), the
 * task's cpus_allowed as set_cpus_allowed() keeps it. pid 0 is the
 * caller; another process is found by its pid (every process has one
 * task, whose id is the pid).
 */
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/task.h>
#include <pagoda/uaccess.h>
#include "../syscalls.h"

#define CPUMASK_BYTES 8

static u64 online_mask(void)
{
	u64 m = 0;
	unsigned int cpu;

	for_each_online_cpu(cpu)
		m |= 1ULL << cpu;
	return m;
}

/*
 * Run fn on pid's task under process_lock (so it cannot be collected
 * meanwhile): fn's answer, or -ESRCH when there is no such live process.
 */
static long with_task(long pid, long (*fn)(struct task *t, u64 *mask), u64 *mask)
{
	struct process *q;
	long ret = -ESRCH;

	if (pid < 0)
		return -EINVAL;
	if (pid == 0 || pid == current->pid)
		return fn(current, mask);
	mutex_lock(&process_lock);
	list_for_each_entry(q, &process_list, all)
		if (q->pid == pid && !q->zombie) {
			ret = fn(q->task, mask);
			break;
		}
	mutex_unlock(&process_lock);
	return ret;
}

static long get_mask(struct task *t, u64 *mask)
{
	*mask = READ_ONCE(t->cpus_allowed) & online_mask();
	return 0;
}

static long set_mask(struct task *t, u64 *mask)
{
	return set_cpus_allowed(t, *mask & online_mask());
}

/* sched_getaffinity(pid, len, mask): the bytes written, as the system call (not libc) answers. */
long sys_sched_getaffinity(const unsigned long *args)
{
	unsigned long len = args[1];
	u64 mask;
	long err;

	/* Linux's checks: room for every possible CPU, whole longs. */
	if (len * 8 < num_possible_cpus() || (len & (sizeof(long) - 1)))
		return -EINVAL;
	err = with_task((long)args[0], get_mask, &mask);
	if (err)
		return err;
	len = MIN(len, (unsigned long)CPUMASK_BYTES);
	return copy_to_user(args[2], &mask, len) ? -EFAULT : (long)len;
}

/*
 * sched_setaffinity(pid, len, mask): a shorter mask is zero-extended, a
 * longer one's bytes past ours are ignored; no online CPU in it is
 * -EINVAL. The caller moves at once if its own CPU is left out.
 */
long sys_sched_setaffinity(const unsigned long *args)
{
	unsigned long len = MIN(args[1], (unsigned long)CPUMASK_BYTES);
	u64 mask = 0;

	if (copy_from_user(&mask, args[2], len))
		return -EFAULT;
	return with_task((long)args[0], set_mask, &mask);
}
