// SPDX-License-Identifier: MIT
/*
 * Demand paging of anonymous memory (mm/memory.c's do_anonymous_page()),
 * the lab "lazy" (docs/labs/lazy.md): faults taken by hand on a process
 * that never runs, then the entries they left looked up; and two real
 * programs, which fault on their stack, heap and bss from their first
 * instruction. Each case says which promise of docs/processes.md
 * ("Demand paging and faults") it holds the code to.
 */
#include <pagoda/arch.h>
#include <pagoda/gfp.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/string.h>

#define EXITED(code) (((code) & 0xff) << 8)
#define AREA_VA 0x40000000UL
#define AREA_PAGES 64

/* A process with one anonymous private area, readable and writable. */
static struct process *lazy_process(struct ktest *t)
{
	struct process *p = process_create("lazy");

	KEXPECT_TRUE(t, p != NULL);
	if (p && process_map_anon(p, AREA_VA, AREA_PAGES * PAGE_SIZE, PROT_WRITE)) {
		KEXPECT_TRUE(t, false);
		process_destroy(p);
		return NULL;
	}
	return p;
}

static int fault(struct process *p, u64 va, unsigned int flags)
{
	int code;

	return handle_mm_fault(p, va, flags, &code);
}

/* What maps va now: 0 and *pa, *prot; or -errno when nothing does. */
static int lookup(struct process *p, u64 va, phys_addr_t *pa, unsigned int *prot)
{
	return arch_lookup(&p->mm, ALIGN_DOWN(va, PAGE_SIZE), pa, prot);
}

/*
 * Mapping an area takes no page: nothing is there until it is touched.
 * Then a read of every page maps the one zero page everywhere,
 * read-only, and costs no memory: not in the process's RSS, not in
 * AnonPages.
 */
static void test_read_maps_the_zero_page(struct ktest *t)
{
	unsigned long anon = READ_ONCE(nr_anon_pages);
	struct process *p = lazy_process(t);
	phys_addr_t pa = 0;
	unsigned int prot = 0;
	int wrong = 0;

	if (!p)
		return;
	KEXPECT_NE(t, lookup(p, AREA_VA, &pa, &prot), 0);
	for (int i = 0; i < AREA_PAGES; i++) {
		u64 va = AREA_VA + i * PAGE_SIZE + 8;

		/* counted, not expected one by one: a stub fails 64 times alike */
		if (fault(p, va, 0) || lookup(p, va, &pa, &prot) || pa != zero_page_pa() ||
		    (prot & PROT_WRITE) || !(prot & PROT_USER))
			wrong++;
	}
	KEXPECT_EQ(t, wrong, 0);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), 0);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon);
	process_destroy(p);
}

/*
 * A write gets a page of the process's own: writable, counted once in
 * RSS and AnonPages, and zeroed although the allocator's free pages were
 * just filled with 0xa5 (a page holds what its last owner left). When
 * the process goes, so do its pages.
 */
static void test_write_maps_an_own_zeroed_page(struct ktest *t)
{
	enum { DIRTY = 128, TOUCH = 16 };
	static struct page *dirty[DIRTY];
	unsigned long anon = READ_ONCE(nr_anon_pages);
	struct process *p;
	int n = 0, bad_map = 0, not_zero = 0;
	phys_addr_t pa, seen[TOUCH];
	unsigned int prot;

	/* Dirty the pages the allocator hands out next (its per-CPU lists are LIFO). */
	while (n < DIRTY && (dirty[n] = alloc_page(GFP_KERNEL)))
		memset(page_address(dirty[n++]), 0xa5, PAGE_SIZE);
	while (n)
		__free_page(dirty[--n]);
	p = lazy_process(t);
	if (!p)
		return;
	for (int i = 0; i < TOUCH; i++) {
		u64 va = AREA_VA + i * PAGE_SIZE;
		const u8 *b;

		seen[i] = 0;
		if (fault(p, va, FAULT_FLAG_WRITE) || lookup(p, va, &pa, &prot) ||
		    pa == zero_page_pa() || !(prot & PROT_WRITE)) {
			bad_map++;
			continue;
		}
		seen[i] = pa;
		for (int j = 0; j < i; j++)
			bad_map += seen[j] == pa;
		b = __va(pa);
		for (unsigned long k = 0; k < PAGE_SIZE; k++)
			not_zero += b[k] != 0;
	}
	KEXPECT_EQ(t, bad_map, 0);
	KEXPECT_EQ(t, not_zero, 0);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), TOUCH);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon + TOUCH);
	process_destroy(p);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon);
}

/*
 * A write after a read: the zero page is replaced by a page of the
 * process's own, and the zero page still reads as zeros. A second fault
 * on a page already there changes nothing (another CPU's fault came
 * first, or the TLB was stale).
 */
static void test_write_after_read(struct ktest *t)
{
	struct process *p = lazy_process(t);
	phys_addr_t pa = 0, again = 0;
	unsigned int prot = 0;
	const u8 *zero;
	int not_zero = 0;

	if (!p)
		return;
	KEXPECT_EQ(t, fault(p, AREA_VA, 0), 0);
	KEXPECT_EQ(t, fault(p, AREA_VA, FAULT_FLAG_WRITE), 0);
	KEXPECT_EQ(t, lookup(p, AREA_VA, &pa, &prot), 0);
	KEXPECT_NE(t, pa, zero_page_pa());
	KEXPECT_TRUE(t, prot & PROT_WRITE);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), 1);
	KEXPECT_EQ(t, fault(p, AREA_VA, FAULT_FLAG_WRITE), 0);
	KEXPECT_EQ(t, lookup(p, AREA_VA, &again, &prot), 0);
	KEXPECT_EQ(t, again, pa);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), 1);
	zero = __va(zero_page_pa());
	for (unsigned long k = 0; k < PAGE_SIZE; k++)
		not_zero += zero[k] != 0;
	KEXPECT_EQ(t, not_zero, 0);
	process_destroy(p);
}

/* Programs: hello checks its stack, brk and mmap from inside; forktest its bss across fork. */
static void test_programs_run(struct ktest *t)
{
	static const char *const hello[] = { "/bin/hello", "one", "two" };
	static const char *const fork[] = { "/bin/forktest" };
	const char *why;

	KEXPECT_EQ(t, process_run("/bin/hello", 3, hello, &why), EXITED(0));
	KEXPECT_EQ(t, process_run("/bin/forktest", 1, fork, &why), EXITED(0));
}

static struct ktest_case lazy_cases[] = {
	KTEST_CASE(test_read_maps_the_zero_page),
	KTEST_CASE(test_write_maps_an_own_zeroed_page),
	KTEST_CASE(test_write_after_read),
	KTEST_CASE(test_programs_run),
	{}
};
KTEST_SUITE_FULL(lazy, .cases = lazy_cases, .kernel_only = true);
