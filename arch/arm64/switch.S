/* SPDX-License-Identifier: MIT */
/*
 * The context switch. A task's whole saved context is its stack pointer:
 * the AAPCS64 lets a called function clobber every general register but
 * x19-x29 (and sp), so those, with the return address in x30, are all a
 * switch must keep. Save them on this stack, swap stacks, load the next
 * task's and return into wherever it called arch_context_switch() from:
 * the middle of __schedule(), or, for a new thread, thread_start
 * (arch_thread_stack_init put its address in the x30 slot).
 */

#include <asm/assembler.h>

#define SWITCH_FRAME (12 * 8)	/* x19..x30, 16-byte aligned */

	.text
	.globl arch_context_switch
	.globl thread_start

/* void arch_context_switch(unsigned long *prev_sp, unsigned long next_sp) */
arch_context_switch:
	sub	sp, sp, #SWITCH_FRAME
	callee_saved_regs stp, sp
	mov	x9, sp
	str	x9, [x0]
	mov	sp, x1
	callee_saved_regs ldp, sp
	add	sp, sp, #SWITCH_FRAME
	ret

/* A new thread's first instructions. x29 is 0: the end of stack traces. */
thread_start:
	mov	x29, #0
	bl	kthread_entry
	brk	#0x800
