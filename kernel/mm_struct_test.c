// SPDX-License-Identifier: MIT
/*
 * The page-table contract of arch.h, checked the same way on every arch: a
 * second address space gets user pages that it alone sees, shares the
 * kernel half with init_mm (even for vmalloc areas made after it was
 * created), and gives its table pages back when destroyed; overlaps are
 * -EEXIST and bad ranges or permissions -EINVAL, with nothing changed.
 */
#include <pagoda/arch.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/vmalloc.h>

/* Spread over separate tables at every level, so each needs its own. */
static const u64 user_vas[] = {
	0x400000,             /* the classic ELF base */
	0x40000000,           /* another 1 GiB region */
	0x7f0000000000,       /* another 512 GiB region, where stacks go */
};

#define USER_RW (PROT_PRESENT | PROT_WRITE | PROT_USER)
/* Far from vmalloc's own areas, which start at the window's bottom. */
#define KERNEL_TEST_VA (VMALLOC_END - 128 * PAGE_SIZE)

static void test_user_pages_only_in_their_mm(struct ktest *t)
{
	struct mm_struct mm;
	struct page *pg[ARRAY_SIZE(user_vas)];
	phys_addr_t pa;
	unsigned int prot;

	KASSERT_EQ(t, arch_mm_init(&mm), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(user_vas); i++) {
		pg[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KASSERT_TRUE(t, pg[i] != NULL);
		KEXPECT_EQ(t, arch_map_range(&mm, user_vas[i], page_to_phys(pg[i]), PAGE_SIZE,
					     USER_RW | (i == 0 ? PROT_EXEC : 0)), 0);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(user_vas); i++) {
		KEXPECT_EQ(t, arch_lookup(&mm, user_vas[i] + 40, &pa, &prot), 0);
		KEXPECT_EQ(t, pa, page_to_phys(pg[i]) + 40);
		KEXPECT_EQ(t, prot, USER_RW | (i == 0 ? PROT_EXEC : 0));
		/* The kernel's own address space is untouched. */
		KEXPECT_EQ(t, arch_lookup(&init_mm, user_vas[i], &pa, &prot), -ENOENT);
		KEXPECT_EQ(t, arch_page_prot(&init_mm, user_vas[i]), 0);
	}
	KEXPECT_EQ(t, arch_page_prot(&mm, user_vas[0] + PAGE_SIZE), 0);
	KEXPECT_EQ(t, arch_page_prot(&mm, 0), 0);

	KEXPECT_EQ(t, arch_protect_range(&mm, user_vas[1], PAGE_SIZE, PROT_PRESENT | PROT_USER), 0);
	KEXPECT_EQ(t, arch_page_prot(&mm, user_vas[1]), PROT_PRESENT | PROT_USER);
	KEXPECT_EQ(t, arch_virt_to_phys(&mm, user_vas[1]), page_to_phys(pg[1]));
	KEXPECT_EQ(t, arch_unmap_range(&mm, user_vas[2], PAGE_SIZE), 0);
	KEXPECT_EQ(t, arch_lookup(&mm, user_vas[2], &pa, &prot), -ENOENT);

	arch_mm_free(&mm);
	KEXPECT_TRUE(t, mm.pgd == NULL);
	for (unsigned int i = 0; i < ARRAY_SIZE(user_vas); i++)
		__free_page(pg[i]);
}

static void test_kernel_half_is_shared(struct ktest *t)
{
	static u64 cell;
	struct mm_struct mm;
	phys_addr_t pa_k, pa_u;
	unsigned int prot_k, prot_u;
	u64 kernel_vas[3];
	void *buf;

	KASSERT_EQ(t, arch_mm_init(&mm), 0);
	/* A vmalloc area made after the mm: it must appear there too. */
	buf = vmalloc(3 * PAGE_SIZE);
	KASSERT_TRUE(t, buf != NULL);
	kernel_vas[0] = (u64)&cell;
	kernel_vas[1] = (u64)test_kernel_half_is_shared;
	kernel_vas[2] = (u64)buf + PAGE_SIZE;
	for (unsigned int i = 0; i < ARRAY_SIZE(kernel_vas); i++) {
		KEXPECT_EQ(t, arch_lookup(&init_mm, kernel_vas[i], &pa_k, &prot_k), 0);
		KEXPECT_EQ(t, arch_lookup(&mm, kernel_vas[i], &pa_u, &prot_u), 0);
		KEXPECT_EQ(t, pa_u, pa_k);
		KEXPECT_EQ(t, prot_u, prot_k);
		KEXPECT_EQ(t, prot_k & PROT_USER, 0);
	}
	/* A user mm cannot change the kernel half. */
	KEXPECT_EQ(t, arch_unmap_range(&mm, (u64)buf, PAGE_SIZE), -EINVAL);
	KEXPECT_EQ(t, arch_protect_range(&mm, (u64)buf, PAGE_SIZE, USER_RW), -EINVAL);
	vfree(buf);
	KEXPECT_EQ(t, arch_page_prot(&mm, kernel_vas[2]), 0);
	arch_mm_free(&mm);
}

/*
 * 64 rounds of a user mm with one page mapped at each of vas, then freed.
 * Each round takes several table pages, so a leak of any of them would
 * add up to hundreds of pages, far above the 32 allowed.
 */
static void map_and_free_rounds(struct ktest *t, const u64 *vas, unsigned int nr)
{
	struct page *pg = alloc_page(GFP_KERNEL);
	unsigned long before;
	int err = 0;

	if (!pg) {
		ktest_fail(t, __FILE__, __LINE__, "alloc_page() failed");
		return;
	}
	before = nr_free_pages();
	for (int round = 0; round < 64 && !err; round++) {
		struct mm_struct mm = { 0 };

		err = arch_mm_init(&mm);
		for (unsigned int i = 0; i < nr && !err; i++)
			err = arch_map_range(&mm, vas[i], page_to_phys(pg), PAGE_SIZE, USER_RW);
		if (mm.pgd)
			arch_mm_free(&mm);
	}
	KEXPECT_EQ(t, err, 0);
	KEXPECT_LT(t, before - nr_free_pages(), 32);
	__free_page(pg);
}

static void test_destroy_frees_tables(struct ktest *t)
{
	map_and_free_rounds(t, user_vas, ARRAY_SIZE(user_vas));
}

/* A fresh user mm and a page to map in it (or try to), for one refusal test. */
static void with_mm_and_page(struct ktest *t,
			     void (*body)(struct ktest *t, struct mm_struct *mm, phys_addr_t pa))
{
	struct page *pg = alloc_page(GFP_KERNEL);
	struct mm_struct mm;

	KASSERT_TRUE(t, pg != NULL);
	if (arch_mm_init(&mm) == 0) {
		body(t, &mm, page_to_phys(pg));
		arch_mm_free(&mm);
	} else {
		ktest_fail(t, __FILE__, __LINE__, "arch_mm_init() failed");
	}
	__free_page(pg);
}

static void overlap_is_eexist(struct ktest *t, struct mm_struct *mm, phys_addr_t pa)
{
	u64 uva = user_vas[0], kva = KERNEL_TEST_VA;

	KASSERT_EQ(t, arch_map_range(mm, uva + PAGE_SIZE, pa, PAGE_SIZE, USER_RW), 0);
	KEXPECT_EQ(t, arch_map_range(mm, uva + PAGE_SIZE, pa, PAGE_SIZE, USER_RW), -EEXIST);
	/* Partly over a mapped page: refused whole, the free page stays free. */
	KEXPECT_EQ(t, arch_map_range(mm, uva, pa, 2 * PAGE_SIZE, USER_RW), -EEXIST);
	KEXPECT_EQ(t, arch_page_prot(mm, uva), 0);
	KEXPECT_EQ(t, arch_virt_to_phys(mm, uva + PAGE_SIZE), pa);

	KASSERT_EQ(t, arch_map_range(&init_mm, kva + PAGE_SIZE, pa, PAGE_SIZE,
				     PROT_PRESENT), 0);
	KEXPECT_EQ(t, arch_map_range(&init_mm, kva, pa, 2 * PAGE_SIZE, PROT_PRESENT), -EEXIST);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, kva), 0);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, kva + PAGE_SIZE, PAGE_SIZE), 0);
}

static void test_overlap_is_eexist(struct ktest *t)
{
	with_mm_and_page(t, overlap_is_eexist);
}

static void bad_range_is_einval(struct ktest *t, struct mm_struct *mm, phys_addr_t pa)
{
	u64 uva = user_vas[0], kva = KERNEL_TEST_VA;

	/* init_mm: only the vmalloc window, never user pages. */
	KEXPECT_EQ(t, arch_map_range(&init_mm, KERNEL_VIRT, pa, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, PAGE_OFFSET, pa, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, uva, pa, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, VMALLOC_END - PAGE_SIZE, pa, 2 * PAGE_SIZE,
				     PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, kva, pa, PAGE_SIZE, USER_RW), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, kva, pa, PAGE_SIZE, PROT_WRITE), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, kva, pa, 0, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, kva, pa + 8, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, kva, pa, PAGE_SIZE + 8, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, kva, pa, PAGE_SIZE, PROT_PRESENT | 0x100), -EINVAL);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, kva), 0);

	/* A user mm: only below TASK_SIZE, only user pages, no wrap-around. */
	KEXPECT_EQ(t, arch_map_range(mm, kva, pa, PAGE_SIZE, USER_RW), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(mm, uva, pa, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(mm, TASK_SIZE - PAGE_SIZE, pa, 2 * PAGE_SIZE, USER_RW),
		   -EINVAL);
	KEXPECT_EQ(t, arch_map_range(mm, TASK_SIZE, pa, PAGE_SIZE, USER_RW), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(mm, uva, pa, -(u64)PAGE_SIZE, USER_RW), -EINVAL);
	KEXPECT_EQ(t, arch_page_prot(mm, uva), 0);
	KEXPECT_EQ(t, arch_map_range(mm, TASK_SIZE - PAGE_SIZE, pa, PAGE_SIZE, USER_RW), 0);
	KEXPECT_EQ(t, arch_unmap_range(mm, TASK_SIZE - PAGE_SIZE, PAGE_SIZE), 0);

	/* Protect and unmap need every page mapped; a refusal changes nothing. */
	KASSERT_EQ(t, arch_map_range(mm, uva, pa, PAGE_SIZE, USER_RW), 0);
	KEXPECT_EQ(t, arch_unmap_range(mm, uva, 2 * PAGE_SIZE), -EINVAL);
	KEXPECT_EQ(t, arch_protect_range(mm, uva, 2 * PAGE_SIZE, PROT_PRESENT | PROT_USER),
		   -EINVAL);
	KEXPECT_EQ(t, arch_page_prot(mm, uva), USER_RW);
	KEXPECT_EQ(t, arch_protect_range(mm, uva, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_unmap_range(mm, uva, 0), -EINVAL);
	KEXPECT_EQ(t, arch_unmap_range(mm, uva, PAGE_SIZE), 0);
	KEXPECT_EQ(t, arch_unmap_range(mm, uva, PAGE_SIZE), -EINVAL);
	KEXPECT_EQ(t, arch_protect_range(mm, uva, PAGE_SIZE, USER_RW), -EINVAL);

	/* Lookups of nothing, or of a non-canonical address, find nothing. */
	KEXPECT_EQ(t, arch_lookup(mm, 1ULL << 52, NULL, NULL), -ENOENT);
	KEXPECT_EQ(t, arch_lookup(&init_mm, 0x8000000000000000ULL, NULL, NULL), -ENOENT);
}

static void test_bad_range_is_einval(struct ktest *t)
{
	with_mm_and_page(t, bad_range_is_einval);
}

/*
 * A range that starts in the middle of what a missing table would cover,
 * with a page mapped just past that table's span: the walk must skip to
 * the span's end, not a span's length from where it started, or it
 * jumps over the page and maps on top of it. Checked at each level's
 * span (a missing leaf table: 2 MiB; a missing level-1 table: 1 GiB).
 */
static void overlap_past_missing_table(struct ktest *t, struct mm_struct *mm, phys_addr_t pa)
{
	static const u64 spans[] = { 2ULL << 20, 1ULL << 30 };

	for (unsigned int i = 0; i < ARRAY_SIZE(spans); i++) {
		u64 mapped = 0x40000000ULL + (i + 1) * spans[i]; /* a span's first page */
		u64 start = mapped - 3 * PAGE_SIZE;

		KASSERT_EQ(t, arch_map_range(mm, mapped, pa, PAGE_SIZE, USER_RW), 0);
		/* From 3 pages below it, across the boundary: refused, nothing written. */
		KEXPECT_EQ(t, arch_map_range(mm, start, pa, 8 * PAGE_SIZE, USER_RW), -EEXIST);
		KEXPECT_EQ(t, arch_page_prot(mm, start), 0);
		KEXPECT_EQ(t, arch_virt_to_phys(mm, mapped), pa);
		KEXPECT_EQ(t, arch_unmap_range(mm, mapped, PAGE_SIZE), 0);
	}
}

static void test_overlap_past_a_missing_table(struct ktest *t)
{
	with_mm_and_page(t, overlap_past_missing_table);
}

/*
 * Tables are found at every index of every level, not only the low ones
 * the other cases use: the top user address's indexes are 511 (or the
 * root's last user entry) at each level. Each round's tables must all
 * come back when the mm goes, and nothing else: PageTables must end
 * where it began (lower, and pages not tables were given back as
 * tables: the mapped page, freed 64 times, would corrupt the allocator).
 */
static void test_free_reaches_every_index(struct ktest *t)
{
	static const u64 vas[] = {
		TASK_SIZE - PAGE_SIZE,				/* the last user page */
		(TASK_SIZE - PAGE_SIZE) & ~((1ULL << 30) - 1),	/* its 1 GiB region's first */
		0x1000,						/* and the lowest */
	};
	unsigned long tables = READ_ONCE(nr_pagetable_pages);

	map_and_free_rounds(t, vas, ARRAY_SIZE(vas));
	KEXPECT_EQ(t, READ_ONCE(nr_pagetable_pages), tables);
}

static struct ktest_case mm_struct_cases[] = {
	KTEST_CASE(test_user_pages_only_in_their_mm),
	KTEST_CASE(test_kernel_half_is_shared),
	KTEST_CASE(test_destroy_frees_tables),
	KTEST_CASE(test_overlap_is_eexist),
	KTEST_CASE(test_bad_range_is_einval),
	KTEST_CASE(test_overlap_past_a_missing_table),
	KTEST_CASE(test_free_reaches_every_index),
	{}
};
KTEST_SUITE_FULL(mm_struct, .cases = mm_struct_cases, .kernel_only = true);
