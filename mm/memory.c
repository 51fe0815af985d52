// SPDX-License-Identifier: MIT
/*
 * Demand paging, after Linux's mm/memory.c: an anonymous area gets its
 * pages when they are first touched, not when it is mapped. A page fault
 * on a user address (from user mode, or from the kernel's copy to or from
 * user memory) comes to handle_mm_fault(), which decides:
 *
 *   the address in no area ........................ SEGV_MAPERR
 *     (just below a stack area: the stack grows down to it, unless that
 *      would pass RLIMIT_STACK or come within the guard gap of the area
 *      below, and then SEGV_MAPERR)
 *   the area forbids the access .................... SEGV_ACCERR
 *     (PROT_NONE, a write to a read-only area, an instruction fetch from
 *      a non-executable one)
 *   no page there yet:
 *     a read ....................................... the shared zero page, read-only
 *     a write, in an empty 2 MiB stretch the area
 *       holds and transparent_hugepage allows ...... the whole stretch, zeroed
 *                                                    (mm/huge_memory.c)
 *     a write ...................................... a new zeroed page
 *   the zero page there, and a write ............... a new zeroed page in its place
 *   a page there already ........................... nothing (another CPU's fault, or a
 *                                                    stale TLB entry): try again
 *   no memory for the page ......................... -ENOMEM: the caller ends the process
 *
 * Locking, for a process with threads: the handler holds the process's
 * mmap_lock for reading (user_page_fault()), so no thread's mmap, munmap,
 * mprotect, mremap or brk (which hold it for writing) changes the areas
 * under it, and faults of several threads run at once. Each takes
 * page_table_lock around its look at one entry and what it puts there,
 * so two threads faulting on one page map one page, and a stack grows
 * once. A fault inside a system call holding mmap_lock for writing
 * cannot happen: none of those copies user memory. The writers take
 * page_table_lock too while they change entries (zap, protect, copy,
 * move), since a truncate of a tmpfs file changes another process's
 * entries without its mmap_lock (unmap_mapping_range(), mm/shmem.c).
 *
 * The TLB: a page unmapped or made read-only (munmap, mprotect, a
 * copy-on-write break, fork's write protection) goes from every CPU that
 * runs a thread of the process: the arch's unmap and protect shoot it
 * down on the CPUs in mm->cpu_mask (kernel/smp.c's flush_tlb_mm_range()).
 */
#include <pagoda/arch.h>
#include <pagoda/huge_mm.h>
#include <pagoda/mm.h>
#include <pagoda/mman.h>
#include <pagoda/oom.h>
#include <pagoda/pgtable.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/ramfs.h>
#include <pagoda/shmem.h>
#include <pagoda/string.h>

/* The page every untouched anonymous page reads as: zeroed once, never written. */
static phys_addr_t zero_pa;

phys_addr_t zero_page_pa(void)
{
	if (!READ_ONCE(zero_pa)) {
		struct page *pg = alloc_page(GFP_KERNEL | __GFP_ZERO);

		if (!pg)
			return 0;
		/* Two CPUs may race here: one page wins, the other goes back. */
		if (cmpxchg(&zero_pa, 0, page_to_phys(pg)) != 0)
			__free_page(pg);
	}
	return READ_ONCE(zero_pa);
}

bool is_zero_pa(phys_addr_t pa)
{
	return pa && pa == READ_ONCE(zero_pa);
}

/* p maps one page of its own more (n = 1) or fewer (n = -1); the zero page is nobody's. */
static void add_mm_rss(struct process *p, phys_addr_t pa, long n)
{
	unsigned long rss;

	if (is_zero_pa(pa))
		return;
	rss = __atomic_add_fetch(&p->mm.rss, n, __ATOMIC_RELAXED);
	if (rss > READ_ONCE(p->mm.hiwater_rss))
		WRITE_ONCE(p->mm.hiwater_rss, rss);
}

static struct page *pa_page(phys_addr_t pa)
{
	return pfn_to_page(PHYS_PFN(pa));
}

/*
 * How many entries map the process page at pa (the zero page: many,
 * uncounted). A file's cached page answers "shared" even when mapped
 * once: a write copies it, never takes it over, since the next mapper of
 * that file page must still read the file.
 */
static int page_mapcount(phys_addr_t pa)
{
	struct page *pg = pa_page(pa);

	if (is_zero_pa(pa) || !pg || (pg->flags & (PG_filecache | PG_shmem)))
		return 2;
	return __atomic_load_n(&pg->mapcount, __ATOMIC_ACQUIRE);
}

/* One entry fewer maps the page at pa; the last one frees it. */
static void page_unmapped(phys_addr_t pa)
{
	struct page *pg = pa_page(pa);

	if (is_zero_pa(pa) || !pg)
		return;
	if (pg->flags & PG_filecache) {
		filemap_put_page(pg);
		return;
	}
	if (pg->flags & PG_shmem) {
		shmem_page_put(pg);
		return;
	}
	if (!__atomic_sub_fetch(&pg->mapcount, 1, __ATOMIC_ACQ_REL)) {
		__atomic_sub_fetch(&nr_anon_pages, 1, __ATOMIC_RELAXED);
		__free_page(pg);
	}
}

/* One entry more maps it (fork). */
static void page_mapped(phys_addr_t pa)
{
	struct page *pg = pa_page(pa);

	if (!is_zero_pa(pa) && pg)
		__atomic_add_fetch(&pg->mapcount, 1, __ATOMIC_ACQ_REL);
}

/* Processes' own pages in use now (each counted once, however many map it). */
unsigned long nr_anon_pages;

/* A new page of the process's own, mapped once. */
static struct page *new_anon_page(gfp_t gfp)
{
	struct page *pg = alloc_page(gfp);

	if (pg) {
		pg->mapcount = 1;
		__atomic_add_fetch(&nr_anon_pages, 1, __ATOMIC_RELAXED);
	}
	return pg;
}

static void free_anon_page(struct page *pg)
{
	pg->mapcount = 0;
	__atomic_sub_fetch(&nr_anon_pages, 1, __ATOMIC_RELAXED);
	__free_page(pg);
}

unsigned int page_pte_prot(const struct vm_area *v, phys_addr_t pa)
{
	unsigned int prot = v->prot & ~PROT_NOACCESS;

	if (v->prot & PROT_NOACCESS)
		return PROT_PRESENT | PROT_NONE_USER;
	/* A shared area's page is written in place, whoever else maps it. */
	if (vma_is_shared(v))
		return prot;
	/* Shared pages are never writable through one mapping: a write copies. */
	if (page_mapcount(pa) > 1)
		prot &= ~PROT_WRITE;
	return prot;
}

u64 *user_pte(struct process *p, u64 va, u64 *skip)
{
	int level;
	u64 *e = pt_walk(&p->mm, va, PT_LEAF, false, &level);

	if (e && level == PT_LEAF && pte_present(READ_ONCE(*e)))
		return e;
	/* A missing table: everything it would have held is absent too. */
	*skip = e && level < PT_LEAF ? ALIGN_DOWN(va, pt_level_size(level)) +
					       pt_level_size(level) - va :
				       PAGE_SIZE;
	return NULL;
}

/*
 * The first present leaf entry at or after *va and below end, with *va
 * moved to its address; NULL when there is none. Missing tables are
 * skipped whole, and a skip that wraps past the top of the address
 * space ends the walk.
 */
u64 *next_user_pte(struct process *p, u64 *va, u64 end)
{
	for (u64 a = *va, skip; a < end; a += skip) {
		u64 *e = user_pte(p, a, &skip);

		if (e) {
			*va = a;
			return e;
		}
		if (a + skip < a)
			break;
	}
	return NULL;
}

/*
 * Grow the stack area v down to hold addr, as Linux's expand_downwards():
 * refused past RLIMIT_STACK, when the new bottom comes within
 * STACK_GUARD_GAP of the area below, or when the overcommit policy will
 * not promise the new pages.
 */
static bool expand_stack(struct process *p, struct vm_area *v, u64 addr)
{
	u64 start = ALIGN_DOWN(addr, PAGE_SIZE);
	struct vm_area *prev = vma_prev(v);

	if (v->end - start > STACK_RLIMIT)
		return false;
	if (prev && (start < prev->end || start - prev->end < STACK_GUARD_GAP))
		return false;
	/* The new pages are promised like the rest of the stack (mm/util.c). */
	if ((v->flags & VM_ACCOUNT) && vm_enough_memory(p, (v->start - start) >> PAGE_SHIFT))
		return false;
	/* The tree's order holds: the area still starts above prev. */
	WRITE_ONCE(p->mm.total_vm, p->mm.total_vm + ((v->start - start) >> PAGE_SHIFT));
	WRITE_ONCE(v->start, start);
	return true;
}

/*
 * Map pg at va for v, counted in the RSS; on failure the reference the
 * fault took is given back with put() (an anonymous page freed, a cache
 * or shared-object page put). 0 when va was mapped meanwhile (-EEXIST):
 * the caller looks again.
 */
static int map_fault_page(struct process *p, struct vm_area *v, u64 va, struct page *pg,
			  void (*put)(struct page *pg))
{
	phys_addr_t pa = page_to_phys(pg);
	int err = arch_map_range(&p->mm, va, pa, PAGE_SIZE, page_pte_prot(v, pa));

	if (err)
		put(pg);
	else
		add_mm_rss(p, pa, 1);
	return err == -EEXIST ? 0 : err;
}

/* The new anonymous page pg at va for v; freed if it cannot be mapped. */
static int map_anon_page(struct process *p, struct vm_area *v, u64 va, struct page *pg)
{
	return map_fault_page(p, v, va, pg, free_anon_page);
}

/*
 * A page of a file mapping, mapped with the area's protection: for a read
 * the file's page in the cache, for a write a page of the process's own
 * filled from the file (past its end, zeros). -EIO when the page lies
 * wholly past the end (Linux: SIGBUS).
 */
static int file_fault(struct process *p, struct vm_area *v, u64 va, bool write)
{
	u64 off = (v->pgoff << PAGE_SHIFT) + (va - v->start);
	struct page *pg;

	if (off >= v->rf->size)
		return -EIO;
	if (!write) {
		/* A read maps the file's cached page, shared and read-only (mm/filemap.c). */
		pg = filemap_get_page(v->rf, off >> PAGE_SHIFT);
		if (!pg)
			return -ENOMEM;
		return map_fault_page(p, v, va, pg, filemap_put_page);
	}
	/* A write would copy the cached page at once: copy from the file instead. */
	pg = new_anon_page(GFP_KERNEL | __GFP_ZERO);
	if (!pg)
		return -ENOMEM;
	memcpy(page_address(pg), (const u8 *)v->rf->data + off, MIN(PAGE_SIZE, v->rf->size - off));
	return map_anon_page(p, v, va, pg);
}

/*
 * A page of an area over a shared memory object (mm/shmem.c): the
 * object's, for a read as for a write, so that every mapper sees the same
 * bytes. A private area (MAP_PRIVATE of a tmpfs file) gets it read-only
 * (page_pte_prot()): its write then faults again and copies (wp_page()).
 * -EIO past the object's end (an area mremap grew, a file truncated:
 * SIGBUS, as Linux).
 */
static int shmem_fault(struct process *p, struct vm_area *v, u64 va)
{
	struct page *pg;
	int err = shmem_get_page(v->shm, v->pgoff + ((va - v->start) >> PAGE_SHIFT), &pg);

	if (err)
		return err;
	return map_fault_page(p, v, va, pg, shmem_page_put);
}

/*
 * The whole 2 MiB stretch at start (aligned, inside v: thp_vma_allowable())
 * for a write fault in it: one order-9 block, zeroed, split into pages of
 * order 0 and mapped with 512 entries (mm/huge_memory.c says why and how
 * that differs from Linux). -EAGAIN when the stretch has a page mapped
 * already or no block is free: the caller maps the one page instead.
 */
static int do_anonymous_huge_page(struct process *p, struct vm_area *v, u64 start)
{
	u64 at = start;
	struct page *pg;
	int err;

	if (next_user_pte(p, &at, start + HPAGE_PMD_SIZE))
		return -EAGAIN;
	pg = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, HPAGE_PMD_ORDER);
	if (!pg) {
		__atomic_add_fetch(&thp_fault_fallback, 1, __ATOMIC_RELAXED);
		return -EAGAIN;
	}
	split_page(pg, HPAGE_PMD_ORDER);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		pg[i].mapcount = 1;
	err = arch_map_range(&p->mm, start, page_to_phys(pg), HPAGE_PMD_SIZE,
			     page_pte_prot(v, page_to_phys(pg)));
	if (err) {
		for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
			pg[i].mapcount = 0;
			__free_page(&pg[i]);
		}
		/* no memory for a table: the one page may still need fewer */
		return -EAGAIN;
	}
	__atomic_add_fetch(&nr_anon_pages, HPAGE_PMD_NR, __ATOMIC_RELAXED);
	__atomic_add_fetch(&thp_fault_alloc, 1, __ATOMIC_RELAXED);
	add_mm_rss(p, page_to_phys(pg), HPAGE_PMD_NR);
	return 0;
}

/*
 * A page of an anonymous private area, at its first touch (Linux's
 * do_anonymous_page()). A read needs no memory of its own: every such
 * page reads as zeros, so the one shared zero page is mapped, read-only
 * (page_pte_prot() never lets a write through to it), and the write that
 * may come later faults again and gets a copy (wp_page()). A write gets
 * a new page, zeroed: a freed page holds whatever its last owner left.
 */
static int do_anonymous_page(struct process *p, struct vm_area *v, u64 va, bool write)
{
	struct page *pg;

	if (!write) {
		phys_addr_t pa = zero_page_pa();
		int err;

		if (!pa)
			return -ENOMEM;
		err = arch_map_range(&p->mm, va, pa, PAGE_SIZE, page_pte_prot(v, pa));
		return err == -EEXIST ? 0 : err; /* mapped meanwhile: look again */
	}
	pg = new_anon_page(GFP_KERNEL | __GFP_ZERO);
	if (!pg)
		return -ENOMEM;
	return map_anon_page(p, v, va, pg);
}

/*
 * Map a page at va for v: a file area's from its file, a shared area's
 * from its object, an anonymous one's on its own. huge_ok: a program's
 * own fault, which may fill a huge page's stretch; the kernel's writes
 * into a process (get_user_page(): exec, restore) fill one page, so a
 * restored process holds the pages its image had, no more.
 */
static int fault_in(struct process *p, struct vm_area *v, u64 va, bool write, bool huge_ok)
{
	u64 huge = ALIGN_DOWN(va, HPAGE_PMD_SIZE);

	if (v->rf)
		return file_fault(p, v, va, write);
	if (v->shm)
		return shmem_fault(p, v, va);
	/* The whole stretch first, as Linux tries a huge PMD before the PTE level. */
	if (write && huge_ok && thp_vma_allowable(v, huge)) {
		int err = do_anonymous_huge_page(p, v, huge);

		if (err != -EAGAIN)
			return err;
	}
	return do_anonymous_page(p, v, va, write);
}

/*
 * A write to a shared page at va (the zero page, or one fork left mapped
 * in more than one process): Linux's do_wp_page(). The last mapper takes
 * the page over (made writable in place); any other gets a copy of its
 * own, and the shared page has one mapper fewer.
 */
static int wp_page(struct process *p, struct vm_area *v, u64 va, phys_addr_t old)
{
	struct page *pg;
	int err;

	if (page_mapcount(old) == 1)
		return arch_protect_range(&p->mm, va, PAGE_SIZE, page_pte_prot(v, old));
	pg = new_anon_page(GFP_KERNEL | (is_zero_pa(old) ? __GFP_ZERO : 0));
	if (!pg)
		return -ENOMEM;
	if (!is_zero_pa(old))
		memcpy(page_address(pg), __va(old), PAGE_SIZE);
	arch_unmap_range(&p->mm, va, PAGE_SIZE);
	err = arch_map_range(&p->mm, va, page_to_phys(pg), PAGE_SIZE,
			     page_pte_prot(v, page_to_phys(pg)));
	if (err) {
		/* The table is still there: the shared page goes back where it was. */
		free_anon_page(pg);
		arch_map_range(&p->mm, va, old, PAGE_SIZE, page_pte_prot(v, old));
		return err;
	}
	add_mm_rss(p, page_to_phys(pg), 1);
	add_mm_rss(p, old, -1);
	page_unmapped(old);
	return 0;
}

static int __handle_mm_fault(struct process *p, u64 addr, unsigned int flags, int *si_code)
{
	struct vm_area *v = find_vma(p, addr);
	bool write = flags & FAULT_FLAG_WRITE;
	u64 va = ALIGN_DOWN(addr, PAGE_SIZE);
	phys_addr_t pa;
	unsigned int prot;

	*si_code = SEGV_MAPERR;
	if (!v || addr >= TASK_SIZE)
		return -EFAULT;
	if (v->start > addr && (!(v->flags & VM_GROWSDOWN) || !expand_stack(p, v, addr)))
		return -EFAULT;
	*si_code = SEGV_ACCERR;
	if ((v->prot & PROT_NOACCESS) || (write && !(v->prot & PROT_WRITE)) ||
	    ((flags & FAULT_FLAG_INSTRUCTION) && !(v->prot & PROT_EXEC)))
		return -EFAULT;
	if (v->name)
		return -EFAULT; /* the kernel's pages are all there: nothing to fill in */
	if (arch_lookup(&p->mm, va, &pa, &prot)) {
		int err = fault_in(p, v, va, write, true);

		/*
		 * A private area over shared memory (MAP_PRIVATE of a tmpfs
		 * file) got the object's page read-only: a write copies it now
		 * (Linux's do_cow_fault()), not at a second fault.
		 */
		if (err || !write || !v->shm || vma_is_shared(v) ||
		    arch_lookup(&p->mm, va, &pa, &prot))
			return err;
	}
	if (write && !(prot & PROT_WRITE))
		return wp_page(p, v, va, pa);
	return 0;
}

int handle_mm_fault(struct process *p, u64 addr, unsigned int flags, int *si_code)
{
	int err;

	mutex_lock(&p->page_table_lock);
	err = __handle_mm_fault(p, addr, flags, si_code);
	mutex_unlock(&p->page_table_lock);
	return err;
}

void mm_populate(struct process *p, u64 start, u64 len)
{
	int si_code;

	for (u64 va = start; va < start + len; va += PAGE_SIZE) {
		struct vm_area *v = find_vma(p, va);
		unsigned int flags = 0;

		/* A kill ends the system call here, as Linux's populate checks. */
		if (READ_ONCE(p->pending_kill) || READ_ONCE(p->group_exit))
			return;
		if (!v || v->start > va || (v->prot & PROT_NOACCESS) || v->name)
			continue;
		if ((v->prot & PROT_WRITE) && !vma_is_shared(v))
			flags |= FAULT_FLAG_WRITE;
		if (handle_mm_fault(p, va, flags, &si_code))
			return;
	}
}

int get_user_page(struct process *p, u64 va, phys_addr_t *pap)
{
	struct vm_area *v = find_vma(p, va);
	unsigned int prot;
	int err;

	if (!v || v->start > va || v->name)
		return -EFAULT;
	va = ALIGN_DOWN(va, PAGE_SIZE);
	if (arch_lookup(&p->mm, va, pap, &prot)) {
		err = fault_in(p, v, va, true, false);
		if (err)
			return err;
		if (arch_lookup(&p->mm, va, pap, &prot))
			return -EFAULT;
	}
	/* A shared page is copied first (the write is this process's alone), unless the area is shared. */
	if (!vma_is_shared(v) && page_mapcount(*pap) > 1) {
		err = wp_page(p, v, va, *pap);
		if (err)
			return err;
		arch_lookup(&p->mm, va, pap, &prot);
	}
	return 0;
}

/*
 * Entries are cleared a batch at a time and the TLBs flushed once per
 * batch (Linux's mmu_gather): a flush per page sent an IPI per page to a
 * CPU that had run p, which made giving back 1 GiB take seconds, and
 * minutes when the host was busy. A batch's pages are given back only
 * after its flush, so no CPU can reach one through a stale entry.
 */
#define ZAP_BATCH 256

static void zap_flush(struct process *p, u64 first, u64 last, const phys_addr_t *pas,
		      unsigned int n, bool ours)
{
	arch_flush_user_range(&p->mm, first, last + PAGE_SIZE - first);
	for (unsigned int i = 0; ours && i < n; i++) {
		add_mm_rss(p, pas[i], -1);
		page_unmapped(pas[i]);
	}
}

/*
 * even_cows false (a punched hole): only the shmem object's pages go, and
 * a private area's own copies of them stay, as Linux's zap_details.
 */
static void __zap_page_range(struct process *p, u64 start, u64 end, bool ours, bool even_cows)
{
	phys_addr_t pas[ZAP_BATCH];
	unsigned int n = 0;
	u64 first = 0, last = 0, *e;

	for (u64 a = start; (e = next_user_pte(p, &a, end)); a += PAGE_SIZE) {
		phys_addr_t pa = pte_addr(READ_ONCE(*e));
		struct page *pg = pa_page(pa);

		if (!even_cows && (!pg || !(pg->flags & PG_shmem)))
			continue;
		if (!n)
			first = a;
		pas[n++] = pa;
		last = a;
		arch_unmap_range_noflush(&p->mm, a, PAGE_SIZE);
		if (n == ZAP_BATCH) {
			zap_flush(p, first, last, pas, n, ours);
			n = 0;
		}
	}
	if (n)
		zap_flush(p, first, last, pas, n, ours);
}

void zap_page_range(struct process *p, u64 start, u64 end, bool ours)
{
	mutex_lock(&p->page_table_lock);
	__zap_page_range(p, start, end, ours, true);
	mutex_unlock(&p->page_table_lock);
}

/*
 * exec moves an area to another process under both processes'
 * page_table_locks (kernel/exec.c), so once the lock of the process v
 * names is held, v stays there.
 */
struct process *lock_vma_mm(struct vm_area *v)
{
	for (;;) {
		struct process *p = READ_ONCE(v->vm_mm);

		mutex_lock(&p->page_table_lock);
		if (READ_ONCE(v->vm_mm) == p)
			return p;
		mutex_unlock(&p->page_table_lock);
	}
}

void zap_page_range_single(struct vm_area *v, u64 start, u64 end, bool even_cows)
{
	struct process *p = lock_vma_mm(v);

	__zap_page_range(p, start, end, true, even_cows);
	mutex_unlock(&p->page_table_lock);
}

/*
 * Protection changes (mprotect, fork's write protection) a batch at a
 * time (PROTECT_BATCH, on the stack), one TLB flush each, as zap's: a flush per page was an IPI per
 * page to every other CPU that had run the process. Safe to delay: the
 * callers hold mmap_lock for writing, so no fault can act on an entry
 * of the batch before its flush.
 */
struct protect_batch {
	u64 va[PROTECT_BATCH];
	unsigned int prot[PROTECT_BATCH];
	unsigned int n;
};

static int protect_flush(struct process *p, struct protect_batch *b)
{
	int err = b->n ? arch_protect_pages(&p->mm, b->va, b->prot, b->n) : 0;

	b->n = 0;
	return err;
}

static int protect_add(struct process *p, struct protect_batch *b, u64 va, unsigned int prot)
{
	b->va[b->n] = va;
	b->prot[b->n++] = prot;
	return b->n == PROTECT_BATCH ? protect_flush(p, b) : 0;
}

int protect_page_range(struct process *p, struct vm_area *v, u64 start, u64 end)
{
	struct protect_batch b = { .n = 0 };
	int err = 0;
	u64 *e;

	mutex_lock(&p->page_table_lock); /* a truncate may be zapping here (mm/shmem.c) */
	for (u64 a = start; !err && (e = next_user_pte(p, &a, end)); a += PAGE_SIZE)
		err = protect_add(p, &b, a, page_pte_prot(v, pte_addr(READ_ONCE(*e))));
	if (!err)
		err = protect_flush(p, &b);
	mutex_unlock(&p->page_table_lock);
	return err;
}

static int __copy_page_range(struct process *c, struct process *p, const struct vm_area *v,
			     struct protect_batch *b)
{
	u64 *e;

	for (u64 a = v->start; (e = next_user_pte(p, &a, v->end)); a += PAGE_SIZE) {
		phys_addr_t pa;
		int err;

		/*
		 * Copy-on-write: the page is mapped in both, one mapper more, and
		 * read-only in both from now on; the first write copies it.
		 */
		pa = pte_addr(READ_ONCE(*e));
		page_mapped(pa);
		err = arch_map_range(&c->mm, a, pa, PAGE_SIZE, page_pte_prot(v, pa));
		if (err) {
			page_unmapped(pa);
			return err;
		}
		add_mm_rss(c, pa, 1);
		err = protect_add(p, b, a, page_pte_prot(v, pa));
		if (err)
			return err; /* not on a mapped page; the child's teardown gives it back */
	}
	return protect_flush(p, b);
}

int copy_page_range(struct process *c, struct process *p, const struct vm_area *v)
{
	struct protect_batch b = { .n = 0 };
	int err;

	/* A shared area's pages stay in its object: the child faults them in from there. */
	if (vma_is_shared(v))
		return 0;
	/*
	 * Both processes' tables, against a truncate's zap (mm/shmem.c): it
	 * visits the parent's area before the child's, so a page is either
	 * gone from the parent before it is copied, or zapped in the child
	 * after. Only fork and exec hold two, the second a new process's
	 * that nobody else locks before another: no order is needed.
	 */
	mutex_lock(&p->page_table_lock);
	mutex_lock(&c->page_table_lock);
	err = __copy_page_range(c, p, v, &b);
	mutex_unlock(&c->page_table_lock);
	mutex_unlock(&p->page_table_lock);
	return err;
}

int user_page_fault(u64 addr, unsigned int flags, bool from_user, int *code)
{
	struct process *p = current_process();
	int err;

	*code = SEGV_MAPERR;
	if (!p || addr >= TASK_SIZE)
		return FAULT_BAD;
	down_read(&p->mmap_lock);
	err = handle_mm_fault(p, addr, flags, code);
	up_read(&p->mmap_lock);
	if (!err) {
		/* getrusage's ru_minflt: every fault served is minor here (threads count at once) */
		__atomic_fetch_add(&p->acct.min_flt, 1, __ATOMIC_RELAXED);
		return FAULT_DONE;
	}
	if (err == -ENOMEM) {
		/*
		 * No page for it: the OOM killer (mm/oom_kill.c) makes another
		 * process give memory back, and the access is tried again. When
		 * it cannot, or chose this one, the process goes. From a copy
		 * inside a system call it must first let go of what the call
		 * holds: the copy fails and the kill takes it on the way out.
		 */
		if (pagefault_out_of_memory(p))
			return FAULT_DONE;
		if (!READ_ONCE(p->oom_victim))
			pr_err("Out of memory: Killed process %d (%s) for a page at %llx (nothing else to kill)\n",
			       p->pid, p->name, (unsigned long long)addr);
		if (from_user)
			process_exit_signal(SIGKILL);
		WRITE_ONCE(p->pending_kill, SIGKILL);
		return FAULT_BAD;
	}
	if (err == -EIO) {
		*code = BUS_ADRERR;
		return FAULT_SIGBUS;
	}
	return FAULT_BAD;
}
