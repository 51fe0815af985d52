// SPDX-License-Identifier: MIT
/*
 * The freeze never leaves a process inside the vDSO (freeze.c). crloop
 * in spin mode reads the vDSO's clock with no system call in between,
 * so under TCG an interrupt finds it inside nearly every time; it is
 * frozen again and again, and each time the PC it will go on from is
 * outside. Before the single step, such a process was left to run on
 * and, after 200 ms of it inside, stopped where it was: an image no
 * kernel with another vDSO could restore.
 */
#include <pagoda/ktest.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include "cr.h"

#define FREEZES 10

static void test_spinner_stops_outside_vdso(struct ktest *t)
{
	static const char *const argv[] = { "/bin/crloop", "40", "spin", "quiet" };
	struct process *p = process_create("crloop");
	static struct cr_set set;
	unsigned int stepped = 0;
	const char *why = "";
	int pid, err;

	KEXPECT_TRUE(t, p != NULL);
	if (!p)
		return;
	err = process_exec(p, argv[0], 4, argv, &why);
	if (!err) {
		p->autoreap = true; /* killed at the end; nobody waits for it */
		err = process_start(p, p->entry, p->stack, 0);
	}
	KEXPECT_EQ(t, err, 0);
	if (err) {
		process_destroy(p);
		return;
	}
	pid = p->pid;
	msleep(200); /* into its loop */
	for (int i = 0; i < FREEZES; i++) {
		struct process *q;

		mutex_lock(&cr_lock);
		err = cr_freeze(pid, false, &set, &why);
		KEXPECT_EQ(t, err, 0);
		if (err) {
			mutex_unlock(&cr_lock);
			break;
		}
		q = set.p[0];
		KEXPECT_FALSE(t, cr_in_vdso(q, q->cr_regs));
		stepped += q->cr_vdso_steps > 0;
		cr_thaw(&set, i == FREEZES - 1);
		mutex_unlock(&cr_lock);
		msleep(10);
	}
	/* How often it was caught inside: the test means something only when it was. */
	kprintf("freeze: %u of %d stops stepped out of the vDSO first\n", stepped, FREEZES);
}

static struct ktest_case freeze_cases[] = {
	KTEST_CASE(test_spinner_stops_outside_vdso),
	{}
};
KTEST_SUITE_FULL(cr_freeze, .cases = freeze_cases, .kernel_only = true);
