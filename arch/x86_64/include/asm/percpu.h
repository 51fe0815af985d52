/* SPDX-License-Identifier: MIT */
/*
 * x86-64 per-CPU access: GS base points at this CPU's struct cpu_local,
 * whose first two words are a pointer to itself and the current task
 * (pagoda/smp.h fixes that layout). Each read is one %gs-relative load;
 * the accessors are asm-generic's.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#define __ARCH_THIS_CPU_INSN "movq %%gs:0, %0"
#define __ARCH_CURRENT_INSN "movq %%gs:8, %0"
#include <asm-generic/percpu.h>

#endif
