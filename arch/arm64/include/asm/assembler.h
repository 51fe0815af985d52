/* SPDX-License-Identifier: MIT */
/*
 * Assembler macros the arm64 .S files share (as Linux's asm/assembler.h).
 * Only for assembly: C never includes this.
 */
#ifndef ASM_ASSEMBLER_H
#define ASM_ASSEMBLER_H

/*
 * The registers a function call keeps (AAPCS64): x19-x29, with the return
 * address in x30, as six pairs at [base, #0] to [base, #80]. `op` is stp
 * to save them, ldp to load them: a context switch keeps a task's on its
 * stack, a parked CPU its own in a struct hib_cpu_ctx.
 */
	.macro	callee_saved_regs op, base
	\op	x19, x20, [\base, #0]
	\op	x21, x22, [\base, #16]
	\op	x23, x24, [\base, #32]
	\op	x25, x26, [\base, #48]
	\op	x27, x28, [\base, #64]
	\op	x29, x30, [\base, #80]
	.endm

#endif
