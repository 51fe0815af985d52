/* SPDX-License-Identifier: MIT */
/*
 * Kernel timers and clocks (kernel/time/).
 *
 * The clocksource is the arch's free-running counter (arch_cycles(): TSC,
 * CNTVCT); the clockevent is each CPU's one-shot timer
 * (arch_timer_set_deadline()). Timers sit on their CPU's list, sorted by
 * expiry; the clockevent is programmed for the earliest, or for the next
 * scheduler tick when the CPU has work to share. Idle CPUs with no timer
 * get no interrupts at all.
 *
 *	timer_setup(&t, fn);
 *	mod_timer(&t, ktime_get_ns() + 10 * NSEC_PER_MSEC);
 *	... fn(&t) runs in interrupt context on this CPU ...
 *	del_timer_sync(&t);
 */
#ifndef PAGODA_TIMER_H
#define PAGODA_TIMER_H

#include <pagoda/list.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>
#include <pagoda/types.h>

#define HZ 100
#define TICK_NSEC (NSEC_PER_SEC / HZ)

struct timer_list {
	u64 expires;             /* ktime_get_ns() value */
	void (*function)(struct timer_list *t);
	struct list_head entry;  /* on a CPU's list while pending */
	int cpu;                 /* whose list, -1 when not pending */
	/*
	 * One arming or disarming at a time: two CPUs arming the same idle
	 * timer would each find it not pending and link its one entry into
	 * both their lists (zeroed is unlocked, for static timers).
	 */
	arch_spinlock_t arm_lock;
};

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *));
/* (Re)arm t for expires on this CPU; true if it was pending before. */
bool mod_timer(struct timer_list *t, u64 expires);
static inline void add_timer(struct timer_list *t) { mod_timer(t, t->expires); }
/* Disarm t; true if it was pending. */
bool del_timer(struct timer_list *t);
/* Disarm t and wait until its function is not running anywhere. */
bool del_timer_sync(struct timer_list *t);
bool timer_pending(const struct timer_list *t);
/* Every CPU's timer list well linked and sorted (a test's check). */
bool timer_bases_consistent(void);

/* CLOCK_REALTIME: nanoseconds since 1970 (RTC at boot + monotonic). */
u64 ktime_get_real_ns(void);
/* CLOCK_REALTIME - CLOCK_MONOTONIC, in ns: the one offset the system
 * calls, the vDSO and the kernel share (set at boot and on resume). */
s64 realtime_offset_ns(void);
/* Whether the RTC was read (else realtime counts from 1970 at boot). */
bool realtime_from_rtc(void);

/* Called by the arch's timer interrupt. */
void clockevent_interrupt(void);
/* Re-evaluate this CPU's next event (after queue changes). */
void clockevent_reprogram(void);
/* Boot: on each CPU once its timer works. */
void timers_init_cpu(void);
void time_init(void);

#endif
