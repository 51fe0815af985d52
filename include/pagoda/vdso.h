/* SPDX-License-Identifier: MIT */
/*
 * The vDSO's data page (vvar), shared between the kernel, which writes it,
 * and the vDSO in every process, which reads it without locks: a writer
 * makes seq odd, changes the fields, makes it even again; a reader retries
 * while seq is odd or changed under it, as Linux's vdso_data does.
 *
 * The kernel's monotonic clock is a pure function of the arch's counter,
 * ns = (counter - boot_cycles) * 10^9 / hz (kernel/time.c), so the vDSO
 * computes exactly what clock_gettime() would, with the same arithmetic.
 * Realtime adds real_offset_ns; the coarse clocks read the last tick's
 * value, which the timer interrupt stores.
 */
#ifndef PAGODA_VDSO_H
#define PAGODA_VDSO_H

#include <pagoda/types.h>

#define VDSO_CLOCK_NONE 0    /* no usable counter: every call takes the syscall */
#define VDSO_CLOCK_COUNTER 1

struct vdso_data {
	u32 seq;
	u32 clock_mode;
	u64 hz;              /* counter frequency */
	u64 boot_cycles;     /* the counter at boot: monotonic zero */
	s64 real_offset_ns;  /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	u64 coarse_ns;       /* CLOCK_MONOTONIC at the last tick */
	u32 cpu_number_ok;   /* x86-64: TSC_AUX holds the CPU number (the CPU has RDTSCP) */
	u32 coarse_res_ns;   /* the coarse clocks' resolution: the tick */
};

#ifndef VDSO_BUILD
/* This arch's vDSO image, linked into the kernel (kernel/vdso_image.c). */
extern const char vdso_image_start[], vdso_image_end[];
/* Rewrite the clock fields (after the wall clock or frequency is known). */
void vdso_update_clock(void);
/* From the timer interrupt: the coarse clocks move on. */
void vdso_update_tick(u64 now_ns);
/* The coarse clocks' time (CLOCK_MONOTONIC at the last tick), the vDSO's very value. */
u64 vdso_coarse_ns(void);
struct process;
/* Map vvar and the vDSO into p; the vDSO's address (AT_SYSINFO_EHDR) or 0. */
u64 vdso_map(struct process *p);
/* arch_prctl(ARCH_MAP_VDSO_64): move it to addr; bytes mapped or -errno. */
long vdso_remap(struct process *p, u64 addr);
#endif

#endif
