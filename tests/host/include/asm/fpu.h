/* SPDX-License-Identifier: MIT */
/* The host build has no user mode: an empty user state, so arch.h compiles. */
#ifndef ASM_FPU_H
#define ASM_FPU_H

#include <pagoda/types.h>

struct arch_user_state {
	u64 unused;
};

#endif
