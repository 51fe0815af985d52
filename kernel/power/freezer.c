// SPDX-License-Identifier: MIT
/*
 * The freezer (include/pagoda/freezer.h). pm_freezing is raised; every
 * freezable task that next passes a freezing point parks in
 * __refrigerator() until it falls. freeze_processes() waits until each
 * such task is either parked or asleep: a sleeper counts, because the
 * first thing it does when woken is reach a freezing point (a user
 * process on its way back to user mode, a kernel thread at the top of
 * its loop), so it cannot act before the thaw.
 */
#include <pagoda/freezer.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/task.h>
#include <pagoda/time.h>

#include "power.h"

#define FREEZE_TIMEOUT_MS 5000

bool pm_freezing;

void set_freezable(void)
{
	current->freezable = true;
}

static bool task_freezable(const struct task *t)
{
	return t->freezable || t->mm;
}

void __refrigerator(void)
{
	struct task *me = current;

	if (!task_freezable(me))
		return;
	WRITE_ONCE(me->frozen, true);
	while (READ_ONCE(pm_freezing))
		msleep(5);
	WRITE_ONCE(me->frozen, false);
}

struct freeze_count {
	unsigned int busy;
	const struct task *example;
};

static void count_unfrozen(struct task *t, void *arg)
{
	struct freeze_count *c = arg;
	long state = READ_ONCE(t->state);

	if (t == current || !task_freezable(t) || READ_ONCE(t->frozen) ||
	    state == TASK_DEAD || state == TASK_NEW)
		return;
	if (state == TASK_INTERRUPTIBLE || state == TASK_UNINTERRUPTIBLE)
		return; /* asleep: a freezing point comes before anything else */
	c->busy++;
	c->example = t;
}

int freeze_processes(void)
{
	u64 deadline = ktime_get_ns() + (u64)FREEZE_TIMEOUT_MS * NSEC_PER_MSEC;
	struct freeze_count c;

	WRITE_ONCE(pm_freezing, true);
	for (;;) {
		c = (struct freeze_count){ 0, NULL };
		task_for_each(count_unfrozen, &c);
		if (!c.busy)
			return 0;
		if (ktime_get_ns() > deadline)
			break;
		msleep(5);
	}
	pr_err("PM: freezing failed after %u ms: %u task(s) still running, e.g. %s[%d]\n",
	       FREEZE_TIMEOUT_MS, c.busy, c.example->name, c.example->pid);
	thaw_processes();
	return -EBUSY;
}

void thaw_processes(void)
{
	WRITE_ONCE(pm_freezing, false);
}
