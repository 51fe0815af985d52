// SPDX-License-Identifier: MIT
/*
 * The kernel's own mappings keep their promises: text is read-only and
 * executable, read-only data is neither writable nor executable, data is
 * writable but not executable, and the page at address 0 is not mapped.
 * Both the page-table bits and the CPU's behaviour (a write that faults)
 * are checked.
 */
#include <pagoda/arch.h>
#include <pagoda/ktest.h>

static const u64 ro_cell = 0x5151515151515151ULL;
static u64 rw_cell = 1;

static void noinline text_probe(void)
{
	__asm__ volatile("" ::: "memory");
}

static u64 addr_of(const volatile void *p)
{
	return (u64)(uptr)p;
}

static void test_text_prot(struct ktest *t)
{
	KEXPECT_EQ(t, arch_page_prot(&init_mm, addr_of((void *)text_probe)), PROT_PRESENT | PROT_EXEC);
}

static void test_rodata_prot(struct ktest *t)
{
	KEXPECT_EQ(t, arch_page_prot(&init_mm, addr_of(&ro_cell)), PROT_PRESENT);
}

static void test_data_prot(struct ktest *t)
{
	u64 on_stack = 0;

	KEXPECT_EQ(t, arch_page_prot(&init_mm, addr_of(&rw_cell)), PROT_PRESENT | PROT_WRITE);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, addr_of(&on_stack)), PROT_PRESENT | PROT_WRITE);
}

static void test_null_unmapped(struct ktest *t)
{
	KEXPECT_EQ(t, arch_page_prot(&init_mm, 0), 0);
	KEXPECT_EQ(t, arch_page_prot(&init_mm, 4096), 0);
}

static void test_write_rodata_faults(struct ktest *t)
{
	volatile const u64 *p = &ro_cell;

	KEXPECT_EQ(t, arch_probe_write_u64((void *)(uptr)p, 0), -EFAULT);
	KEXPECT_EQ(t, *p, 0x5151515151515151ULL);
}

static void test_write_text_faults(struct ktest *t)
{
	u64 before = 0, after = 0;

	KASSERT_EQ(t, arch_probe_read_u64((void *)text_probe, &before), 0);
	KEXPECT_EQ(t, arch_probe_write_u64((void *)text_probe, 0), -EFAULT);
	KASSERT_EQ(t, arch_probe_read_u64((void *)text_probe, &after), 0);
	KEXPECT_EQ(t, before, after);
}

static void test_write_data_works(struct ktest *t)
{
	KEXPECT_EQ(t, arch_probe_write_u64(&rw_cell, 42), 0);
	KEXPECT_EQ(t, rw_cell, 42);
}

static struct ktest_case paging_cases[] = {
	KTEST_CASE(test_text_prot),
	KTEST_CASE(test_rodata_prot),
	KTEST_CASE(test_data_prot),
	KTEST_CASE(test_null_unmapped),
	KTEST_CASE(test_write_rodata_faults),
	KTEST_CASE(test_write_text_faults),
	KTEST_CASE(test_write_data_works),
	{}
};
KTEST_SUITE_FULL(kernel_mappings, .cases = paging_cases, .kernel_only = true);
