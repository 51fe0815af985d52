/* SPDX-License-Identifier: MIT */
/*
 * The freezer (kernel/power/freezer.c): before a hibernation snapshot,
 * user processes and the kernel threads that asked for it stop where they
 * can do no harm, so that nothing changes disks or devices between the
 * snapshot and the power-off.
 *
 * User processes are stopped on their way back to user mode (the same
 * place signals are delivered). A kernel thread opts in with
 * set_freezable() and calls try_to_freeze() in its loop, at a point where
 * it holds no locks and has no I/O in flight.
 */
#ifndef PAGODA_FREEZER_H
#define PAGODA_FREEZER_H

#include <pagoda/types.h>

extern bool pm_freezing;

void set_freezable(void);
/* Stop here while the system is freezing. */
void __refrigerator(void);

static inline bool try_to_freeze(void)
{
	if (__builtin_expect(READ_ONCE(pm_freezing), 0)) {
		__refrigerator();
		return true;
	}
	return false;
}

#endif
