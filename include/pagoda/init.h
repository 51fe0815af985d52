/* SPDX-License-Identifier: MIT */
/* Kernel start-up (kernel/init.c). */
#ifndef PAGODA_INIT_H
#define PAGODA_INIT_H

#include <pagoda/types.h>

/* The portable half of boot; the arch calls it once it has a console. */
__noreturn void start_kernel(void);

/*
 * Record that a boot step just finished, for `bench boot`. Steps are timed
 * with the raw cycle counter, so this works before the clock is calibrated.
 */
void boot_mark(const char *step);

struct boot_step {
	const char *name;
	u64 cycles; /* counter value when the step ended */
};
#define MAX_BOOT_STEPS 24
extern struct boot_step boot_steps[MAX_BOOT_STEPS];
extern int nr_boot_steps;

#endif
