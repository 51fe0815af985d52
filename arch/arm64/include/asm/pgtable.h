/* SPDX-License-Identifier: MIT */
/*
 * The hooks mm/pgtable.c's shared walker and range code need of arm64's
 * descriptors (include/pagoda/pgtable.h lists them; the bits are in
 * asm/pgtable-hwdef.h). Included through <pagoda/pgtable.h>, which
 * defines the levels.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <pagoda/types.h>
#include <asm/pgtable-hwdef.h>

/*
 * asm/arm64.h's dsb(ishst) and isb(), spelled out here: that header's
 * __va() and __pa() would clash with pagoda/mm.h's in mm/pgtable.c.
 */
#define PT_DSB_ISHST() __asm__ volatile("dsb ishst" ::: "memory")
#define PT_ISB() __asm__ volatile("isb" ::: "memory")

/* A user mm's root holds only the lower half: TTBR1 is the kernel's. */
#define PTRS_USER_ROOT 512

/*
 * Changing a valid entry's attributes in place may leave two TLB entries
 * for one address (a TLB conflict abort, or worse): protect makes the old
 * entries invalid and flushes them before it writes the new ones.
 */
#define PT_BREAK_BEFORE_MAKE 1

static inline bool pte_present(u64 e)
{
	return e & PTE_VALID;
}

/* Levels 0-2 use the table bit to tell a table from a block. */
static inline bool pte_table(u64 e, int level)
{
	return level < PT_LEAF && (e & (PTE_VALID | PTE_TABLE)) == (PTE_VALID | PTE_TABLE);
}

static inline u64 pte_addr(u64 e)
{
	return e & PTE_ADDR_MASK;
}

static inline u64 pte_mktable(u64 pa, u64 va)
{
	return pa | PTE_VALID | PTE_TABLE;
}

static inline u64 pte_mkinvalid(u64 e)
{
	return e & ~(u64)PTE_VALID;
}

/* The zeroed table reaches every walker before the entry that points to it. */
static inline void pt_table_published(void)
{
	PT_DSB_ISHST();
}

/* The cleared entries reach every walker before any CPU flushes. */
static inline void pt_flush_prepare(void)
{
	PT_DSB_ISHST();
}

/* No TLB holds an invalid entry: the walkers need only see the writes. */
static inline void pt_update_done(void)
{
	PT_DSB_ISHST();
	PT_ISB();
}

#endif
