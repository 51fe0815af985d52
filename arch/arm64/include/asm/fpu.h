/* SPDX-License-Identifier: MIT */
/*
 * A user task's registers that the kernel itself never uses (it is built
 * with -mgeneral-regs-only): V0-V31 with FPSR and FPCR, and TPIDR_EL0, the
 * thread pointer EL0 may write itself. Saved when a user task leaves a
 * CPU, loaded when one arrives (arch/arm64/fpsimd.S, arch/arm64/user.c).
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <pagoda/types.h>

struct arch_user_state {
	u64 vregs[64] __attribute__((aligned(16))); /* q0..q31, low half first */
	u64 fpsr, fpcr;   /* fpsimd.S: right after vregs */
	u64 tpidr_el0;
};

#endif
