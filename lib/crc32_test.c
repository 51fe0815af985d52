// SPDX-License-Identifier: MIT
/* crc32_le and crc32c against the catalogue's check values and UEFI's inverted form. */
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

static void test_crc32c_check_value(struct ktest *t)
{
	/* CRC-32C's catalogue check: "123456789" -> 0xe3069283 (RFC 3720's too). */
	KEXPECT_EQ(t, ~crc32c(~0U, "123456789", 9), 0xe3069283U);
	KEXPECT_EQ(t, crc32c(crc32c(~0U, "1234", 4), "56789", 5), crc32c(~0U, "123456789", 9));
	/* A different polynomial: the two must not agree on ordinary data. */
	KEXPECT_NE(t, crc32c(~0U, "123456789", 9), crc32_le(~0U, "123456789", 9));
}

static struct ktest_case crc32_cases[] = {
	KTEST_CASE(test_crc32_check_value),
	KTEST_CASE(test_crc32_incremental),
	KTEST_CASE(test_crc32c_check_value),
	{}
};
KTEST_SUITE(crc32, crc32_cases);
