// SPDX-License-Identifier: MIT
/*
 * Tests for lib/vsprintf.c. Each table entry is also replayed at every
 * buffer size from 0 to one past its length, so truncation, termination
 * and the C99 return value are checked for every case, not just a few.
 * (tests/host/printf_vs_libc.c adds a randomised comparison with libc.)
 */
#include <pagoda/ktest.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

#define OUT_MAX 160
#define CANARY 8

/* Nothing may be written at or past buf[size]. */
static bool untouched(const char *p)
{
	int i;

	for (i = 0; i < CANARY; i++) {
		if (p[i] != '#')
			return false;
	}
	return true;
}

static void check_sizes(struct ktest *t, int line, const char *want,
			const char *fmt, va_list ap)
{
	size_t wlen = strlen(want), size, keep;
	char buf[OUT_MAX + CANARY];
	va_list aq;
	int n;

	for (size = 0; size <= wlen + 1 && size <= OUT_MAX; size++) {
		memset(buf, '#', sizeof(buf));
		va_copy(aq, ap);
		n = vsnprintf(size ? buf : NULL, size, fmt, aq);
		va_end(aq);
		keep = size ? MIN(wlen, size - 1) : 0;
		if (n != (int)wlen || (size && buf[keep] != '\0') ||
		    memcmp(buf, want, keep) || !untouched(buf + size)) {
			ktest_fail(t, __FILE__, line,
				   "\"%s\" at size %zu: got %d, want \"%s\"", fmt,
				   size, n, want);
			return;
		}
		va_copy(aq, ap);
		n = vscnprintf(size ? buf : NULL, size, fmt, aq);
		va_end(aq);
		if (n != (int)keep) {
			ktest_fail(t, __FILE__, line,
				   "vscnprintf \"%s\" at size %zu: got %d, want %zu",
				   fmt, size, n, keep);
			return;
		}
	}
}

static void __printf(4, 5) check(struct ktest *t, int line, const char *want,
				 const char *fmt, ...)
{
	char buf[OUT_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n != (int)strlen(want) || strcmp(buf, want)) {
		ktest_fail(t, __FILE__, line,
			   "format \"%s\": got \"%s\" (%d), want \"%s\"", fmt,
			   buf, n, want);
		return;
	}
	va_start(ap, fmt);
	check_sizes(t, line, want, fmt, ap);
	va_end(ap);
}

#define T(want, fmt, ...) check(t, __LINE__, want, fmt, ##__VA_ARGS__)

static void test_plain(struct ktest *t)
{
	T("hello", "hello");
	T("%", "%%");
	T("a%b", "a%%b");
	T("100%", "%d%%", 100);
	T("x=1 y=-2 s=ab c=Z", "x=%d y=%d s=%s c=%c", 1, -2, "ab", 'Z');
	T("[  1|2  |003]", "[%3d|%-3d|%03d]", 1, 2, 3);
}

static void test_signed(struct ktest *t)
{
	T("0", "%d", 0);
	T("42", "%d", 42);
	T("-42", "%i", -42);
	T("2147483647", "%d", 2147483647);
	T("-2147483648", "%d", -2147483647 - 1);
	T("   42", "%5d", 42);
	T("42   |", "%-5d|", 42);
	T("00042", "%05d", 42);
	T("-0042", "%05d", -42);
	T("-000000001", "%010d", -1);
	T("+42", "%+d", 42);
	T("-42", "%+d", -42);
	T("+0", "%+d", 0);
	T(" 42", "% d", 42);
	T("-42", "% d", -42);
	T("  +42", "%+5d", 42);
	T("+0042", "%+05d", 42);
	T("+42  |", "%-+5d|", 42);
	T("007", "%.3d", 7);
	T("-007", "%.3d", -7);
	T("+007", "%+.3d", 7);
	T("12345", "%.3d", 12345);
	T("", "%.0d", 0);
	T("     ", "%5.0d", 0);
	T("+", "%+.0d", 0);
	T("                   1", "%20d", 1);
}

static void test_lengths(struct ktest *t)
{
	T("-9223372036854775808", "%ld", -9223372036854775807L - 1);
	T("9223372036854775807", "%lld", 9223372036854775807LL);
	T("-9223372036854775808", "%lld", -9223372036854775807LL - 1);
	T("18446744073709551615", "%llu", 18446744073709551615ULL);
	T("18446744073709551615", "%lu", 18446744073709551615UL);
	T("18446744073709551615", "%zu", (size_t)-1);
	T("-5", "%zd", (ptrdiff_t)-5);
	T("-3", "%td", (ptrdiff_t)-3);
	T("-9223372036854775808", "%jd", (intmax_t)INT64_MIN);
	T("18446744073709551615", "%ju", (uintmax_t)UINT64_MAX);
	T("ffffffffffffffff", "%llx", ~0ULL);
	T("1777777777777777777777", "%llo", ~0ULL);
}

static void test_unsigned(struct ktest *t)
{
	T("0", "%u", 0u);
	T("4294967295", "%u", 4294967295u);
	T("4294967295", "%u", (unsigned int)-1);
	T("deadbeef", "%x", 0xdeadbeefu);
	T("DEADBEEF", "%X", 0xdeadbeefu);
	T("0xff", "%#x", 255u);
	T("0XFF", "%#X", 255u);
	T("0", "%#x", 0u);
	T("      0xff", "%#10x", 255u);
	T("0x000000ff", "%#010x", 255u);
	T("0xff      |", "%-#10x|", 255u);
	T("0x00ff", "%#.4x", 255u);
	T("    0x00ff", "%#10.4x", 255u);
	T("", "%.0x", 0u);
	T("", "%#.0x", 0u);
	T("00000000", "%08x", 0u);
	T("10", "%o", 8u);
	T("010", "%#o", 8u);
	T("0", "%#o", 0u);
	T("0", "%#.0o", 0u);
	T("", "%.0o", 0u);
	T("010", "%#.3o", 8u);
	T("00010", "%#.5o", 8u);
	T("  010", "%#5o", 8u);
	T("00010", "%#05o", 8u);
	T("12345", "%.2u", 12345u);
}

/* Read at run time, so GCC does not flag a NULL %s it can see. */
static const char *volatile no_string;

static void test_chars_strings(struct ktest *t)
{
	T("A", "%c", 'A');
	T("  A", "%3c", 'A');
	T("A  |", "%-3c|", 'A');
	T("ab", "%c%c", 'a', 'b');
	T("\xe9", "%c", 0xe9);
	T("abc", "%s", "abc");
	T("", "%s", "");
	T("  abc", "%5s", "abc");
	T("abc  |", "%-5s|", "abc");
	T("ab", "%.2s", "abc");
	T("    a", "%5.1s", "abc");
	T("", "%.0s", "abc");
	T("abc", "%.10s", "abc");
	T("abc", "%2s", "abc");
	T("(null)", "%s", no_string);
	T("  (null)", "%8s", no_string);
	T("(nu", "%.3s", no_string);
}

static void test_star(struct ktest *t)
{
	T("    ab", "%*s", 6, "ab");
	T("ab  |", "%-*s|", 4, "ab");
	/* A negative '*' width left-justifies. */
	T("ab  |", "%*s|", -4, "ab");
	T("7   |", "%*d|", -4, 7);
	T("ab", "%.*s", 2, "abcdef");
	/* A negative '*' precision is as if none were given. */
	T("abc", "%.*s", -1, "abc");
	T("0", "%.*d", -1, 0);
	T("   005", "%*.*d", 6, 3, 5);
	T("  0x1f", "%#*x", 6, 0x1fu);
	T("42", "%*d", 0, 42);
}

static void test_pointers(struct ktest *t)
{
	T("(nil)", "%p", NULL);
	T("0x1234", "%p", (void *)0x1234);
	T("0xffff800000000000", "%p", (void *)0xffff800000000000UL);
	T("     (nil)", "%10p", NULL);
	T("0xab    |", "%-8p|", (void *)0xab);
	T("  0xab", "%6p", (void *)0xab);
	/* Only 'S' extends %p; another letter is ordinary text after it. */
	T("0x10X", "%pX", (void *)0x10);
}

static void test_symbols(struct ktest *t)
{
	char want[OUT_MAX], got[OUT_MAX];
	void *fn = (void *)(uptr)test_symbols;
	size_t n;

	/* Nothing lives at the first page: this prints as a plain address. */
	n = ksym_format(want, sizeof(want), 0x10);
	if (!n) {
		T("0x10", "%pS", (void *)0x10);
		T("0x10+", "%pS+", (void *)0x10);
		T("  0x10|", "%6pS|", (void *)0x10);
		T("0x10  |", "%-6pS|", (void *)0x10);
	}
	if (!ksym_format(want, sizeof(want), 0))
		T("0x0", "%pS", NULL);

	/* For a real function, %pS must print what ksym_format says. */
	n = ksym_format(want, sizeof(want), (uptr)fn);
	if (!n)
		snprintf(want, sizeof(want), "%#lx", (unsigned long)(uptr)fn);
	snprintf(got, sizeof(got), "%pS", fn);
	KEXPECT_STREQ(t, got, want);
}

/*
 * Flag precedence that C defines and GCC warns about anyway ("'0' flag
 * ignored"): exactly the rules an implementation gets wrong.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
static void test_flag_precedence(struct ktest *t)
{
	T("", "");
	KEXPECT_EQ(t, snprintf(NULL, 0, ""), 0);
	/* '+' beats ' '. */
	T("+42", "%+ d", 42);
	T("+42", "% +d", 42);
	/* A precision, or '-', turns '0' off. */
	T("     007", "%08.3d", 7);
	T("    0x07", "%#08.2x", 7u);
	T("7       |", "%-08d|", 7);
	T("-7      |", "%0-8d|", -7);
	/* ...but a negative '*' precision does not count as one. */
	T("00042", "%05.*d", -1, 42);
}
#pragma GCC diagnostic pop

/*
 * hh and h arguments arrive promoted to int, so the callee must do the
 * narrowing; feed it ints that do not fit (clang's -Wformat objects).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
static void test_narrowing(struct ktest *t)
{
	T("-1", "%hhd", 255);
	T("127", "%hhd", 127);
	T("-128", "%hhd", 128);
	T("0", "%hhu", 256);
	T("-1", "%hd", 65535);
	T("-32768", "%hd", 32768);
	T("4464", "%hu", 70000);
	T("ff", "%hhx", 0x1ff);
	T("377", "%hho", -1);
	T("ffff", "%hx", 0x1ffff);
	/* A narrow length must still consume a whole int. */
	T("1 2 3", "%hhd %lld %d", 1, 2LL, 3);
}
#pragma GCC diagnostic pop

/*
 * Behaviour that -Wformat rightly objects to, but that the engine must still
 * handle without crashing or eating arguments.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
static void test_unknown(struct ktest *t)
{
	char buf[32];
	int n;

	T("%q", "%q");
	T("a%5qb", "a%5qb");
	T("%hq", "%hq");
	T("%", "%");
	T("ab%", "ab%");
	/* %n is never honoured: it is shown and nothing is written. */
	n = 1234;
	snprintf(buf, sizeof(buf), "x%ny", &n);
	KEXPECT_STREQ(t, buf, "x%ny");
	KEXPECT_EQ(t, n, 1234);
	/* Sign flags have no meaning for unsigned conversions. */
	T("5", "%+u", 5u);
	T("ff", "% x", 255u);
	/* An argument for '*' before an unknown conversion is still used. */
	T("%*q 7", "%*q %d", 5, 7);
}
#pragma GCC diagnostic pop

static void test_truncation(struct ktest *t)
{
	char buf[8];

	KEXPECT_EQ(t, snprintf(NULL, 0, "%d", 12345), 5);
	memset(buf, 'x', sizeof(buf));
	KEXPECT_EQ(t, snprintf(buf, 0, "abc"), 3);
	KEXPECT_EQ(t, buf[0], 'x');
	KEXPECT_EQ(t, snprintf(buf, 1, "abc"), 3);
	KEXPECT_EQ(t, buf[0], '\0');
	KEXPECT_EQ(t, buf[1], 'x');
	KEXPECT_EQ(t, snprintf(buf, sizeof(buf), "%300d", 1), 300);
	KEXPECT_EQ(t, buf[7], '\0');
	KEXPECT_STREQ(t, buf, "       ");
	KEXPECT_EQ(t, snprintf(buf, sizeof(buf), "1234567"), 7);
	KEXPECT_STREQ(t, buf, "1234567");
	KEXPECT_EQ(t, snprintf(buf, sizeof(buf), "12345678"), 8);
	KEXPECT_STREQ(t, buf, "1234567");
}

static void test_scnprintf(struct ktest *t)
{
	char buf[8];
	int n;

	KEXPECT_EQ(t, scnprintf(buf, sizeof(buf), "abc"), 3);
	KEXPECT_EQ(t, scnprintf(buf, sizeof(buf), "abcdefghij"), 7);
	KEXPECT_STREQ(t, buf, "abcdefg");
	KEXPECT_EQ(t, scnprintf(buf, 1, "abc"), 0);
	KEXPECT_EQ(t, scnprintf(NULL, 0, "abc"), 0);
	/* The idiom scnprintf exists for: appending until the buffer fills. */
	n = 0;
	n += scnprintf(buf + n, sizeof(buf) - n, "%d,", 123);
	n += scnprintf(buf + n, sizeof(buf) - n, "%d,", 456);
	n += scnprintf(buf + n, sizeof(buf) - n, "%d,", 789);
	KEXPECT_EQ(t, n, 7);
	KEXPECT_STREQ(t, buf, "123,456");
}

static struct ktest_case vsprintf_cases[] = {
	KTEST_CASE(test_plain),
	KTEST_CASE(test_signed),
	KTEST_CASE(test_lengths),
	KTEST_CASE(test_narrowing),
	KTEST_CASE(test_unsigned),
	KTEST_CASE(test_chars_strings),
	KTEST_CASE(test_star),
	KTEST_CASE(test_flag_precedence),
	KTEST_CASE(test_pointers),
	KTEST_CASE(test_symbols),
	KTEST_CASE(test_unknown),
	KTEST_CASE(test_truncation),
	KTEST_CASE(test_scnprintf),
	{}
};
KTEST_SUITE(vsprintf, vsprintf_cases);
