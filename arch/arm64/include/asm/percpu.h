/* SPDX-License-Identifier: MIT */
/*
 * arm64 per-CPU access, as Linux does it: TPIDR_EL1 (a register the
 * hardware leaves to the OS) holds this CPU's struct cpu_local, and SP_EL0
 * holds the current task. The kernel always runs on SP_EL1, so SP_EL0 is
 * free for that until there is user space (whose stack pointer the entry
 * code would then swap out). Each read is one MRS; the accessors are
 * asm-generic's.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#define __ARCH_THIS_CPU_INSN "mrs %0, tpidr_el1"
#define __ARCH_CURRENT_INSN "mrs %0, sp_el0"
#include <asm-generic/percpu.h>

#endif
