// SPDX-License-Identifier: MIT
/*
 * The shmem object's page tree (mm/shmem.c): a hole punched across a
 * huge, nearly empty object costs its pages, not one lookup per index.
 * Kernel only: the object's pages come from the page allocator.
 */
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/shmem.h>

static void get_and_put(struct ktest *t, struct shmem_object *obj, unsigned long index)
{
	struct page *pg = NULL;

	KASSERT_EQ(t, shmem_get_page(obj, index, &pg), 0);
	shmem_page_put(pg); /* the caller's hold; the object keeps its own */
}

/*
 * Three pages in an object of TASK_SIZE: the punch over all of it must
 * step over the empty subtrees (a lookup per index would be 2^35 of them
 * on x86-64 and never end within the boot).
 */
static void test_punch_skips_empty_subtrees(struct ktest *t)
{
	unsigned long pages = TASK_SIZE / PAGE_SIZE;
	struct shmem_object *obj = shmem_zero_setup(NULL, pages, false);

	KASSERT_TRUE(t, obj != NULL);
	get_and_put(t, obj, 3);
	get_and_put(t, obj, 1UL << 20);
	get_and_put(t, obj, pages - 1);
	KEXPECT_EQ(t, shmem_nr_resident(obj), 3);
	shmem_punch(obj, 0, pages);
	KEXPECT_EQ(t, shmem_nr_resident(obj), 0);
	KEXPECT_TRUE(t, shmem_find_page(obj, pages - 1) == NULL);
	shmem_put(obj);
}

/* A punch takes exactly its range: the neighbours stay. */
static void test_punch_takes_its_range(struct ktest *t)
{
	struct shmem_object *obj = shmem_zero_setup(NULL, 64, false);

	KASSERT_TRUE(t, obj != NULL);
	for (unsigned long i = 10; i < 13; i++)
		get_and_put(t, obj, i);
	shmem_punch(obj, 11, 12);
	KEXPECT_TRUE(t, shmem_find_page(obj, 10) != NULL);
	KEXPECT_TRUE(t, shmem_find_page(obj, 11) == NULL);
	KEXPECT_TRUE(t, shmem_find_page(obj, 12) != NULL);
	KEXPECT_EQ(t, shmem_nr_resident(obj), 2);
	shmem_punch(obj, 0, 1000); /* past the end: stops at it */
	KEXPECT_EQ(t, shmem_nr_resident(obj), 0);
	shmem_put(obj);
}

static struct ktest_case shmem_cases[] = {
	KTEST_CASE(test_punch_skips_empty_subtrees),
	KTEST_CASE(test_punch_takes_its_range),
	{}
};
KTEST_SUITE_FULL(shmem, .cases = shmem_cases, .kernel_only = true);
