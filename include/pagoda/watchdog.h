/* SPDX-License-Identifier: MIT */
/*
 * The soft-lockup watchdog (kernel/watchdog.c), Linux's names: a CPU that
 * runs kernel code with preemption off for watchdog_thresh= seconds
 * without scheduling is reported, with a stack trace, once per episode.
 * Long loops that are known to be fine call touch_softlockup_watchdog().
 */
#ifndef PAGODA_WATCHDOG_H
#define PAGODA_WATCHDOG_H

#include <pagoda/types.h>

void touch_softlockup_watchdog(void);
/* From the scheduler's tick, on each busy CPU, in interrupt context. */
void watchdog_tick(bool preemptible);
/* Reports so far (the tests count them). */
unsigned long softlockup_reports(void);
/*
 * The tests shorten the threshold for a while, below the parameter's
 * one-second grain so that a boot's tests do not spend seconds spinning;
 * 0 gives back watchdog_thresh=.
 */
void watchdog_set_test_thresh_ms(unsigned int ms);

#endif
