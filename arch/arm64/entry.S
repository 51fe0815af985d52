/* SPDX-License-Identifier: MIT */
/*
 * The exception vector table (VBAR_EL1). Sixteen slots of 128 bytes: four
 * kinds (synchronous, IRQ, FIQ, SError) for each of four origins (EL1 on
 * SP_EL0, EL1 on SP_EL1, EL0 in AArch64, EL0 in AArch32). The kernel runs
 * on SP_EL1, so only the second group is expected today; every slot still
 * saves the state and reports, so nothing vanishes silently.
 *
 * Each slot saves x0/x1, puts its slot number in x1 and joins the common
 * path, which saves the rest as a struct pt_regs (asm/arm64.h) and calls
 * arm64_exception(regs, slot). The handler may change regs->pc (an
 * exception-table fixup), so the return path reloads ELR from the frame.
 *
 * From EL0 (slots 8-15) the CPU is on SP_EL1, which is the top of the
 * task's kernel stack (nothing was left on it when it returned to EL0).
 * SP_EL0 then holds the user's stack pointer rather than the kernel's
 * `current`: it is saved as the frame's SP and `current` is reloaded from
 * this CPU's struct cpu_local (TPIDR_EL1, offset 8); on the way back to EL0
 * SP_EL0 gets the frame's SP again.
 */

#define S_X(n) ((n) * 8)
#define S_SP (31 * 8)
#define S_PC (32 * 8)
#define S_PSTATE (33 * 8)
#define S_ESR (34 * 8)
#define S_FAR (35 * 8)
#define S_FRAME (36 * 8)
#define PT_REGS_SIZE (38 * 8)

.macro vector slot
	.balign 128
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #S_X(0)]
	mov	x1, #\slot
	b	exception_common
.endm

	.text
	.balign 2048
	.globl vectors
vectors:
	vector 0	/* EL1 with SP_EL0: sync */
	vector 1	/* IRQ */
	vector 2	/* FIQ */
	vector 3	/* SError */
	vector 4	/* EL1 with SP_EL1: sync */
	vector 5
	vector 6
	vector 7
	vector 8	/* EL0, AArch64 */
	vector 9
	vector 10
	vector 11
	vector 12	/* EL0, AArch32 */
	vector 13
	vector 14
	vector 15

exception_common:
	stp	x2, x3, [sp, #S_X(2)]
	stp	x4, x5, [sp, #S_X(4)]
	stp	x6, x7, [sp, #S_X(6)]
	stp	x8, x9, [sp, #S_X(8)]
	stp	x10, x11, [sp, #S_X(10)]
	stp	x12, x13, [sp, #S_X(12)]
	stp	x14, x15, [sp, #S_X(14)]
	stp	x16, x17, [sp, #S_X(16)]
	stp	x18, x19, [sp, #S_X(18)]
	stp	x20, x21, [sp, #S_X(20)]
	stp	x22, x23, [sp, #S_X(22)]
	stp	x24, x25, [sp, #S_X(24)]
	stp	x26, x27, [sp, #S_X(26)]
	stp	x28, x29, [sp, #S_X(28)]
	add	x2, sp, #PT_REGS_SIZE	/* the interrupted SP */
	cmp	x1, #8
	b.lo	1f
	mrs	x2, sp_el0		/* from EL0: the user's */
	mrs	x3, tpidr_el1
	ldr	x3, [x3, #8]
	msr	sp_el0, x3		/* current, for the kernel */
1:	stp	x30, x2, [sp, #S_X(30)]
	mrs	x2, elr_el1
	mrs	x3, spsr_el1
	stp	x2, x3, [sp, #S_PC]
	mrs	x3, esr_el1
	mrs	x4, far_el1
	stp	x3, x4, [sp, #S_ESR]
	/*
	 * A frame record for the interrupted code, so traces go through it.
	 * Unwinders step back from a return address to its call; this
	 * "return address" is one past ELR so that they land on ELR itself.
	 */
	add	x5, x2, #4
	stp	x29, x5, [sp, #S_FRAME]
	add	x29, sp, #S_FRAME
	mov	x0, sp
	bl	arm64_exception

	.globl	ret_to_user_or_kernel
ret_to_user_or_kernel:
	ldp	x2, x3, [sp, #S_PC]
	msr	elr_el1, x2
	msr	spsr_el1, x3
	tst	x3, #0xf		/* SPSR.M: 0 is EL0t */
	b.ne	2f
	ldr	x2, [sp, #S_SP]
	msr	sp_el0, x2		/* the user's stack pointer */
2:
	ldp	x0, x1, [sp, #S_X(0)]
	ldp	x2, x3, [sp, #S_X(2)]
	ldp	x4, x5, [sp, #S_X(4)]
	ldp	x6, x7, [sp, #S_X(6)]
	ldp	x8, x9, [sp, #S_X(8)]
	ldp	x10, x11, [sp, #S_X(10)]
	ldp	x12, x13, [sp, #S_X(12)]
	ldp	x14, x15, [sp, #S_X(14)]
	ldp	x16, x17, [sp, #S_X(16)]
	ldp	x18, x19, [sp, #S_X(18)]
	ldp	x20, x21, [sp, #S_X(20)]
	ldp	x22, x23, [sp, #S_X(22)]
	ldp	x24, x25, [sp, #S_X(24)]
	ldp	x26, x27, [sp, #S_X(26)]
	ldp	x28, x29, [sp, #S_X(28)]
	ldr	x30, [sp, #S_X(30)]
	add	sp, sp, #PT_REGS_SIZE
	eret
