/* SPDX-License-Identifier: MIT */
/*
 * x86-64 page-table entries, and the hooks mm/pgtable.c's shared walker
 * and range code need of them (include/pagoda/pgtable.h lists them).
 * Levels count from the root: 0 is the PML4, 1 the PDPT, 2 the page
 * directory, 3 the page table; levels 1 and 2 may hold a large page (PS).
 * Included through <pagoda/pgtable.h>, which defines the levels.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <pagoda/types.h>

#define PTE_P (1ULL << 0)
#define PTE_W (1ULL << 1)
#define PTE_U (1ULL << 2)
#define PTE_PWT (1ULL << 3)
#define PTE_PCD (1ULL << 4)
#define PTE_PS (1ULL << 7)
#define PTE_G (1ULL << 8)
#define PTE_NX (1ULL << 63)
/*
 * A PROT_NONE user page: not present to the MMU, so no access reaches it,
 * the kernel's own included (a supervisor-only entry would still let
 * copy_from_user() read it); this bit, which the MMU ignores in an entry
 * without P, tells the kernel the frame is still mapped there. Linux's
 * _PAGE_PROTNONE is the same idea.
 */
#define PTE_PROTNONE (1ULL << 9)
#define PTE_ADDR 0x000ffffffffff000ULL

/* The lower half of the PML4 is a user mm's; the upper half the kernel's. */
#define PTRS_USER_ROOT 256

/* Protect may rewrite a present entry in place and flush afterwards. */
#define PT_BREAK_BEFORE_MAKE 0

/* Mapped, as the kernel's bookkeeping sees it: present, or a PROT_NONE page. */
static inline bool pte_present(u64 e)
{
	return e & (PTE_P | PTE_PROTNONE);
}

/* Present, above the last level and not a large page. */
static inline bool pte_table(u64 e, int level)
{
	return (e & PTE_P) && level < PT_LEAF && !(level > 0 && (e & PTE_PS));
}

static inline u64 pte_addr(u64 e)
{
	return e & PTE_ADDR;
}

/* User tables must allow user access at every level: the leaf decides. */
static inline u64 pte_mktable(u64 pa, u64 va)
{
	return pa | PTE_P | PTE_W | ((va >> 47) == 0 ? PTE_U : 0);
}

static inline u64 pte_mkinvalid(u64 e)
{
	return e & ~(PTE_P | PTE_PROTNONE);
}

/*
 * Stores reach the walker in program order and no TLB caches a
 * non-present entry: the barriers are the compiler's WRITE_ONCE alone.
 */
static inline void pt_table_published(void)
{
}

static inline void pt_flush_prepare(void)
{
}

static inline void pt_update_done(void)
{
}

#endif
