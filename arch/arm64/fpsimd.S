// SPDX-License-Identifier: MIT
/*
 * Saving and loading a user task's FP/SIMD registers (asm/fpu.h): V0-V31
 * as 32 16-byte slots, then FPSR and FPCR. In assembly because the kernel's
 * C is built with -mgeneral-regs-only and may not name them.
 */
	.arch	armv8-a+fp+simd
	.text

/* V0-V31 in pairs at [x0, #0] to [x0, #480]: op is stp to save, ldp to load. */
	.macro	fpsimd_vregs op
	\op	q0, q1, [x0, #0]
	\op	q2, q3, [x0, #32]
	\op	q4, q5, [x0, #64]
	\op	q6, q7, [x0, #96]
	\op	q8, q9, [x0, #128]
	\op	q10, q11, [x0, #160]
	\op	q12, q13, [x0, #192]
	\op	q14, q15, [x0, #224]
	\op	q16, q17, [x0, #256]
	\op	q18, q19, [x0, #288]
	\op	q20, q21, [x0, #320]
	\op	q22, q23, [x0, #352]
	\op	q24, q25, [x0, #384]
	\op	q26, q27, [x0, #416]
	\op	q28, q29, [x0, #448]
	\op	q30, q31, [x0, #480]
	.endm

/* void arm64_fpsimd_save(u64 *state) */
	.globl	arm64_fpsimd_save
arm64_fpsimd_save:
	fpsimd_vregs stp
	mrs	x1, fpsr
	mrs	x2, fpcr
	add	x0, x0, #512
	stp	x1, x2, [x0]
	ret

/* void arm64_fpsimd_load(const u64 *state) */
	.globl	arm64_fpsimd_load
arm64_fpsimd_load:
	fpsimd_vregs ldp
	add	x0, x0, #512
	ldp	x1, x2, [x0]
	msr	fpsr, x1
	msr	fpcr, x2
	ret
