/* SPDX-License-Identifier: MIT */
/*
 * The first instructions. A loader (QEMU's -kernel, the Pi firmware) reads
 * the arm64 Image header below, copies the image to a page-aligned address
 * (TEXT_OFFSET past a 2 MiB boundary, by convention) and jumps to its
 * first byte with the MMU off, x0 = the device tree's physical address,
 * at EL2 (the Pi firmware, QEMU with virtualization=on) or EL1.
 *
 * Until the MMU is on this code runs at the physical address it was loaded
 * at, so it only uses PC-relative addressing (adrp/adr). It:
 *   1. drops from EL2 to EL1, giving EL1 the physical counter;
 *   2. zeroes .bss (no loader promises to);
 *   3. builds two small tables: an identity map of the 2 MiB around this
 *      code (so the instruction after "MMU on" can be fetched) and the whole
 *      image at KERNEL_VIRT with 4 KiB pages;
 *   4. turns on the MMU and caches, jumps to KERNEL_VIRT and calls
 *      arm64_start(dtb, image physical address, entry counter, entry EL).
 * arm64_start() replaces these tables with the real ones (mmu.c); the
 * identity map stays, for the secondary CPUs, which start at
 * secondary_entry below and join the boot CPU's tables (smp.c).
 */
#include "layout.h"
#include <asm/pgtable-hwdef.h>
#include "smp_boot.h"

/* A symbol's address, PC-relative: physical before the MMU, virtual after. */
.macro adr_l reg, sym
	adrp	\reg, \sym
	add	\reg, \reg, :lo12:\sym
.endm

/*
 * The translation registers are set: drop whatever this CPU's TLB and
 * instruction cache hold from before (firmware, a loader, a previous
 * kernel), so nothing stale is used once SCTLR turns the MMU on.
 */
.macro local_flush_before_mmu_on
	isb
	tlbi	vmalle1
	ic	iallu
	dsb	nsh
	isb
.endm

/*
 * From EL2 to EL1 at `target`, MMU off, interrupts masked. Every CPU that
 * enters at EL2 does this for itself: these registers are per CPU.
 * EL1 gets the physical counter and timer untrapped, a virtual counter
 * equal to the physical one, AArch64, no stage 2, and FP/SIMD. With a
 * GICv3 system-register interface, EL1 may use its ICC_* registers.
 */
.macro drop_to_el1 target
	msr	cntvoff_el2, xzr	/* virtual counter = physical counter */
	mrs	x0, cnthctl_el2
	orr	x0, x0, #3		/* EL1PCTEN, EL1PCEN: EL1 may use the physical timer */
	msr	cnthctl_el2, x0
	mov	x0, #(1 << 31)		/* HCR_EL2.RW: EL1 runs AArch64; no traps, no stage 2 */
	msr	hcr_el2, x0
	mov	x0, #0x33ff		/* CPTR_EL2: RES1 bits only, FP/SIMD not trapped */
	msr	cptr_el2, x0
	msr	hstr_el2, xzr
	mrs	x0, id_aa64pfr0_el1
	ubfx	x0, x0, #24, #4		/* GIC: 1 = a GICv3 CPU interface exists */
	cbz	x0, 1f
	mrs	x0, S3_4_C12_C9_5	/* ICC_SRE_EL2 */
	mov	x1, #0x9		/* SRE for EL2, Enable: EL1 may set its own SRE */
	orr	x0, x0, x1
	msr	S3_4_C12_C9_5, x0
	isb
	msr	S3_4_C12_C11_0, xzr	/* ICH_HCR_EL2: no virtual interrupts */
1:	ldr	x0, =SCTLR_EL1_MMU_OFF
	msr	sctlr_el1, x0
	mov	x0, #0x3c5		/* SPSR: EL1 with its own SP (EL1h), DAIF masked */
	msr	spsr_el2, x0
	adr	x0, \target
	msr	elr_el2, x0
	eret
.endm

	.section .head.text, "ax"
	/* The arm64 Image header (Linux's Documentation/arch/arm64/booting.rst). */
	b	primary_entry		/* code0: executed by loaders that jump here */
	.long	0			/* code1 */
	.quad	TEXT_OFFSET		/* where in a 2 MiB block to load the image */
	.quad	__image_size		/* bytes the image occupies, .bss included */
	.quad	0xa			/* little-endian, 4 KiB pages, any 2 MiB base */
	.quad	0, 0, 0			/* reserved */
	.ascii	"ARM\x64"		/* magic */
	.long	0			/* no PE/COFF header */

primary_entry:
	mov	x19, x0			/* the DTB, kept for arm64_start */
	mrs	x20, CurrentEL
	ubfx	x20, x20, #2, #2	/* the exception level we entered at */
	cmp	x20, #2
	b.eq	el2_to_el1
	cmp	x20, #1
	b.ne	park			/* EL3 entry is not supported */

el1_entry:
	mrs	x21, cntvct_el0		/* boot_entry_cycles: "time since boot" starts here */
	ldr	x0, =SCTLR_EL1_MMU_OFF	/* a known state: MMU and caches off */
	msr	sctlr_el1, x0
	isb
	mov	x0, #(3 << 20)		/* CPACR_EL1.FPEN: no traps on FP/SIMD */
	msr	cpacr_el1, x0

	adr_l	x22, _head		/* where the loader put us */
	tst	x22, #0xfff
	b.ne	park			/* 4 KiB mappings need a page-aligned image */

	adr_l	x0, __bss_start
	adr_l	x1, __bss_end
1:	cmp	x0, x1
	b.hs	2f
	stp	xzr, xzr, [x0], #16
	b	1b
2:
	bl	early_map
	/*
	 * .bss was written with the data cache off, straight to memory: drop
	 * any stale lines a loader may have left, or they would shadow it.
	 */
	adr_l	x0, __bss_start
	adr_l	x1, __bss_end
	bl	dcache_inval_range

	ldr	x0, =MAIR_VALUE
	msr	mair_el1, x0
	ldr	x0, =TCR_VALUE
	mrs	x1, id_aa64mmfr0_el1
	and	x1, x1, #7		/* PARange: the CPU's physical address size */
	cmp	x1, #5
	mov	x2, #5
	csel	x1, x1, x2, ls		/* 48 bits at most, like the virtual side */
	bfi	x0, x1, #TCR_IPS_SHIFT, #3
	msr	tcr_el1, x0
	adr_l	x0, idmap_l0
	msr	ttbr0_el1, x0
	adr_l	x0, kmap_l0
	msr	ttbr1_el1, x0
	local_flush_before_mmu_on
	ldr	x0, =SCTLR_EL1_MMU_ON
	msr	sctlr_el1, x0
	isb
	/* Fetched through the identity map; the jump leaves it for good. */
	ldr	x0, =start_virt
	br	x0

el2_to_el1:
	drop_to_el1 el1_entry

park:	wfe
	b	park

/*
 * Secondary CPUs start here, one at a time, at the physical address of
 * this label: PSCI CPU_ON's entry point on virt, the address written to
 * the spin table on the Pi 4. The MMU is off and the EL is 2 or 1, as for
 * the boot CPU. Everything this CPU needs was left for it in
 * secondary_boot (smp.c), cleaned to the point of coherency because it is
 * read here with the data cache off: the boot CPU's final MAIR, TCR,
 * SCTLR and TTBR1 (the same kernel page tables for every CPU), its idle
 * stack, per-CPU block and idle task. head.S's identity map (idmap_l0,
 * untouched since boot) covers this code while the MMU comes on.
 */
	.globl secondary_entry
secondary_entry:
	mrs	x0, CurrentEL
	ubfx	x0, x0, #2, #2
	cmp	x0, #1
	b.eq	secondary_el1
	cmp	x0, #2
	b.ne	park
	drop_to_el1 secondary_el1

secondary_el1:
	ldr	x0, =SCTLR_EL1_MMU_OFF
	msr	sctlr_el1, x0
	isb
	mov	x0, #(3 << 20)		/* CPACR_EL1.FPEN, as on the boot CPU */
	msr	cpacr_el1, x0
	adr_l	x1, secondary_boot
	ldr	x0, [x1, #SB_MAIR]
	msr	mair_el1, x0
	ldr	x0, [x1, #SB_TCR]
	msr	tcr_el1, x0
	adr_l	x0, idmap_l0
	msr	ttbr0_el1, x0
	ldr	x0, [x1, #SB_TTBR1]
	msr	ttbr1_el1, x0
	local_flush_before_mmu_on
	ldr	x0, [x1, #SB_SCTLR]
	msr	sctlr_el1, x0
	isb
	ldr	x0, =secondary_virt
	br	x0

/*
 * x22 = physical address of _head. Tables live in .bss (zeroed above).
 * Table descriptors: address | valid | table.
 */
early_map:
	/* Identity: one 2 MiB block around this code, normal memory. */
	adr_l	x0, idmap_l0
	adr_l	x1, idmap_l1
	adr_l	x2, idmap_l2
	ubfx	x3, x22, #39, #9
	orr	x4, x1, #(PTE_VALID | PTE_TABLE)
	str	x4, [x0, x3, lsl #3]
	ubfx	x3, x22, #30, #9
	orr	x4, x2, #(PTE_VALID | PTE_TABLE)
	str	x4, [x1, x3, lsl #3]
	ubfx	x3, x22, #21, #9
	and	x4, x22, #~0x1fffff
	ldr	x5, =PROT_NORMAL_RWX	/* a block: valid, not table */
	orr	x4, x4, x5
	str	x4, [x2, x3, lsl #3]

	/* The image at KERNEL_VIRT: L0 -> L1 -> L2 -> EARLY_L3_TABLES pages. */
	adr_l	x0, kmap_l0
	adr_l	x1, kmap_l1
	adr_l	x2, kmap_l2
	adr_l	x6, kmap_l3
	orr	x4, x1, #(PTE_VALID | PTE_TABLE)
	str	x4, [x0, #(((KERNEL_VIRT >> 39) & 511) * 8)]
	orr	x4, x2, #(PTE_VALID | PTE_TABLE)
	str	x4, [x1, #(((KERNEL_VIRT >> 30) & 511) * 8)]
	add	x2, x2, #(((KERNEL_VIRT >> 21) & 511) * 8)
	mov	x3, #EARLY_L3_TABLES
	mov	x4, x6
1:	orr	x5, x4, #(PTE_VALID | PTE_TABLE)
	str	x5, [x2], #8
	add	x4, x4, #4096
	subs	x3, x3, #1
	b.ne	1b
	/* One page descriptor per 4 KiB of the image, in order. */
	adr_l	x7, __kernel_end
	mov	x8, x22
	ldr	x5, =(PROT_NORMAL_RWX | PTE_TABLE)
2:	cmp	x8, x7
	b.hs	3f
	orr	x4, x8, x5
	str	x4, [x6], #8
	add	x8, x8, #4096
	b	2b
3:	ret

/* Invalidate the data cache lines covering [x0, x1). */
dcache_inval_range:
	mrs	x3, ctr_el0
	ubfx	x3, x3, #16, #4		/* DminLine: log2 of the line in words */
	mov	x2, #4
	lsl	x2, x2, x3
	sub	x3, x2, #1
	bic	x0, x0, x3
1:	dc	ivac, x0
	add	x0, x0, x2
	cmp	x0, x1
	b.lo	1b
	dsb	sy
	ret

	.ltorg

	.text
start_virt:
	adr_l	x0, boot_stack_top
	mov	sp, x0
	adr_l	x0, vectors
	msr	vbar_el1, x0
	isb
	mov	x29, xzr		/* the end of every stack trace */
	mov	x30, xzr
	mov	x0, x19
	mov	x1, x22
	mov	x2, x21
	mov	x3, x20
	bl	arm64_start
4:	wfi
	b	4b

/*
 * A secondary CPU, now at KERNEL_VIRT: drop the identity map for the
 * empty lower half every CPU runs with, take the stack, vectors and
 * per-CPU registers the boot CPU chose, and go to C.
 */
secondary_virt:
	adr_l	x1, secondary_boot
	ldr	x0, [x1, #SB_TTBR0]
	msr	ttbr0_el1, x0
	isb
	tlbi	vmalle1
	dsb	nsh
	isb
	ldr	x0, [x1, #SB_STACK]
	mov	sp, x0
	adr_l	x0, vectors
	msr	vbar_el1, x0
	ldr	x0, [x1, #SB_CPU_LOCAL]
	msr	tpidr_el1, x0
	ldr	x0, [x1, #SB_TASK]
	msr	sp_el0, x0
	isb
	mov	x29, xzr		/* the end of every stack trace */
	mov	x30, xzr
	ldr	x0, [x1, #SB_CPU]
	bl	arm64_secondary_start
5:	wfi
	b	5b

	.section .bss, "aw", %nobits
	.balign 4096
	.globl idmap_l0
idmap_l0:	.skip 4096
idmap_l1:	.skip 4096
idmap_l2:	.skip 4096
kmap_l0:	.skip 4096
kmap_l1:	.skip 4096
kmap_l2:	.skip 4096
kmap_l3:	.skip 4096 * EARLY_L3_TABLES
	.globl boot_stack, boot_stack_top
	.balign 16
boot_stack:	.skip 16384
boot_stack_top:
