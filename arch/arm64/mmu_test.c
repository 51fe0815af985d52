// SPDX-License-Identifier: MIT
/*
 * The arm64 page-table interface keeps its promises: a range mapped in the
 * vmalloc window reaches the same physical page as the direct map, its
 * protection can be changed (and the CPU obeys: a write to a read-only
 * page faults), it unmaps cleanly, and bad requests are refused. The
 * pages come from the image, so the test needs no allocator.
 */
#include <pagoda/arch.h>
#include <pagoda/ktest.h>
#include <asm/arm64.h>

/* The far end of the window, away from whatever mm/ maps from its start. */
#define TEST_VA (VMALLOC_END - 64 * PAGE_SIZE)

static u64 pages[2][PAGE_SIZE / 8] __aligned(PAGE_SIZE);

static void test_map_write_read_back(struct ktest *t)
{
	phys_addr_t pa = __pa_kernel(pages[0]);
	volatile u64 *p = (volatile u64 *)TEST_VA;

	KASSERT_EQ(t, arch_map_range(&init_mm, TEST_VA, pa, 2 * PAGE_SIZE, PROT_PRESENT | PROT_WRITE), 0);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, TEST_VA), PROT_PRESENT | PROT_WRITE);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, TEST_VA + 8), pa + 8);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, TEST_VA + PAGE_SIZE), pa + PAGE_SIZE);
	p[0] = 0xabcdef;
	/* The same page through the direct map: one physical page, two names. */
	KEXPECT_EQ(t, *(volatile u64 *)__va(pa), 0xabcdef);
	KEXPECT_EQ(t, pages[0][0], 0xabcdef);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, TEST_VA, 2 * PAGE_SIZE), 0);
}

static void test_protect_is_enforced(struct ktest *t)
{
	phys_addr_t pa = __pa_kernel(pages[1]);
	void *va = (void *)TEST_VA;

	KASSERT_EQ(t, arch_map_range(&init_mm, TEST_VA, pa, PAGE_SIZE, PROT_PRESENT | PROT_WRITE), 0);
	KEXPECT_EQ(t, arch_probe_write_u64(va, 7), 0);
	KEXPECT_EQ(t, arch_protect_range(&init_mm, TEST_VA, PAGE_SIZE, PROT_PRESENT), 0);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, TEST_VA), PROT_PRESENT);
	KEXPECT_EQ(t, arch_probe_write_u64(va, 8), -EFAULT);
	KEXPECT_EQ(t, pages[1][0], 7);
	KEXPECT_EQ(t, arch_protect_range(&init_mm, TEST_VA, PAGE_SIZE, PROT_PRESENT | PROT_WRITE), 0);
	KEXPECT_EQ(t, arch_probe_write_u64(va, 9), 0);
	KEXPECT_EQ(t, pages[1][0], 9);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, TEST_VA, PAGE_SIZE), 0);
}

static void test_unmapped_faults(struct ktest *t)
{
	u64 v;

	KASSERT_EQ(t, arch_map_range(&init_mm, TEST_VA, __pa_kernel(pages[0]), PAGE_SIZE, PROT_PRESENT), 0);
	KEXPECT_EQ(t, arch_probe_read_u64((void *)TEST_VA, &v), 0);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, TEST_VA, PAGE_SIZE), 0);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, TEST_VA), 0);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, TEST_VA), (phys_addr_t)-1);
	/* The TLB was flushed: the old translation is gone. */
	KEXPECT_EQ(t, arch_probe_read_u64((void *)TEST_VA, &v), -EFAULT);
}

static void test_bad_requests(struct ktest *t)
{
	phys_addr_t pa = __pa_kernel(pages[0]);

	KASSERT_EQ(t, arch_map_range(&init_mm, TEST_VA, pa, PAGE_SIZE, PROT_PRESENT), 0);
	KEXPECT_EQ(t, arch_map_range(&init_mm, TEST_VA, pa, PAGE_SIZE, PROT_PRESENT), -EEXIST);
	/* Partly mapped: refused as a whole, nothing changed. */
	KEXPECT_EQ(t, arch_map_range(&init_mm, TEST_VA - PAGE_SIZE, pa, 2 * PAGE_SIZE, PROT_PRESENT),
		   -EEXIST);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, TEST_VA - PAGE_SIZE), 0);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, TEST_VA, 2 * PAGE_SIZE), -EINVAL);
	KEXPECT_EQ(t, arch_protect_range(&init_mm, TEST_VA, 2 * PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, TEST_VA, PAGE_SIZE), 0);
	KEXPECT_EQ(t, arch_map_range(&init_mm, TEST_VA + 1, pa, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	/* Not in the window: the image and the direct map are not for hire. */
	KEXPECT_EQ(t, arch_map_range(&init_mm, KERNEL_VIRT, pa, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_map_range(&init_mm, PAGE_OFFSET, pa, PAGE_SIZE, PROT_PRESENT), -EINVAL);
	KEXPECT_EQ(t, arch_unmap_range(&init_mm, TEST_VA, PAGE_SIZE), -EINVAL);
}

static void test_direct_map_covers_ram(struct ktest *t)
{
	phys_addr_t pa = __pa_kernel(pages[0]);

	KEXPECT_GT(t, arch_direct_map_end(), pa);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, (u64)__va(pa)), PROT_PRESENT | PROT_WRITE);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, (u64)__va(pa)), pa);
	KEXPECT_EQ(t, arch_virt_to_phys(&init_mm, (u64)pages[0]), pa);
}

static struct ktest_case arm64_mmu_cases[] = {
	KTEST_CASE(test_map_write_read_back),
	KTEST_CASE(test_protect_is_enforced),
	KTEST_CASE(test_unmapped_faults),
	KTEST_CASE(test_bad_requests),
	KTEST_CASE(test_direct_map_covers_ram),
	{}
};
KTEST_SUITE_FULL(arm64_mmu, .cases = arm64_mmu_cases, .kernel_only = true);
