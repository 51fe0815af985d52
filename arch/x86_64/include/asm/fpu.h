/* SPDX-License-Identifier: MIT */
/*
 * A user task's registers that the kernel itself never uses (it is built
 * with -mgeneral-regs-only): the x87/SSE state as FXSAVE writes it (512
 * bytes) and the FS base, the thread pointer of x86-64's TLS
 * (arch_prctl(ARCH_SET_FS)). Saved when a user task leaves a CPU, loaded
 * when one arrives (arch/x86_64/fpu.c).
 */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <pagoda/types.h>

struct arch_user_state {
	u8 fxsave[512];   /* FXSAVE's image; copied through an aligned buffer (fpu.c) */
	u64 fs_base;
};

#endif
