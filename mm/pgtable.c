// SPDX-License-Identifier: MIT
/*
 * The page-table code both architectures share: one walker, and the range
 * operations of the arch.h contract (arch_map_range(), arch_protect_range(),
 * arch_unmap_range(), arch_mm_free()), so the contract's rules (what a
 * range may be, which permissions, -EEXIST before anything is written,
 * -ENOMEM undone, who flushes) are checked in one place. The architecture
 * supplies the entry format and the barriers through <asm/pgtable.h>, and
 * keeps what is truly its own: the boot mappings, arch_lookup()'s reading
 * of permissions, making and switching an address space (arch/x86_64/
 * paging.c, arch/arm64/mmu.c). Linux splits the same way: mm/memory.c and
 * mm/pgtable-generic.c walk, the arch's pgtable.h says what an entry is.
 */
#include <pagoda/atomic.h>
#include <pagoda/mm.h>
#include <pagoda/pgtable.h>
#include <pagoda/smp.h>

/*
 * A table is installed with a compare-and-swap, so two CPUs mapping
 * neighbouring pages never lose one another's table: the loser gives its
 * page back and goes on through the winner's.
 */
u64 *pt_walk(struct mm_struct *mm, u64 va, int stop, bool alloc, int *levelp)
{
	u64 *t = pt_root(mm, va);

	if (!t)
		return NULL;
	for (int level = 0;; level++) {
		u64 *e = &t[pt_index(va, level)];
		u64 old = READ_ONCE(*e);

		if (level == stop || (pte_present(old) && !pte_table(old, level)) ||
		    (!pte_present(old) && !alloc)) {
			*levelp = level;
			return e;
		}
		if (!pte_present(old)) {
			phys_addr_t pa = pt_alloc_table();
			u64 want, seen;

			if (!pa)
				return NULL;
			want = pte_mktable(pa, va);
			pt_table_published();
			seen = cmpxchg(e, old, want);
			if (seen != old) {
				pt_free_table(pa);
				want = seen;
			} else if (mm != &init_mm) {
				__atomic_add_fetch(&mm->pgtables, 1, __ATOMIC_RELAXED);
			}
			old = want;
		}
		t = pt_table_va(pte_addr(old));
	}
}

/* ---- the arch.h contract: ranges ------------------------------------------- */

static bool range_ok(struct mm_struct *mm, u64 va, u64 size)
{
	if (!size || !IS_ALIGNED(va, PAGE_SIZE) || !IS_ALIGNED(size, PAGE_SIZE) ||
	    va + size < va)
		return false;
	if (mm == &init_mm)
		return va >= VMALLOC_START && va + size <= VMALLOC_END;
	return va + size <= TASK_SIZE;
}

static bool prot_ok(struct mm_struct *mm, unsigned int prot)
{
	unsigned int known = PROT_PRESENT | PROT_WRITE | PROT_EXEC | PROT_DEVICE |
			     PROT_NOCACHE | PROT_USER;

	/* A PROT_NONE user page: present and nothing else. */
	if (prot & PROT_NONE_USER)
		return prot == (PROT_PRESENT | PROT_NONE_USER) && mm != &init_mm;
	return (prot & PROT_PRESENT) && !(prot & ~known) &&
	       !(prot & PROT_USER) == (mm == &init_mm);
}

/* Every page of the range present as a 4 KiB entry. */
static bool fully_mapped(struct mm_struct *mm, u64 va, u64 size)
{
	int level;

	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		u64 *e = pt_walk(mm, a, PT_LEAF, false, &level);

		if (!e || level != PT_LEAF || !pte_present(READ_ONCE(*e)))
			return false;
	}
	return true;
}

/* Some page of the range present (or under a large page). */
static bool any_mapped(struct mm_struct *mm, u64 va, u64 size)
{
	int level;

	for (u64 a = va; a < va + size;) {
		u64 *e = pt_walk(mm, a, PT_LEAF, false, &level);

		if (pte_present(READ_ONCE(*e)))
			return true;
		/* A missing table: skip everything it would have held. */
		a = ALIGN_DOWN(a, pt_level_size(level)) + pt_level_size(level);
		if (!a)
			break;
	}
	return false;
}

/* Unmap and protect end here: see arch.h for who flushes where. */
static void flush_range(struct mm_struct *mm, u64 va, u64 size)
{
	pt_flush_prepare();
	if (mm == &init_mm)
		flush_tlb_kernel_range(va, va + size);
	else
		flush_tlb_mm_range(mm, va, va + size);
}

static void clear_range(struct mm_struct *mm, u64 va, u64 size)
{
	int level;

	for (u64 a = va; a < va + size; a += PAGE_SIZE)
		WRITE_ONCE(*pt_walk(mm, a, PT_LEAF, false, &level), 0);
}

/*
 * A user page that becomes executable gets a coherent instruction cache
 * now, as Linux does when it sets such an entry: a page copied by fork, a
 * zeroed page whose frame held another program's code, a page a program
 * wrote and then made executable (arch_sync_icache(); nothing on x86).
 * It is marked PG_exec too, so that it is scrubbed when freed
 * (mm/page_alloc.c, free_exec_page()).
 */
static void sync_user_text(phys_addr_t pa, u64 size, unsigned int prot)
{
	if ((prot & (PROT_USER | PROT_EXEC | PROT_DEVICE)) != (PROT_USER | PROT_EXEC))
		return;
	arch_sync_icache(__va(pa), size);
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		struct page *pg = pfn_to_page(PHYS_PFN(pa + off));

		if (pg && !(READ_ONCE(pg->flags) & PG_exec))
			__atomic_fetch_or(&pg->flags, PG_exec, __ATOMIC_RELAXED);
	}
}

int arch_map_range(struct mm_struct *mm, u64 va, phys_addr_t pa, u64 size,
		   unsigned int prot)
{
	u64 bits;
	int level;

	if (!range_ok(mm, va, size) || !IS_ALIGNED(pa, PAGE_SIZE) || !prot_ok(mm, prot))
		return -EINVAL;
	if (any_mapped(mm, va, size))
		return -EEXIST;
	bits = pte_prot_bits(prot);
	/* before the entries: no fetch through them may find stale lines */
	sync_user_text(pa, size, prot);
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		u64 *e = pt_walk(mm, va + off, PT_LEAF, true, &level);

		if (!e) {
			clear_range(mm, va, off);
			flush_range(mm, va, off);
			return -ENOMEM;
		}
		WRITE_ONCE(*e, (pa + off) | bits);
	}
	pt_update_done();
	return 0;
}

int arch_protect_range(struct mm_struct *mm, u64 va, u64 size, unsigned int prot)
{
	u64 bits;
	int level;

	if (!range_ok(mm, va, size) || !prot_ok(mm, prot) || !fully_mapped(mm, va, size))
		return -EINVAL;
	bits = pte_prot_bits(prot);
	/*
	 * Break before make where the arch asks for it: the entries go invalid
	 * and every TLB forgets them before the new ones are written, so no TLB
	 * ever holds two different answers for one address. Elsewhere the new
	 * entries are written in place and the flush follows.
	 */
	if (PT_BREAK_BEFORE_MAKE) {
		for (u64 a = va; a < va + size; a += PAGE_SIZE) {
			u64 *e = pt_walk(mm, a, PT_LEAF, false, &level);

			WRITE_ONCE(*e, pte_mkinvalid(*e));
		}
		flush_range(mm, va, size);
	}
	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		u64 *e = pt_walk(mm, a, PT_LEAF, false, &level);

		sync_user_text(pte_addr(*e), PAGE_SIZE, prot);
		WRITE_ONCE(*e, pte_addr(*e) | bits);
	}
	if (!PT_BREAK_BEFORE_MAKE)
		flush_range(mm, va, size);
	pt_update_done();
	return 0;
}

int arch_protect_pages(struct mm_struct *mm, const u64 *vas, const unsigned int *prots,
		       unsigned int n)
{
	u64 news[PROTECT_BATCH];
	unsigned int changed = 0;
	int level;

	if (mm == &init_mm || !n || n > PROTECT_BATCH)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		u64 *e;

		if (!range_ok(mm, vas[i], PAGE_SIZE) || !prot_ok(mm, prots[i]) ||
		    !fully_mapped(mm, vas[i], PAGE_SIZE))
			return -EINVAL;
		e = pt_walk(mm, vas[i], PT_LEAF, false, &level);
		news[i] = pte_addr(READ_ONCE(*e)) | pte_prot_bits(prots[i]);
		changed += news[i] != READ_ONCE(*e);
	}
	if (!changed)
		return 0; /* fork's look at pages already read-only: nothing to flush */
	/* Break before make where the arch asks for it, as arch_protect_range(). */
	if (PT_BREAK_BEFORE_MAKE) {
		for (unsigned int i = 0; i < n; i++) {
			u64 *e = pt_walk(mm, vas[i], PT_LEAF, false, &level);

			if (news[i] != READ_ONCE(*e))
				WRITE_ONCE(*e, pte_mkinvalid(*e));
		}
		flush_range(mm, vas[0], vas[n - 1] + PAGE_SIZE - vas[0]);
	}
	for (unsigned int i = 0; i < n; i++) {
		u64 *e = pt_walk(mm, vas[i], PT_LEAF, false, &level);

		if (news[i] == READ_ONCE(*e))
			continue;
		sync_user_text(pte_addr(news[i]), PAGE_SIZE, prots[i]);
		WRITE_ONCE(*e, news[i]);
	}
	if (!PT_BREAK_BEFORE_MAKE)
		flush_range(mm, vas[0], vas[n - 1] + PAGE_SIZE - vas[0]);
	pt_update_done();
	return 0;
}

static int unmap_noflush(struct mm_struct *mm, u64 va, u64 size)
{
	if (!range_ok(mm, va, size) || !fully_mapped(mm, va, size))
		return -EINVAL;
	clear_range(mm, va, size);
	return 0;
}

int arch_unmap_range(struct mm_struct *mm, u64 va, u64 size)
{
	int err = unmap_noflush(mm, va, size);

	if (!err)
		flush_range(mm, va, size);
	return err;
}

/* User ranges only: the kernel's mappings are flushed at once, everywhere. */
int arch_unmap_range_noflush(struct mm_struct *mm, u64 va, u64 size)
{
	return mm == &init_mm ? -EINVAL : unmap_noflush(mm, va, size);
}

void arch_flush_user_range(struct mm_struct *mm, u64 va, u64 size)
{
	flush_range(mm, va, size);
}

/* ---- the arch.h contract: user address spaces --------------------------- */

int arch_mm_init(struct mm_struct *mm)
{
	phys_addr_t pa = pgtable_alloc_page();

	if (!pa)
		return -ENOMEM;
	mm->pgd = pt_table_va(pa);
	mm->cpu_mask = 0;
	mm->rss = mm->hiwater_rss = 0;
	mm->pgtables = 1;
	pt_share_kernel_half(mm);
	return 0;
}

/* Free a table at `level` (its first nr entries) and every table below it. */
static void free_tables(u64 *t, int level, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		if (pte_table(t[i], level))
			free_tables(pt_table_va(pte_addr(t[i])), level + 1, PTRS_PER_TABLE);
	pgtable_free_page(__pa(t));
}

/* The lower half's tables only: the kernel half's are init_mm's, shared. */
void arch_mm_free(struct mm_struct *mm)
{
	if (mm == &init_mm || !mm->pgd)
		return;
	free_tables(mm->pgd, 0, PTRS_USER_ROOT);
	mm->pgd = NULL;
}
