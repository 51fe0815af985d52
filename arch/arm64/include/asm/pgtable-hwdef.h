/* SPDX-License-Identifier: MIT */
/*
 * Translation-table descriptor bits (VMSAv8-64, 4 KiB granule), shared by
 * head.S, mmu.c and hibernate.c (Linux: asm/pgtable-hwdef.h). Kept to plain
 * constants so the assembler can use them.
 */
#ifndef ASM_PGTABLE_HWDEF_H
#define ASM_PGTABLE_HWDEF_H

/* Constants usable from both C (unsigned long) and the assembler. */
#ifdef __ASSEMBLER__
#define _UL(x) x
#else
#define _UL(x) x##UL
#endif

#define PTE_VALID (1 << 0)
#define PTE_TABLE (1 << 1)   /* levels 0-2: next table; level 3: a page */
#define PTE_ATTR(i) ((i) << 2) /* index into MAIR_EL1 */
#define PTE_USER (1 << 6)    /* AP[1]: EL0 may access */
#define PTE_RDONLY (1 << 7)  /* AP[2]: read-only */
#define PTE_SH_INNER (3 << 8)
#define PTE_AF (1 << 10)     /* access flag: set, or the first access faults */
#define PTE_NG (1 << 11)     /* not global: tagged with the address space's ASID */
#define PTE_PXN (_UL(1) << 53)    /* never executable at EL1 */
#define PTE_UXN (_UL(1) << 54)    /* never executable at EL0 */
#define PTE_ADDR_MASK 0x0000fffffffff000

/* MAIR_EL1 slots: the three kinds of memory the kernel maps. */
#define MT_DEVICE 0 /* Device-nGnRnE: MMIO, no gathering or reordering */
#define MT_NORMAL 1 /* Normal, write-back cacheable: RAM */
#define MT_NORMAL_NC 2
#define MAIR_VALUE 0x44ff00 /* slot 0: 0x00, slot 1: 0xff, slot 2: 0x44 */

/* Kernel mappings: never user-executable, always accessed, inner shareable. */
#define PTE_KERNEL (PTE_VALID | PTE_AF | PTE_SH_INNER | PTE_UXN)
#define PROT_NORMAL_RWX (PTE_KERNEL | PTE_ATTR(MT_NORMAL))
#define PROT_DEVICE_RW (PTE_KERNEL | PTE_ATTR(MT_DEVICE) | PTE_PXN)

/*
 * TCR_EL1: 48-bit virtual addresses in both halves (T0SZ = T1SZ = 16),
 * 4 KiB granules, table walks cacheable and inner shareable. The physical
 * address size (IPS) is filled in from ID_AA64MMFR0_EL1 at boot.
 */
#define TCR_T0SZ (64 - 48)
#define TCR_T1SZ ((64 - 48) << 16)
#define TCR_WALK0 ((1 << 8) | (1 << 10) | (3 << 12))   /* IRGN0 ORGN0 WBWA, SH0 inner */
#define TCR_WALK1 ((1 << 24) | (1 << 26) | (3 << 28))  /* IRGN1 ORGN1 WBWA, SH1 inner */
#define TCR_TG1_4K (_UL(2) << 30)
#define TCR_IPS_SHIFT 32
#define TCR_VALUE (TCR_T0SZ | TCR_T1SZ | TCR_WALK0 | TCR_WALK1 | TCR_TG1_4K)

/*
 * SCTLR_EL1: the bits that must be one on ARMv8.0, then the MMU (M), the
 * data cache (C), stack alignment checking (SA) and the instruction cache (I).
 */
#define SCTLR_EL1_RES1 0x30d00800
#define SCTLR_M (1 << 0)
#define SCTLR_C (1 << 2)
#define SCTLR_SA (1 << 3)
#define SCTLR_I (1 << 12)
#define SCTLR_EL1_MMU_OFF SCTLR_EL1_RES1
#define SCTLR_EL1_MMU_ON (SCTLR_EL1_RES1 | SCTLR_M | SCTLR_C | SCTLR_SA | SCTLR_I)

#endif
