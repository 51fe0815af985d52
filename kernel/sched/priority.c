// SPDX-License-Identifier: MIT
/*
 * getpriority(2) and setpriority(2), after Linux's kernel/sys.c: the
 * nice value (-20..19, kernel/sched/core.c's weight) of a thread, of every
 * thread of a process group, or of a user's. Linux's "process" here is
 * one thread (a tid); who 0 is the caller, its group, or its user. The
 * raw call answers 20 - nice (1..40), the best of those named, so that no
 * answer is negative; the libc turns it back. Every process here is root,
 * so lowering a nice value is allowed (CAP_SYS_NICE).
 */
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/task.h>
#include "../syscalls.h"

#define PRIO_PROCESS 0
#define PRIO_PGRP 1
#define PRIO_USER 2

/*
 * Apply fn to each live thread that which/who names; how many there were.
 * process_lock held by the caller.
 */
static int for_each_named(int which, int who, void (*fn)(struct task *t, int *acc), int *acc)
{
	struct process *self = current_process(), *q;
	struct thread *t;
	int n = 0;

	if (which == PRIO_PGRP && !who)
		who = self->pgid;
	list_for_each_entry(q, &process_list, all) {
		unsigned long flags;

		if (q->zombie)
			continue;
		if (which == PRIO_PGRP && q->pgid != who)
			continue;
		if (which == PRIO_USER && who != 0)
			continue; /* uid 0 is the only user */
		spin_lock_irqsave(&q->thread_lock, flags);
		list_for_each_entry(t, &q->threads, node) {
			if (t->dead || (which == PRIO_PROCESS && t->tid != (who ? who : current->pid)))
				continue;
			fn(t->task, acc);
			n++;
		}
		spin_unlock_irqrestore(&q->thread_lock, flags);
	}
	return n;
}

static void best(struct task *t, int *acc)
{
	*acc = MAX(*acc, 20 - t->nice);
}

static void set_nice(struct task *t, int *acc)
{
	set_user_nice(t, *acc);
}

long sys_getpriority(const unsigned long *args)
{
	int which = (int)args[0], who = (int)args[1], acc = 0, n;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	mutex_lock(&process_lock);
	n = for_each_named(which, who, best, &acc);
	mutex_unlock(&process_lock);
	return n ? acc : -ESRCH;
}

long sys_setpriority(const unsigned long *args)
{
	int which = (int)args[0], who = (int)args[1], nice = (int)args[2], n;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	nice = MIN(MAX(nice, -20), 19); /* Linux clamps rather than refuses */
	mutex_lock(&process_lock);
	n = for_each_named(which, who, set_nice, &nice);
	mutex_unlock(&process_lock);
	return n ? 0 : -ESRCH;
}
