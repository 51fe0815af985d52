/* SPDX-License-Identifier: MIT */
/*
 * Page tables, the part every architecture shares (mm/pgtable.c): one
 * walker and the range operations of the arch.h contract (map, protect,
 * unmap, freeing an address space's tables), written once over hooks the
 * architecture supplies in <asm/pgtable.h>.
 *
 * Both architectures translate with four levels of 512 eight-byte entries,
 * numbered from the root: level 0 maps 512 GiB per entry, level 1 1 GiB,
 * level 2 2 MiB and level 3 (PT_LEAF) 4 KiB. Levels 1 and 2 may hold a
 * large page (a block on arm64) instead of a table.
 *
 * What <asm/pgtable.h> provides, all static inline:
 *   pte_present(e)          the entry is valid (a page, a block or a table)
 *   pte_table(e, level)     the entry points to a table one level down
 *   pte_addr(e)             the physical address an entry holds
 *   pte_mktable(pa, va)     a table entry for a new table at pa on va's walk
 *   pte_mkinvalid(e)        e with its valid bit cleared, the rest kept
 *   PTRS_USER_ROOT          how many root entries a user mm owns (from 0)
 *   PT_BREAK_BEFORE_MAKE    protect invalidates and flushes before it
 *                           writes (arm64's rule) rather than after
 *   pt_table_published()    barrier: a zeroed table before its entry
 *   pt_flush_prepare()      barrier: cleared entries before a TLB flush
 *   pt_update_done()        barrier: new entries before what follows
 * and the architecture's page-table code (arch/x86_64/paging.c,
 * arch/arm64/mmu.c) defines the functions declared below under "the arch".
 */
#ifndef PAGODA_PGTABLE_H
#define PAGODA_PGTABLE_H

#include <pagoda/arch.h>

#define PT_LEVELS 4
#define PT_LEAF (PT_LEVELS - 1)
#define PTRS_PER_TABLE 512

#include <asm/pgtable.h>

/* The slot va takes in a table at level. */
static inline unsigned int pt_index(u64 va, int level)
{
	return (va >> (39 - 9 * level)) & (PTRS_PER_TABLE - 1);
}

/* How much one entry at level maps. */
static inline u64 pt_level_size(int level)
{
	return 1ULL << (39 - 9 * level);
}

/*
 * --- the arch ----------------------------------------------------------------
 * pt_root():        the table that translates va in mm, or NULL for an
 *                   address no table of mm's covers;
 * pt_table_va():    where the kernel reaches a table page (in the image
 *                   while booting, else the direct map);
 * pt_alloc_table(): a zeroed table page (from the image's pool while
 *                   booting, else pgtable_alloc_page()), or 0;
 * pt_free_table():  gives back one pt_alloc_table() gave and nobody used;
 * pte_prot_bits():  the entry bits for PROT_* prot, without the address;
 * pt_share_kernel_half(): gives a new user root the kernel's half (x86-64
 *                   copies init_mm's upper entries; arm64's is TTBR1's).
 */
u64 *pt_root(struct mm_struct *mm, u64 va);
u64 *pt_table_va(phys_addr_t pa);
phys_addr_t pt_alloc_table(void);
void pt_free_table(phys_addr_t pa);
u64 pte_prot_bits(unsigned int prot);
void pt_share_kernel_half(struct mm_struct *mm);

/*
 * The one walker (mm/pgtable.c). It descends the tables that translate va
 * in mm towards va's entry at level `stop` and returns the entry where it
 * ended, with that level in *levelp: the entry at `stop`, a large page
 * above it, or (without alloc) the first invalid entry. With alloc,
 * missing tables are made on the way; NULL then means no page could be had
 * (or va is in no half of mm's).
 */
u64 *pt_walk(struct mm_struct *mm, u64 va, int stop, bool alloc, int *levelp);

#endif
