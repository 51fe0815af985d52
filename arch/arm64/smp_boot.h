/* SPDX-License-Identifier: MIT */
/*
 * What the boot CPU leaves for a secondary CPU's first instructions
 * (head.S, secondary_entry), shared by smp.c and head.S. One block serves
 * every CPU because they are started one at a time.
 */
#ifndef ARM64_SMP_BOOT_H
#define ARM64_SMP_BOOT_H

/* Byte offsets of the fields, for the assembler. */
#define SB_MAIR 0
#define SB_TCR 8
#define SB_SCTLR 16
#define SB_TTBR0 24
#define SB_TTBR1 32
#define SB_STACK 40
#define SB_CPU_LOCAL 48
#define SB_TASK 56
#define SB_CPU 64

#ifndef __ASSEMBLER__
#include <pagoda/types.h>

struct secondary_boot {
	u64 mair, tcr, sctlr;	/* the boot CPU's final MMU settings */
	u64 ttbr0, ttbr1;	/* the empty lower half, the kernel's tables */
	u64 stack;		/* top of the idle task's stack */
	u64 cpu_local;		/* TPIDR_EL1: &cpu_locals[cpu] */
	u64 task;		/* SP_EL0: the idle task */
	u64 cpu;		/* the logical CPU number */
};

_Static_assert(__builtin_offsetof(struct secondary_boot, cpu) == SB_CPU,
	       "head.S reads struct secondary_boot at fixed offsets");
_Static_assert(__builtin_offsetof(struct secondary_boot, stack) == SB_STACK,
	       "head.S reads struct secondary_boot at fixed offsets");

extern struct secondary_boot secondary_boot;
#endif

#endif
