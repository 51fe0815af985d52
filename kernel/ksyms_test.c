// SPDX-License-Identifier: MIT
/*
 * The symbolizer: lookups in a small hand-made table (host and kernel), and
 * in the kernel, lookups of real functions in the generated table.
 */
#include <pagoda/ksyms.h>
#include <pagoda/ktest.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

static const u64 addrs[] = { 0x1000, 0x1040, 0x1100, 0x1200 };
static const u32 offs[] = { 0, 4, 8, 12 };
static const char names[] = "aaa\0bbb\0ccc\0ddd";
static const struct ksym_table tab = { addrs, offs, names, 4, 0x1300 };

static void test_lookup_table(struct ktest *t)
{
	u64 off = 99;

	KEXPECT_TRUE(t, ksym_lookup_in(&tab, 0xfff, &off) == NULL);
	KEXPECT_STREQ(t, ksym_lookup_in(&tab, 0x1000, &off), "aaa");
	KEXPECT_EQ(t, off, 0);
	KEXPECT_STREQ(t, ksym_lookup_in(&tab, 0x103f, &off), "aaa");
	KEXPECT_EQ(t, off, 0x3f);
	KEXPECT_STREQ(t, ksym_lookup_in(&tab, 0x1040, &off), "bbb");
	KEXPECT_STREQ(t, ksym_lookup_in(&tab, 0x1234, &off), "ddd");
	KEXPECT_EQ(t, off, 0x34);
	KEXPECT_TRUE(t, ksym_lookup_in(&tab, 0x1300, &off) == NULL);
}

static void test_lookup_empty(struct ktest *t)
{
	const struct ksym_table empty = { addrs, offs, names, 0, 0 };

	KEXPECT_TRUE(t, ksym_lookup_in(&empty, 0x1000, NULL) == NULL);
}

/* Every entry of a bigger table is found at its start and its last byte. */
static void test_lookup_every_entry(struct ktest *t)
{
	static u64 a[257];
	static u32 o[257];
	static char n[257 * 4];
	struct ksym_table big = { a, o, n, 257, 0 };

	for (u32 i = 0; i < 257; i++) {
		a[i] = 0x400000 + i * 0x30;
		o[i] = i * 4;
		n[i * 4] = 'a' + i % 26;
		n[i * 4 + 1] = 'a' + i / 26 % 26;
		n[i * 4 + 2] = 'a' + i / 676;
		n[i * 4 + 3] = 0;
	}
	big.text_end = a[256] + 0x30;
	for (u32 i = 0; i < 257; i++) {
		u64 off;

		KEXPECT_TRUE(t, ksym_lookup_in(&big, a[i], &off) == n + i * 4);
		KEXPECT_TRUE(t, ksym_lookup_in(&big, a[i] + 0x2f, &off) == n + i * 4);
		KEXPECT_EQ(t, off, 0x2f);
	}
}

static struct ktest_case ksyms_table_cases[] = {
	KTEST_CASE(test_lookup_table),
	KTEST_CASE(test_lookup_empty),
	KTEST_CASE(test_lookup_every_entry),
	{}
};
KTEST_SUITE(ksyms, ksyms_table_cases);

/* --- against the kernel's own table ------------------------------------- */

static void noinline ksyms_probe_function(void)
{
	__asm__ volatile("" ::: "memory");
}

static void test_kernel_self_lookup(struct ktest *t)
{
	u64 off, addr = (u64)(uptr)ksyms_probe_function;
	char buf[96];

	KASSERT_TRUE(t, kernel_ksyms.count > 50);
	KEXPECT_STREQ(t, ksym_lookup(addr, &off), "ksyms_probe_function");
	KEXPECT_EQ(t, off, 0);
	KEXPECT_STREQ(t, ksym_lookup(addr + 1, &off), "ksyms_probe_function");
	KEXPECT_EQ(t, off, 1);
	KEXPECT_STREQ(t, ksym_lookup((u64)(uptr)ktest_run, &off), "ktest_run");
	KEXPECT_EQ(t, ksym_address("ktest_run"), (u64)(uptr)ktest_run);
	snprintf(buf, sizeof(buf), "%pS", (void *)(uptr)ktest_run);
	KEXPECT_STREQ(t, buf, "ktest_run+0x0");
}

static void test_kernel_table_sorted(struct ktest *t)
{
	for (u32 i = 1; i < kernel_ksyms.count; i++)
		if (kernel_ksyms.addrs[i - 1] > kernel_ksyms.addrs[i]) {
			KEXPECT_TRUE(t, kernel_ksyms.addrs[i - 1] <= kernel_ksyms.addrs[i]);
			return;
		}
}

static void test_kernel_data_not_symbolized(struct ktest *t)
{
	KEXPECT_TRUE(t, ksym_lookup((u64)(uptr)&kernel_ksyms, NULL) == NULL);
	KEXPECT_TRUE(t, ksym_lookup(0, NULL) == NULL);
}

static struct ktest_case ksyms_kernel_cases[] = {
	KTEST_CASE(test_kernel_self_lookup),
	KTEST_CASE(test_kernel_table_sorted),
	KTEST_CASE(test_kernel_data_not_symbolized),
	{}
};
KTEST_SUITE_FULL(ksyms_kernel, .cases = ksyms_kernel_cases, .kernel_only = true);
