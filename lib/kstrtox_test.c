// SPDX-License-Identifier: MIT
/*
 * Tests for lib/kstrtox.c. Most of the value is in the rejections: a parser
 * that accepts "12abc" or wraps 2^64 to 0 passes every happy-path test.
 */
#include <pagoda/ktest.h>
#include <pagoda/string.h>

struct u64_case {
	const char *s;
	unsigned int base;
	int ret;
	u64 val;
};

static const struct u64_case u64_cases[] = {
	{ "0", 10, 0, 0 },
	{ "42", 10, 0, 42 },
	{ "+42", 10, 0, 42 },
	{ "007", 10, 0, 7 },
	{ "18446744073709551615", 10, 0, UINT64_MAX },
	{ "18446744073709551616", 10, -ERANGE, 0 },
	{ "99999999999999999999", 10, -ERANGE, 0 },
	{ "184467440737095516150", 10, -ERANGE, 0 },
	{ "ff", 16, 0, 0xff },
	{ "FF", 16, 0, 0xff },
	{ "0xff", 16, 0, 0xff },
	{ "0XfF", 16, 0, 0xff },
	{ "ffffffffffffffff", 16, 0, UINT64_MAX },
	{ "10000000000000000", 16, -ERANGE, 0 },
	{ "777", 8, 0, 0777 },
	{ "8", 8, -EINVAL, 0 },
	{ "1010", 2, 0, 10 },
	{ "0b1010", 2, 0, 10 },
	{ "2", 2, -EINVAL, 0 },
	{ "zz", 36, 0, 35 * 36 + 35 },
	/* Base 0 picks the base from the prefix. */
	{ "0x1F", 0, 0, 0x1f },
	{ "0X1f", 0, 0, 0x1f },
	{ "0b101", 0, 0, 5 },
	{ "0B101", 0, 0, 5 },
	{ "0o17", 0, 0, 017 },
	{ "017", 0, 0, 017 },
	{ "0", 0, 0, 0 },
	{ "00", 0, 0, 0 },
	{ "123", 0, 0, 123 },
	{ "08", 0, -EINVAL, 0 },
	{ "0b102", 0, -EINVAL, 0 },
	{ "0x", 0, -EINVAL, 0 },
	{ "0x", 16, -EINVAL, 0 },
	{ "0b", 0, -EINVAL, 0 },
	{ "0xg", 0, -EINVAL, 0 },
	{ "0x10000000000000000", 0, -ERANGE, 0 },
	/* In base 16 "0b" is not a prefix but the digits 0 and b. */
	{ "0b1", 16, 0, 0xb1 },
	/* Malformed input. */
	{ "", 10, -EINVAL, 0 },
	{ "", 0, -EINVAL, 0 },
	{ "+", 10, -EINVAL, 0 },
	{ "-1", 10, -EINVAL, 0 },
	{ "-0", 10, -EINVAL, 0 },
	{ "12abc", 10, -EINVAL, 0 },
	{ "12 ", 10, -EINVAL, 0 },
	{ " 12", 10, -EINVAL, 0 },
	{ "12\n", 10, -EINVAL, 0 },
	{ "1.5", 10, -EINVAL, 0 },
	{ "++1", 10, -EINVAL, 0 },
	{ "a", 10, -EINVAL, 0 },
	{ "\x80", 10, -EINVAL, 0 },
	/* Bases that make no sense. */
	{ "1", 1, -EINVAL, 0 },
	{ "1", 37, -EINVAL, 0 },
};

static void test_kstrtou64_table(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(u64_cases); i++) {
		const struct u64_case *c = &u64_cases[i];
		u64 v = 0x5a5a;
		int ret = kstrtou64(c->s, c->base, &v);

		if (ret != c->ret || (ret == 0 && v != c->val))
			ktest_fail(t, __FILE__, __LINE__,
				   "kstrtou64(\"%s\", %u): got %d/%llu, want %d/%llu",
				   c->s, c->base, ret, (unsigned long long)v,
				   c->ret, (unsigned long long)c->val);
		/* A failed parse must leave the result alone. */
		if (ret && v != 0x5a5a)
			ktest_fail(t, __FILE__, __LINE__,
				   "kstrtou64(\"%s\") wrote on error", c->s);
	}
}

struct s64_case {
	const char *s;
	unsigned int base;
	int ret;
	s64 val;
};

static const struct s64_case s64_cases[] = {
	{ "0", 10, 0, 0 },
	{ "-0", 10, 0, 0 },
	{ "42", 10, 0, 42 },
	{ "+42", 10, 0, 42 },
	{ "-42", 10, 0, -42 },
	{ "9223372036854775807", 10, 0, INT64_MAX },
	{ "9223372036854775808", 10, -ERANGE, 0 },
	{ "-9223372036854775808", 10, 0, INT64_MIN },
	{ "-9223372036854775809", 10, -ERANGE, 0 },
	{ "-18446744073709551616", 10, -ERANGE, 0 },
	{ "-0x10", 0, 0, -16 },
	{ "-0x8000000000000000", 0, 0, INT64_MIN },
	{ "0x8000000000000000", 0, -ERANGE, 0 },
	{ "-ff", 16, 0, -255 },
	{ "-", 10, -EINVAL, 0 },
	{ "+", 10, -EINVAL, 0 },
	{ "", 10, -EINVAL, 0 },
	{ "--1", 10, -EINVAL, 0 },
	{ "-+1", 10, -EINVAL, 0 },
	{ "+-1", 10, -EINVAL, 0 },
	{ "- 1", 10, -EINVAL, 0 },
	{ "-1x", 10, -EINVAL, 0 },
	{ "-0x", 0, -EINVAL, 0 },
};

static void test_kstrtos64_table(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(s64_cases); i++) {
		const struct s64_case *c = &s64_cases[i];
		s64 v = 0x5a5a;
		int ret = kstrtos64(c->s, c->base, &v);

		if (ret != c->ret || (ret == 0 && v != c->val))
			ktest_fail(t, __FILE__, __LINE__,
				   "kstrtos64(\"%s\", %u): got %d/%lld, want %d/%lld",
				   c->s, c->base, ret, (long long)v, c->ret,
				   (long long)c->val);
		if (ret && v != 0x5a5a)
			ktest_fail(t, __FILE__, __LINE__,
				   "kstrtos64(\"%s\") wrote on error", c->s);
	}
}

struct size_case {
	const char *s;
	int ret;
	u64 val;
};

static const struct size_case size_cases[] = {
	{ "0", 0, 0 },
	{ "4096", 0, 4096 },
	{ "1k", 0, 1024 },
	{ "1K", 0, 1024 },
	{ "2k", 0, 2048 },
	{ "64M", 0, 64 * SZ_1M },
	{ "64m", 0, 64 * SZ_1M },
	{ "1G", 0, SZ_1G },
	{ "3g", 0, 3 * SZ_1G },
	{ "1T", 0, SZ_1G * 1024 },
	{ "0K", 0, 0 },
	{ "0x10", 0, 16 },
	{ "0x10K", 0, 16 * SZ_1K },
	{ "0X1M", 0, SZ_1M },
	/* A leading zero is not octal for sizes. */
	{ "010M", 0, 10 * SZ_1M },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "16777215T", 0, 16777215ULL << 40 },
	{ "16777216T", -ERANGE, 0 },
	{ "17179869183G", 0, 17179869183ULL << 30 },
	{ "17179869184G", -ERANGE, 0 },
	{ "18014398509481984K", -ERANGE, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "K", -EINVAL, 0 },
	{ "M", -EINVAL, 0 },
	{ "0x", -EINVAL, 0 },
	{ "0xK", -EINVAL, 0 },
	{ "1KB", -EINVAL, 0 },
	{ "1KK", -EINVAL, 0 },
	{ "1P", -EINVAL, 0 },
	{ "1 K", -EINVAL, 0 },
	{ "-1K", -EINVAL, 0 },
	{ "1.5G", -EINVAL, 0 },
	{ "K1", -EINVAL, 0 },
};

static void test_kstrtosize_table(struct ktest *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(size_cases); i++) {
		const struct size_case *c = &size_cases[i];
		u64 v = 0x5a5a;
		int ret = kstrtosize(c->s, &v);

		if (ret != c->ret || (ret == 0 && v != c->val))
			ktest_fail(t, __FILE__, __LINE__,
				   "kstrtosize(\"%s\"): got %d/%llu, want %d/%llu",
				   c->s, ret, (unsigned long long)v, c->ret,
				   (unsigned long long)c->val);
		if (ret && v != 0x5a5a)
			ktest_fail(t, __FILE__, __LINE__,
				   "kstrtosize(\"%s\") wrote on error", c->s);
	}
}

static void test_kstrtobool(struct ktest *t)
{
	static const char *const yes[] = { "y", "Y", "yes", "YES", "Yes",
					   "on", "ON", "1", "true", "TRUE" };
	static const char *const no[] = { "n", "N", "no", "NO", "off",
					  "Off", "0", "false", "False" };
	static const char *const bad[] = { "", "2", "yess", "ye", "of",
					   "onn", "tru", "10", " y", "y ",
					   "nope", "-1", "truex" };
	size_t i;
	bool b;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		b = false;
		KEXPECT_EQ(t, kstrtobool(yes[i], &b), 0);
		KEXPECT_TRUE(t, b);
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		b = true;
		KEXPECT_EQ(t, kstrtobool(no[i], &b), 0);
		KEXPECT_FALSE(t, b);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		b = true;
		if (kstrtobool(bad[i], &b) != -EINVAL)
			ktest_fail(t, __FILE__, __LINE__,
				   "kstrtobool(\"%s\") accepted", bad[i]);
		KEXPECT_TRUE(t, b);
	}
}

/* Every u64 at a power-of-two boundary must survive a round trip. */
static void test_kstrtou64_boundaries(struct ktest *t)
{
	char buf[32];
	unsigned int i;
	u64 v, got;

	for (i = 0; i < 64; i++) {
		int n, j;

		v = (1ULL << i) - 1 + (1ULL << i);
		/* Decimal digits, written by hand so printf is not under test. */
		n = 0;
		for (got = v; got || !n; got /= 10)
			buf[n++] = '0' + got % 10;
		for (j = 0; j < n / 2; j++) {
			char c = buf[j];

			buf[j] = buf[n - 1 - j];
			buf[n - 1 - j] = c;
		}
		buf[n] = '\0';
		got = 0;
		KEXPECT_EQ(t, kstrtou64(buf, 10, &got), 0);
		KEXPECT_TRUE(t, got == v);
	}
}

static struct ktest_case kstrtox_cases[] = {
	KTEST_CASE(test_kstrtou64_table),
	KTEST_CASE(test_kstrtos64_table),
	KTEST_CASE(test_kstrtosize_table),
	KTEST_CASE(test_kstrtobool),
	KTEST_CASE(test_kstrtou64_boundaries),
	{}
};
KTEST_SUITE(kstrtox, kstrtox_cases);
