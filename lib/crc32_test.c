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

/* CRC-32C one bit at a time: the definition, to check the fast ways against. */
static u32 crc32c_bitwise(u32 crc, const u8 *p, size_t len)
{
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78U & -(crc & 1));
	}
	return crc;
}

/* The CPU's instruction (where the arch picked one) and the sliced table agree with it. */
static void test_crc32c_fast_ways_match(struct ktest *t)
{
	u8 buf[1031];
	u32 seed = 12345;

	for (unsigned int i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245 + 12345;
		buf[i] = (u8)(seed >> 16);
	}
	/* Every start alignment and a spread of lengths. */
	for (unsigned int off = 0; off < 9; off++)
		for (unsigned int len = 0; len + off <= sizeof(buf); len += 97) {
			u32 want = crc32c_bitwise(~0U, buf + off, len);

			KEXPECT_EQ(t, crc32c_sw(~0U, buf + off, len), want);
			KEXPECT_EQ(t, crc32c(~0U, buf + off, len), want);
			if (crc32c_insn)
				KEXPECT_EQ(t, crc32c_insn(~0U, buf + off, len), want);
		}
	ktest_log(t, "crc32c: %s in use; %s", crc32c_arch ? "the CPU's instruction" : "the table",
		  crc32c_insn ? "the instruction checked too" : "no instruction on this CPU");
}

static struct ktest_case crc32_cases[] = {
	KTEST_CASE(test_crc32_check_value),
	KTEST_CASE(test_crc32_incremental),
	KTEST_CASE(test_crc32c_check_value),
	KTEST_CASE(test_crc32c_fast_ways_match),
	{}
};
KTEST_SUITE(crc32, crc32_cases);
