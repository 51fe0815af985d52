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

/* The CPU's instruction (where the arch found one) agrees with the table. */
static void test_crc32c_arch_matches_table(struct ktest *t)
{
	u8 buf[1031];
	u32 seed = 12345;

	for (unsigned int i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245 + 12345;
		buf[i] = (u8)(seed >> 16);
	}
	/* Every start alignment and a spread of lengths. */
	for (unsigned int off = 0; off < 9; off++)
		for (unsigned int len = 0; len + off <= sizeof(buf); len += 97)
			KEXPECT_EQ(t, crc32c(~0U, buf + off, len), crc32c_sw(~0U, buf + off, len));
	ktest_log(t, "crc32c: %s", crc32c_arch ? "the CPU's instruction" : "the table (no instruction)");
}

static struct ktest_case crc32_cases[] = {
	KTEST_CASE(test_crc32_check_value),
	KTEST_CASE(test_crc32_incremental),
	KTEST_CASE(test_crc32c_check_value),
	KTEST_CASE(test_crc32c_arch_matches_table),
	{}
};
KTEST_SUITE(crc32, crc32_cases);
