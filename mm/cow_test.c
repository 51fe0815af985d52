// SPDX-License-Identifier: MIT
/*
 * Copy-on-write fork (mm/memory.c's copy_page_range() and wp_page()), the
 * lab "cow" (docs/labs/cow.md). A parent that never runs gets pages by
 * faults taken by hand; a child is made from it as fork makes one
 * (dup_vma(), then copy_page_range()); then writes are faulted in either
 * and the entries, the pages' bytes and the counters are looked at. Each
 * case holds the code to one promise of docs/processes.md
 * ("Copy-on-write"), and each names the wrong solutions it catches.
 * The suite cow_threads forks a real program whose second thread writes
 * during the fork (user/libc/forkrace.c): the TLB's part, which no entry
 * shows.
 * A real fork (forktest) is the suite lazy's: a wrong copy-on-write can
 * leave forktest's parent waiting forever, and a hang costs the whole
 * boot's time limit, so the lab runs that boot only once these pass.
 */
#include <pagoda/arch.h>
#include <pagoda/gfp.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/string.h>

/* A wait status: exited with code. */
#define EXITED(code) (((code) & 0xff) << 8)

#define AREA_VA 0x40000000UL
#define WRITTEN 8	/* pages the parent wrote: its own, each with a pattern */
#define READ 4		/* pages it only read: the zero page */
#define AREA_PAGES 16	/* the rest: never touched */

static int fault(struct process *p, u64 va, unsigned int flags)
{
	int code;

	return handle_mm_fault(p, va, flags, &code);
}

static int lookup(struct process *p, u64 va, phys_addr_t *pa, unsigned int *prot)
{
	return arch_lookup(&p->mm, va, pa, prot);
}

static u64 page_va(int i)
{
	return AREA_VA + (u64)i * PAGE_SIZE;
}

/* The byte pattern of page i in generation gen: no two pages or generations alike. */
static u8 pattern(int i, int gen)
{
	return (u8)(0x11 * (i + 1) + 0x40 * gen);
}

static int mapcount(phys_addr_t pa)
{
	return __atomic_load_n(&pfn_to_page(PHYS_PFN(pa))->mapcount, __ATOMIC_ACQUIRE);
}

/* How many bytes of the page mapped at va in p are not b (a page: PAGE_SIZE). */
static unsigned long bytes_not(struct process *p, u64 va, u8 b)
{
	const u8 *s;
	phys_addr_t pa;
	unsigned long n = 0;

	if (lookup(p, va, &pa, NULL))
		return PAGE_SIZE;
	s = __va(pa);
	for (unsigned long k = 0; k < PAGE_SIZE; k++)
		n += s[k] != b;
	return n;
}

/*
 * What a user's write does, by hand: the fault a write takes, then the
 * bytes stored through the entry it left (a write must never land on a
 * page the entry does not give write access to).
 */
static int user_write(struct process *p, u64 va, u8 b)
{
	phys_addr_t pa;
	unsigned int prot;
	int err = fault(p, va, FAULT_FLAG_WRITE);

	if (err)
		return err;
	if (lookup(p, va, &pa, &prot) || !(prot & PROT_WRITE))
		return -EFAULT;
	memset(__va(pa), b, PAGE_SIZE);
	return 0;
}

/*
 * A parent with WRITTEN pages of its own (pattern generation 0), READ
 * pages of the zero page and the rest untouched, and its child. NULL
 * (and a failed expectation) when either could not be made.
 */
static struct process *forked(struct ktest *t, struct process **childp)
{
	struct process *p = process_create("cow-parent"), *c = process_create("cow-child");
	struct vm_area *v;
	int bad = 0;

	*childp = NULL;
	if (!p || !c || process_map_anon(p, AREA_VA, AREA_PAGES * PAGE_SIZE, PROT_WRITE))
		goto fail;
	for (int i = 0; i < WRITTEN; i++)
		bad += user_write(p, page_va(i), pattern(i, 0)) != 0;
	for (int i = WRITTEN; i < WRITTEN + READ; i++)
		bad += fault(p, page_va(i), 0) != 0;
	v = find_vma(p, AREA_VA);
	if (bad || !v || dup_vma(c, v) || copy_page_range(c, p, v))
		goto fail;
	*childp = c;
	return p;
fail:
	KEXPECT_TRUE(t, false);
	if (c)
		process_destroy(c);
	if (p)
		process_destroy(p);
	return NULL;
}

/* Fill the allocator's next free pages with b: a page freed too early is then overwritten. */
static void dirty_free_pages(u8 b)
{
	enum { DIRTY = 128 };
	static struct page *dirty[DIRTY];
	int n = 0;

	while (n < DIRTY && (dirty[n] = alloc_page(GFP_KERNEL)))
		memset(page_address(dirty[n++]), b, PAGE_SIZE);
	while (n)
		__free_page(dirty[--n]);
}

/*
 * Right after fork nothing is copied: every page the parent had is mapped
 * at the same address in the child, read-only in both (else a write
 * through either reaches the other's memory), counted twice in mapcount
 * and once in each RSS, and AnonPages has not grown. Read pages stay the
 * zero page, untouched ones stay untouched. Catches: a child mapped with
 * the area's protection, a parent left writable, a copy made at fork.
 */
static void test_fork_shares_read_only(struct ktest *t)
{
	unsigned long anon = READ_ONCE(nr_anon_pages);
	struct process *c, *p = forked(t, &c);
	int not_shared = 0, writable = 0, miscounted = 0, wrong_rest = 0;

	if (!p)
		return;
	for (int i = 0; i < WRITTEN; i++) {
		phys_addr_t pp, cp;
		unsigned int pprot, cprot;

		if (lookup(p, page_va(i), &pp, &pprot) || lookup(c, page_va(i), &cp, &cprot) ||
		    pp != cp) {
			not_shared++;
			continue;
		}
		writable += !!(pprot & PROT_WRITE) + !!(cprot & PROT_WRITE);
		miscounted += mapcount(pp) != 2;
	}
	for (int i = WRITTEN; i < AREA_PAGES; i++) {
		phys_addr_t cp;
		bool mapped = !lookup(c, page_va(i), &cp, NULL);

		wrong_rest += i < WRITTEN + READ ? !mapped || cp != zero_page_pa() : mapped;
	}
	KEXPECT_EQ(t, not_shared, 0);
	KEXPECT_EQ(t, writable, 0);
	KEXPECT_EQ(t, miscounted, 0);
	KEXPECT_EQ(t, wrong_rest, 0);
	KEXPECT_EQ(t, READ_ONCE(c->mm.rss), WRITTEN);
	KEXPECT_EQ(t, READ_ONCE(p->mm.rss), WRITTEN);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon + WRITTEN);
	process_destroy(c);
	process_destroy(p);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon);
}

/*
 * The child writes every shared page: each write gets the child a page of
 * its own holding the parent's bytes, and the parent's page keeps its
 * bytes, now mapped once, even after the allocator has handed its free
 * pages out again (a page freed while the parent still maps it would be
 * overwritten there). Then the parent writes: the last mapper takes its
 * page over in place, no copy. Catches: a shared page made writable in
 * place, a copy that is not a copy, the old page freed instead of
 * unmapped once.
 */
static void test_child_write_copies(struct ktest *t)
{
	unsigned long anon = READ_ONCE(nr_anon_pages);
	struct process *c, *p = forked(t, &c);
	int not_copied = 0, parent_changed = 0, not_taken_over = 0;

	if (!p)
		return;
	for (int i = 0; i < WRITTEN; i++) {
		phys_addr_t before, after;

		lookup(c, page_va(i), &before, NULL);
		/* The child's copy must first hold the parent's bytes. */
		if (fault(c, page_va(i), FAULT_FLAG_WRITE) || lookup(c, page_va(i), &after, NULL) ||
		    after == before || bytes_not(c, page_va(i), pattern(i, 0))) {
			not_copied++;
			continue;
		}
		memset(__va(after), pattern(i, 1), PAGE_SIZE);
	}
	KEXPECT_EQ(t, not_copied, 0);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon + 2 * WRITTEN);
	dirty_free_pages(0x5a);
	for (int i = 0; i < WRITTEN; i++) {
		phys_addr_t pa, again;

		parent_changed += bytes_not(p, page_va(i), pattern(i, 0)) != 0;
		lookup(p, page_va(i), &pa, NULL);
		if (mapcount(pa) != 1 || user_write(p, page_va(i), pattern(i, 2)) ||
		    lookup(p, page_va(i), &again, NULL) || again != pa)
			not_taken_over++;
	}
	KEXPECT_EQ(t, parent_changed, 0);
	KEXPECT_EQ(t, not_taken_over, 0);
	/* The parent's writes copied nothing, and left the child's bytes alone. */
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon + 2 * WRITTEN);
	for (int i = 0; i < WRITTEN; i++)
		KEXPECT_EQ(t, bytes_not(c, page_va(i), pattern(i, 1)), 0);
	process_destroy(p);
	process_destroy(c);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon);
}

/*
 * Whichever goes first, the pages outlive it exactly as long as the
 * other maps them: the parent exits, the child still reads the bytes
 * (even with the allocator's free pages dirtied), then writes them in
 * place as the last mapper; when it exits too AnonPages is back where
 * it was. Catches: a page freed with its first mapper, a page never
 * freed (the old page's mapcount not dropped at a copy).
 */
static void test_exit_order(struct ktest *t)
{
	unsigned long anon = READ_ONCE(nr_anon_pages);
	struct process *c, *p = forked(t, &c);
	int lost = 0, copied = 0;

	if (!p)
		return;
	process_destroy(p);
	dirty_free_pages(0xa5);
	for (int i = 0; i < WRITTEN; i++) {
		phys_addr_t pa, again;

		lost += bytes_not(c, page_va(i), pattern(i, 0)) != 0;
		lookup(c, page_va(i), &pa, NULL);
		if (user_write(c, page_va(i), pattern(i, 3)) || lookup(c, page_va(i), &again, NULL) ||
		    again != pa)
			copied++;
	}
	KEXPECT_EQ(t, lost, 0);
	KEXPECT_EQ(t, copied, 0);
	process_destroy(c);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon);
	/* And a copy made before the exit is freed too: nothing leaks. */
	p = forked(t, &c);
	if (!p)
		return;
	KEXPECT_EQ(t, user_write(c, page_va(0), 1), 0);
	KEXPECT_EQ(t, user_write(p, page_va(1), 2), 0);
	process_destroy(c);
	process_destroy(p);
	KEXPECT_EQ(t, READ_ONCE(nr_anon_pages), anon);
}

static struct ktest_case cow_cases[] = {
	KTEST_CASE(test_fork_shares_read_only),
	KTEST_CASE(test_child_write_copies),
	KTEST_CASE(test_exit_order),
	{}
};
KTEST_SUITE_FULL(cow, .cases = cow_cases, .kernel_only = true);

/*
 * fork's write protection reaches every CPU: user/libc/forkrace.c forks
 * eight times while a thread of the parent writes a counter on another
 * CPU, and each child checks that its counter stays still. A fork that
 * protects the parent's entries without flushing the TLB lets the writer
 * keep storing into the page the child shares. Needs two CPUs to mean
 * anything; with one it passes trivially. A suite of its own, so the
 * lab boots it only once the cases above pass: with a parent left
 * writable, parent and child scribble on each other and the program
 * may never end.
 */
static void test_fork_while_a_thread_writes(struct ktest *t)
{
	static const char *const argv[] = { "/bin/forkrace" };
	const char *why = NULL;

	KEXPECT_EQ(t, process_run("/bin/forkrace", 1, argv, &why), EXITED(0));
}

static struct ktest_case cow_threads_cases[] = {
	KTEST_CASE(test_fork_while_a_thread_writes),
	{}
};
KTEST_SUITE_FULL(cow_threads, .cases = cow_threads_cases, .kernel_only = true);
