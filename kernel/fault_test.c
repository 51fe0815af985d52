// SPDX-License-Identifier: MIT
/*
 * Exception handling, tested by faulting on purpose. Each probe runs an
 * access that is listed in the exception table, so the handler reports the
 * fault, records it and resumes at the fixup instead of panicking. (The
 * unrecoverable path, report and panic, is tested by the system test that
 * boots with shell.run=panic.)
 */
#include <pagoda/arch.h>
#include <pagoda/ktest.h>

static void test_read_null_page_faults(struct ktest *t)
{
	unsigned long before = last_fixed_fault.count;
	u64 v = 0x1234;

	KEXPECT_EQ(t, arch_probe_read_u64((const void *)0x10, &v), -EFAULT);
	KEXPECT_EQ(t, v, 0x1234); /* untouched on failure */
	KEXPECT_EQ(t, last_fixed_fault.count, before + 1);
	KEXPECT_EQ(t, last_fixed_fault.address, 0x10);
	KEXPECT_TRUE(t, last_fixed_fault.name != NULL);
}

static void test_read_valid_memory(struct ktest *t)
{
	static u64 cell = 0xfeedface12345678ULL;
	unsigned long before = last_fixed_fault.count;
	u64 v = 0;

	KEXPECT_EQ(t, arch_probe_read_u64(&cell, &v), 0);
	KEXPECT_EQ(t, v, 0xfeedface12345678ULL);
	KEXPECT_EQ(t, last_fixed_fault.count, before);
}

static void test_undefined_instruction(struct ktest *t)
{
	unsigned long before = last_fixed_fault.count;

	KEXPECT_EQ(t, arch_probe_undefined_insn(), -EFAULT);
	KEXPECT_EQ(t, last_fixed_fault.count, before + 1);
	KEXPECT_NE(t, last_fixed_fault.pc, 0);
}

/* Faults keep being handled: the handler leaves no state behind. */
static void test_many_faults(struct ktest *t)
{
	unsigned long before = last_fixed_fault.count;
	u64 v;

	for (int i = 0; i < 1000; i++)
		if (arch_probe_read_u64((const void *)(uptr)(8 * i), &v) != -EFAULT)
			break;
	KEXPECT_EQ(t, last_fixed_fault.count, before + 1000);
}

static struct ktest_case fault_cases[] = {
	KTEST_CASE(test_read_null_page_faults),
	KTEST_CASE(test_read_valid_memory),
	KTEST_CASE(test_undefined_instruction),
	KTEST_CASE(test_many_faults),
	{}
};
KTEST_SUITE_FULL(faults, .cases = fault_cases, .kernel_only = true);
