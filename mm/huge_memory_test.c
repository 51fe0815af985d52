// SPDX-License-Identifier: MIT
/*
 * Transparent huge pages (mm/huge_memory.c, do_anonymous_huge_page() in
 * mm/memory.c): faults taken by hand on a process that never runs, then
 * its entries looked up. A write in an empty 2 MiB stretch that the area
 * holds fills the stretch (512 distinct, zeroed, writable pages, counted
 * in RSS and AnonPages, each freed alone); everything that should stop
 * it does: the knob, the advice, an area too small or off the boundary,
 * a page already there, and the kernel's own writes (get_user_page()).
 * user/libc/madvtest.c holds the same behaviour to Linux's from user mode.
 */
#include <pagoda/arch.h>
#include <pagoda/huge_mm.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>

#define AREA_VA 0x40000000UL	/* 2 MiB aligned */

static struct process *thp_process(struct ktest *t, u64 va, u64 size)
{
	struct process *p = process_create("thp");

	KEXPECT_TRUE(t, p != NULL);
	if (p && process_map_anon(p, va, size, PROT_WRITE)) {
		KEXPECT_TRUE(t, false);
		process_destroy(p);
		return NULL;
	}
	return p;
}

static int write_fault(struct process *p, u64 va)
{
	int code;

	return handle_mm_fault(p, va, FAULT_FLAG_WRITE, &code);
}

/* Pages mapped in [va, va + size). */
static unsigned long present(struct process *p, u64 va, u64 size)
{
	unsigned long n = 0;

	for (u64 a = va; a < va + size; a += PAGE_SIZE) {
		phys_addr_t pa;
		unsigned int prot;

		n += !arch_lookup(&p->mm, a, &pa, &prot);
	}
	return n;
}

static void test_thp_fills_the_stretch(struct ktest *t)
{
	int saved = transparent_hugepage, wrong = 0;
	unsigned long anon = READ_ONCE(nr_anon_pages), allocs = READ_ONCE(thp_fault_alloc);
	struct process *p;
	phys_addr_t first = 0;

	transparent_hugepage = THP_ALWAYS;
	p = thp_process(t, AREA_VA, 2 * HPAGE_PMD_SIZE);
	if (!p)
		goto out;
	KEXPECT_EQ(t, write_fault(p, AREA_VA + HPAGE_PMD_SIZE + 5 * PAGE_SIZE + 8), 0);
	KEXPECT_EQ(t, present(p, AREA_VA, HPAGE_PMD_SIZE), 0);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		u64 va = AREA_VA + HPAGE_PMD_SIZE + i * PAGE_SIZE;
		const u64 *w;
		phys_addr_t pa;
		unsigned int prot;

		if (arch_lookup(&p->mm, va, &pa, &prot) || !(prot & PROT_WRITE)) {
			wrong++;
			continue;
		}
		if (!i)
			first = pa;
		wrong += pa != first + i * PAGE_SIZE || pa == zero_page_pa();
		w = __va(pa);
		for (unsigned long k = 0; k < PAGE_SIZE / 8; k++)
			wrong += w[k] != 0;
	}
	KEXPECT_EQ(t, wrong, 0);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), HPAGE_PMD_NR);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon + HPAGE_PMD_NR);
	KEXPECT_EQ(t, READ_ONCE(thp_fault_alloc), allocs + 1);
	/* Half of it unmapped: those pages go one by one, the rest stay. */
	KEXPECT_EQ(t, process_unmap(p, AREA_VA + HPAGE_PMD_SIZE + HPAGE_PMD_SIZE / 2,
				    AREA_VA + 2 * HPAGE_PMD_SIZE), 0);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), HPAGE_PMD_NR / 2);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon + HPAGE_PMD_NR / 2);
	process_destroy(p);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon);
out:
	transparent_hugepage = saved;
}

/* One write fault at va of a fresh area [area, area + size): pages it mapped. */
static unsigned long one_write(struct ktest *t, u64 area, u64 size, u64 va, int mode,
			       unsigned int vm_set, bool read_first)
{
	int saved = transparent_hugepage, code;
	struct process *p = thp_process(t, area, size);
	unsigned long n = 0;

	if (!p)
		return 0;
	transparent_hugepage = mode;
	if (vm_set)
		KEXPECT_EQ(t, vma_modify_flags(p, area, area + size, vm_set, 0), 0);
	if (read_first)
		KEXPECT_EQ(t, handle_mm_fault(p, va + PAGE_SIZE, 0, &code), 0);
	KEXPECT_EQ(t, write_fault(p, va), 0);
	n = READ_ONCE(p->mm.rss);
	transparent_hugepage = saved;
	process_destroy(p);
	return n;
}

static void test_thp_only_where_allowed(struct ktest *t)
{
	const u64 huge = HPAGE_PMD_SIZE, va = AREA_VA + 8;

	KEXPECT_EQ(t, one_write(t, AREA_VA, huge, va, THP_NEVER, 0, false), 1);
	KEXPECT_EQ(t, one_write(t, AREA_VA, huge, va, THP_MADVISE, 0, false), 1);
	KEXPECT_EQ(t, one_write(t, AREA_VA, huge, va, THP_MADVISE, VM_HUGEPAGE, false),
		   HPAGE_PMD_NR);
	KEXPECT_EQ(t, one_write(t, AREA_VA, huge, va, THP_ALWAYS, VM_NOHUGEPAGE, false), 1);
	/* the area one page short of the stretch, or off its boundary */
	KEXPECT_EQ(t, one_write(t, AREA_VA, huge - PAGE_SIZE, va, THP_ALWAYS, 0, false), 1);
	KEXPECT_EQ(t, one_write(t, AREA_VA + PAGE_SIZE, huge, va + PAGE_SIZE, THP_ALWAYS, 0,
				false), 1);
	/* a read mapped the zero page next door first */
	KEXPECT_EQ(t, one_write(t, AREA_VA, huge, va, THP_ALWAYS, 0, true), 1);
	KEXPECT_EQ(t, one_write(t, AREA_VA, huge, va, THP_ALWAYS, 0, false), HPAGE_PMD_NR);
}

/* The kernel's writes into a process (exec, restore) take one page. */
static void test_thp_not_for_the_kernels_writes(struct ktest *t)
{
	int saved = transparent_hugepage;
	struct process *p = thp_process(t, AREA_VA, HPAGE_PMD_SIZE);
	phys_addr_t pa;

	if (!p)
		return;
	transparent_hugepage = THP_ALWAYS;
	KEXPECT_EQ(t, get_user_page(p, AREA_VA + 8, &pa), 0);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), 1);
	KEXPECT_EQ(t, present(p, AREA_VA, HPAGE_PMD_SIZE), 1);
	transparent_hugepage = saved;
	process_destroy(p);
}

static struct ktest_case thp_cases[] = {
	KTEST_CASE(test_thp_fills_the_stretch),
	KTEST_CASE(test_thp_only_where_allowed),
	KTEST_CASE(test_thp_not_for_the_kernels_writes),
	{}
};
KTEST_SUITE_FULL(thp, .cases = thp_cases, .kernel_only = true);
