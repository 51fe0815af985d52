// SPDX-License-Identifier: MIT
/* crc32_le against the standard check value and UEFI's inverted form. */
#include <pagoda/crc32.h>
#include <pagoda/ktest.h>

static void test_crc32_check_value(struct ktest *t)
{
	/* The CRC-32 catalogue's check: "123456789" -> 0xcbf43926. */
	KEXPECT_EQ(t, ~crc32_le(~0U, "123456789", 9), 0xcbf43926U);
	KEXPECT_EQ(t, ~crc32_le(~0U, "", 0), 0U);
}

static void test_crc32_incremental(struct ktest *t)
{
	u32 whole = crc32_le(~0U, "hello, world", 12);
	u32 parts = crc32_le(crc32_le(~0U, "hello, ", 7), "world", 5);

	KEXPECT_EQ(t, whole, parts);
}

static struct ktest_case crc32_cases[] = {
	KTEST_CASE(test_crc32_check_value),
	KTEST_CASE(test_crc32_incremental),
	{}
};
KTEST_SUITE(crc32, crc32_cases);
