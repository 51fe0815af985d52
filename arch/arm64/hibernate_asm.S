/* SPDX-License-Identifier: MIT */
/*
 * Hibernation's CPU side on arm64 (include/pagoda/suspend.h).
 *
 * swsusp_arch_suspend saves the callee-saved registers x19-x30 and sp, as
 * every other CPU does when it parks (hib_cpu_save below), and what this
 * CPU keeps in system registers (SP_EL0: the current task; TPIDR_EL1: its
 * cpu_local; both translation table bases) in hib_context, kernel data,
 * so they are in the image; then makes the copy. hibernate_resume_entry
 * puts the system registers back and leaves through hib_cpu_restore:
 * swsusp_arch_suspend returns a second time, with 1.
 *
 * At resume the copy runs from restore_image_code, which hibernate.c
 * copies into a "safe" page and reaches through hibernate_jump: TTBR0
 * gets temporary tables (in safe pages) mapping RAM at its physical
 * address, and the copy addresses everything physically. TTBR1, the
 * kernel's half, is not used until the copy is done; then it gets the
 * image's root and the jump goes to hibernate_resume_entry, kernel text.
 */

#include <asm/assembler.h>

#define CTX_CPU 0		/* a struct hib_cpu_ctx, 14 words */
#define CTX_SP_EL0 112
#define CTX_TTBR0 120
#define CTX_TTBR1 128
#define CTX_TPIDR 136
#define CTX_SIZE 144

	.data
	.balign 16
	.globl hib_context
hib_context:
	.space CTX_SIZE

	.text

/* int swsusp_arch_suspend(void) */
	.globl swsusp_arch_suspend
swsusp_arch_suspend:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x0, hib_context
	add	x0, x0, :lo12:hib_context + CTX_CPU
	bl	hib_cpu_save
	cbnz	x0, 1f			/* 1: resumed */
	adrp	x9, hib_context
	add	x9, x9, :lo12:hib_context
	mrs	x10, sp_el0
	str	x10, [x9, #CTX_SP_EL0]
	mrs	x10, ttbr0_el1
	str	x10, [x9, #CTX_TTBR0]
	mrs	x10, ttbr1_el1
	str	x10, [x9, #CTX_TTBR1]
	mrs	x10, tpidr_el1
	str	x10, [x9, #CTX_TPIDR]
	/* The copy: its return value (0 or -errno) is ours. */
	bl	swsusp_save
1:	ldp	x29, x30, [sp], #16
	ret

/* Entered at the end of a resume, TTBR1 already the image's, interrupts masked. */
	.globl hibernate_resume_entry
hibernate_resume_entry:
	adrp	x9, hib_context
	add	x9, x9, :lo12:hib_context
	ldr	x10, [x9, #CTX_TTBR0]
	msr	ttbr0_el1, x10
	ldr	x10, [x9, #CTX_TTBR1]
	msr	ttbr1_el1, x10
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	ldr	x10, [x9, #CTX_SP_EL0]
	msr	sp_el0, x10
	ldr	x10, [x9, #CTX_TPIDR]
	msr	tpidr_el1, x10
	add	x0, x9, #CTX_CPU
	b	hib_cpu_restore

/*
 * Another CPU's part (kernel/power/cpu.c): where it parked, so that after
 * a resume it can be started again and carry on from there.
 * int hib_cpu_save(struct hib_cpu_ctx *c): 0 now, 1 when hib_cpu_restore()
 * comes back to it.
 */
	.globl hib_cpu_save
hib_cpu_save:
	callee_saved_regs stp, x0
	mov	x9, sp
	str	x9, [x0, #96]
	mov	x0, #0
	ret

/* void hib_cpu_restore(struct hib_cpu_ctx *c) */
	.globl hib_cpu_restore
hib_cpu_restore:
	callee_saved_regs ldp, x0
	ldr	x9, [x0, #96]
	mov	sp, x9
	mov	x0, #1
	ret

/*
 * void hibernate_jump(u64 pbe_pa, u64 temp_ttbr0, u64 restore_pgd, u64 entry, u64 code_pa)
 * Kernel text: TTBR0 gets the temporary identity tables, then the copy runs
 * at its physical address.
 */
	.globl hibernate_jump
hibernate_jump:
	msr	ttbr0_el1, x1
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	br	x4

/*
 * The relocated copy: x0 = first pbe_page (physical; 0 for none), x2 = the
 * image's TTBR1, x3 = where to jump when done. No stack, no kernel data.
 * Each page is cleaned to the point of unification as it is written: some
 * of them are kernel text, which the instruction side must see.
 */
	.globl restore_image_code
	.globl restore_image_code_end
restore_image_code:
	mrs	x12, ctr_el0
	ubfx	x12, x12, #16, #4
	mov	x13, #4
	lsl	x12, x13, x12		/* the smallest D-cache line, bytes */
1:	cbz	x0, 5f
	ldr	x4, [x0, #8]		/* entries in this pbe_page */
	add	x5, x0, #16
2:	cbz	x4, 4f
	ldp	x6, x7, [x5], #16	/* src, dst */
	mov	x14, x7
	mov	x8, #4096 / 16
3:	ldp	x9, x10, [x6], #16
	stp	x9, x10, [x7], #16
	subs	x8, x8, #1
	b.ne	3b
	add	x15, x14, #4096
6:	dc	cvau, x14
	add	x14, x14, x12
	cmp	x14, x15
	b.lo	6b
	sub	x4, x4, #1
	b	2b
4:	ldr	x0, [x0]		/* next_pa */
	b	1b
5:	dsb	ish
	ic	iallu
	dsb	ish
	isb
	msr	ttbr1_el1, x2
	isb
	tlbi	vmalle1
	dsb	ish
	isb
	br	x3
restore_image_code_end:
