/* SPDX-License-Identifier: MIT */
/* Time since boot, from the arch's cycle counter (kernel/time/timekeeping.c). */
#ifndef PAGODA_TIME_H
#define PAGODA_TIME_H

#include <pagoda/types.h>

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/* The largest time in nanoseconds, as Linux's KTIME_MAX (a signed 64-bit count). */
#define KTIME_MAX (U64_MAX >> 1)

/*
 * A struct timespec from user memory, in nanoseconds (at most KTIME_MAX):
 * 0, -EFAULT, or -EINVAL for a negative one or one whose tv_nsec is not
 * below a second (Linux's get_timespec64() and timespec64_valid()).
 */
int get_timespec_ns(u64 uts, u64 *ns);

/* Nanoseconds since the kernel's first instruction (0 until calibrated). */
u64 ktime_get_ns(void);
/* Clock clk's time now, as clock_gettime(2) reads it: 0, or -EINVAL (kernel/time/posix-timers.c). */
int posix_clock_read(long clk, u64 *ns);
/* Convert a cycle count (a difference of arch_cycles()) to nanoseconds. */
u64 cycles_to_ns(u64 cycles);
/* The arch_cycles() value at which ktime_get_ns() reaches ns. */
u64 ktime_to_cycles(u64 ns);
/* After a resume from hibernation: the clock carries on from saved_ns (timer.c). */
void timekeeping_resume(u64 saved_ns);
/* Busy-wait. */
void udelay(u64 us);

#endif
