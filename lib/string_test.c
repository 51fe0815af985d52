// SPDX-License-Identifier: MIT
/*
 * Tests for lib/string.c. The memory routines have word-sized fast paths,
 * so they are swept over every small length and every alignment of source
 * and destination: the head/body/tail split is where the bugs would be.
 */
#include <pagoda/ktest.h>
#include <pagoda/string.h>

#define BUF 96
#define GUARD 0xa5

/* A byte pattern with no repeats at word distance, so shifts show up. */
static void fill_pattern(u8 *p, size_t n, u8 seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(seed + i * 7 + (i >> 3));
}

static void test_memcpy_sweep(struct ktest *t)
{
	u8 src[BUF], dst[BUF];
	size_t so, d_off, n, i;
	int bad = 0;

	fill_pattern(src, BUF, 1);
	for (so = 0; so < 8; so++) {
		for (d_off = 0; d_off < 8; d_off++) {
			for (n = 0; n <= 64; n++) {
				for (i = 0; i < BUF; i++)
					dst[i] = GUARD;
				KEXPECT_TRUE(t, memcpy(dst + d_off, src + so, n) ==
							dst + d_off);
				for (i = 0; i < BUF; i++) {
					u8 want = i >= d_off && i < d_off + n ?
							  src[so + i - d_off] :
							  GUARD;
					bad += dst[i] != want;
				}
			}
		}
	}
	KEXPECT_EQ(t, bad, 0);
}

static void test_memmove_overlap(struct ktest *t)
{
	u8 buf[BUF], ref[BUF];
	size_t from, to, n, i;
	int bad = 0;

	/* Both directions, including distances below a word. */
	for (from = 0; from < 20; from++) {
		for (to = 0; to < 20; to++) {
			for (n = 0; n <= 48; n++) {
				fill_pattern(buf, BUF, 3);
				fill_pattern(ref, BUF, 3);
				for (i = 0; i < n; i++)
					ref[to + i] = buf[from + i];
				KEXPECT_TRUE(t, memmove(buf + to, buf + from, n) ==
							buf + to);
				bad += memcmp(buf, ref, BUF) != 0;
			}
		}
	}
	KEXPECT_EQ(t, bad, 0);
}

static void test_memmove_backward_long(struct ktest *t)
{
	u8 buf[BUF];
	size_t i;

	for (i = 0; i < BUF; i++)
		buf[i] = (u8)i;
	memmove(buf + 8, buf, 80);
	for (i = 0; i < 80; i++)
		KASSERT_EQ(t, buf[8 + i], i);
	for (i = 0; i < 8; i++)
		KEXPECT_EQ(t, buf[i], i);
}

static void test_memset_sweep(struct ktest *t)
{
	u8 buf[BUF];
	size_t off, n, i;
	int bad = 0;

	for (off = 0; off < 8; off++) {
		for (n = 0; n <= 64; n++) {
			for (i = 0; i < BUF; i++)
				buf[i] = GUARD;
			KEXPECT_TRUE(t, memset(buf + off, 0x3c, n) == buf + off);
			for (i = 0; i < BUF; i++)
				bad += buf[i] !=
				       (i >= off && i < off + n ? 0x3c : GUARD);
		}
	}
	KEXPECT_EQ(t, bad, 0);
}

static void test_memset_byte_only(struct ktest *t)
{
	size_t zero = 0;
	u8 buf[32];

	/* Only the low byte of c is used; 0x1ff must not smear 0x01 around. */
	memset(buf, 0x1ff, sizeof(buf));
	KEXPECT_EQ(t, buf[0], 0xff);
	KEXPECT_EQ(t, buf[31], 0xff);
	memset(buf, 0, sizeof(buf));
	KEXPECT_EQ(t, buf[17], 0);
	memset(buf, -1, zero);
	KEXPECT_EQ(t, buf[0], 0);
}

static void test_memcmp(struct ktest *t)
{
	const u8 a[] = { 1, 2, 3, 0x80 };
	const u8 b[] = { 1, 2, 3, 0x01 };

	KEXPECT_EQ(t, memcmp(a, b, 3), 0);
	KEXPECT_EQ(t, memcmp(a, b, 0), 0);
	/* Bytes compare unsigned: 0x80 is greater than 0x01. */
	KEXPECT_GT(t, memcmp(a, b, 4), 0);
	KEXPECT_LT(t, memcmp(b, a, 4), 0);
	KEXPECT_LT(t, memcmp("abc", "abd", 3), 0);
}

static void test_memchr(struct ktest *t)
{
	const char s[] = "hello\0world";

	KEXPECT_TRUE(t, memchr(s, 'l', 5) == s + 2);
	KEXPECT_TRUE(t, memchr(s, 'w', 5) == NULL);
	/* memchr does not stop at NUL. */
	KEXPECT_TRUE(t, memchr(s, 'w', sizeof(s)) == s + 6);
	KEXPECT_TRUE(t, memchr(s, 0, sizeof(s)) == s + 5);
	KEXPECT_TRUE(t, memchr(s, 'h' + 0x100, 5) == s);
	KEXPECT_TRUE(t, memchr(s, 'h', 0) == NULL);
}

static void test_strlen(struct ktest *t)
{
	KEXPECT_EQ(t, strlen(""), 0);
	KEXPECT_EQ(t, strlen("a"), 1);
	KEXPECT_EQ(t, strlen("hello world"), 11);
	KEXPECT_EQ(t, strnlen("hello", 3), 3);
	KEXPECT_EQ(t, strnlen("hello", 5), 5);
	KEXPECT_EQ(t, strnlen("hello", 100), 5);
	KEXPECT_EQ(t, strnlen("hello", 0), 0);
}

static void test_strnlen_unterminated(struct ktest *t)
{
	/* strnlen must not look past max: this array has no NUL. */
	const char s[4] = { 'a', 'b', 'c', 'd' };

	KEXPECT_EQ(t, strnlen(s, sizeof(s)), 4);
}

static void test_strcmp(struct ktest *t)
{
	KEXPECT_EQ(t, strcmp("", ""), 0);
	KEXPECT_EQ(t, strcmp("abc", "abc"), 0);
	KEXPECT_LT(t, strcmp("abc", "abd"), 0);
	KEXPECT_GT(t, strcmp("abd", "abc"), 0);
	KEXPECT_LT(t, strcmp("ab", "abc"), 0);
	KEXPECT_GT(t, strcmp("abc", "ab"), 0);
	KEXPECT_LT(t, strcmp("", "a"), 0);
	/* "\x80" sorts after "a" because chars compare as unsigned char. */
	KEXPECT_GT(t, strcmp("\x80", "a"), 0);
}

static void test_strncmp(struct ktest *t)
{
	KEXPECT_EQ(t, strncmp("abcdef", "abcxyz", 3), 0);
	KEXPECT_LT(t, strncmp("abcdef", "abcxyz", 4), 0);
	KEXPECT_EQ(t, strncmp("abc", "xyz", 0), 0);
	KEXPECT_EQ(t, strncmp("abc", "abc", 100), 0);
	KEXPECT_LT(t, strncmp("ab", "abc", 3), 0);
	KEXPECT_GT(t, strncmp("\xff", "\x01", 1), 0);
}

static void test_strchr(struct ktest *t)
{
	const char *s = "path/to/file";

	KEXPECT_TRUE(t, strchr(s, '/') == s + 4);
	KEXPECT_TRUE(t, strrchr(s, '/') == s + 7);
	KEXPECT_TRUE(t, strchr(s, 'p') == s);
	KEXPECT_TRUE(t, strrchr(s, 'e') == s + 11);
	KEXPECT_TRUE(t, strchr(s, 'x') == NULL);
	KEXPECT_TRUE(t, strrchr(s, 'x') == NULL);
	/* The terminator is part of the string. */
	KEXPECT_TRUE(t, strchr(s, '\0') == s + 12);
	KEXPECT_TRUE(t, strrchr(s, '\0') == s + 12);
	KEXPECT_TRUE(t, strchr("", 'a') == NULL);
}

static void test_strlcpy(struct ktest *t)
{
	char buf[8];

	KEXPECT_EQ(t, strlcpy(buf, "abc", sizeof(buf)), 3);
	KEXPECT_STREQ(t, buf, "abc");
	/* Truncated, terminated, and the return value shows it. */
	KEXPECT_EQ(t, strlcpy(buf, "0123456789", sizeof(buf)), 10);
	KEXPECT_STREQ(t, buf, "0123456");
	KEXPECT_EQ(t, strlcpy(buf, "1234567", sizeof(buf)), 7);
	KEXPECT_STREQ(t, buf, "1234567");
	KEXPECT_EQ(t, strlcpy(buf, "", sizeof(buf)), 0);
	KEXPECT_STREQ(t, buf, "");
	/* size 0 writes nothing at all. */
	buf[0] = 'Z';
	KEXPECT_EQ(t, strlcpy(buf, "abc", 0), 3);
	KEXPECT_EQ(t, buf[0], 'Z');
	KEXPECT_EQ(t, strlcpy(buf, "abc", 1), 3);
	KEXPECT_STREQ(t, buf, "");
}

static void test_strlcat(struct ktest *t)
{
	char buf[8] = "ab";

	KEXPECT_EQ(t, strlcat(buf, "cd", sizeof(buf)), 4);
	KEXPECT_STREQ(t, buf, "abcd");
	KEXPECT_EQ(t, strlcat(buf, "efghij", sizeof(buf)), 10);
	KEXPECT_STREQ(t, buf, "abcdefg");
	KEXPECT_EQ(t, strlcat(buf, "x", sizeof(buf)), 8);
	KEXPECT_STREQ(t, buf, "abcdefg");
	/* No NUL within size: nothing is written, result is size + len. */
	KEXPECT_EQ(t, strlcat(buf, "xyz", 3), 6);
	KEXPECT_STREQ(t, buf, "abcdefg");
	KEXPECT_EQ(t, strlcat(buf, "xyz", 0), 3);
}

static void test_strstr(struct ktest *t)
{
	const char *h = "the cat sat on the mat";

	KEXPECT_TRUE(t, strstr(h, "") == h);
	KEXPECT_TRUE(t, strstr(h, "the") == h);
	KEXPECT_TRUE(t, strstr(h, "at") == h + 5);
	KEXPECT_TRUE(t, strstr(h, "mat") == h + 19);
	KEXPECT_TRUE(t, strstr(h, "dog") == NULL);
	KEXPECT_TRUE(t, strstr(h, "mats") == NULL);
	KEXPECT_TRUE(t, strstr("aaab", "aab") != NULL);
	KEXPECT_TRUE(t, strstr("", "a") == NULL);
	KEXPECT_TRUE(t, strstr("", "") != NULL);
}

static void test_strsep(struct ktest *t)
{
	char buf[] = "a,b,,c;d";
	char *s = buf;

	KEXPECT_STREQ(t, strsep(&s, ",;"), "a");
	KEXPECT_STREQ(t, strsep(&s, ",;"), "b");
	/* Adjacent delimiters give an empty token, not a skipped one. */
	KEXPECT_STREQ(t, strsep(&s, ",;"), "");
	KEXPECT_STREQ(t, strsep(&s, ",;"), "c");
	KEXPECT_STREQ(t, strsep(&s, ",;"), "d");
	KEXPECT_TRUE(t, s == NULL);
	KEXPECT_TRUE(t, strsep(&s, ",;") == NULL);
}

static void test_strsep_edges(struct ktest *t)
{
	char empty[] = "";
	char trail[] = "x,";
	char *s = empty;

	KEXPECT_STREQ(t, strsep(&s, ","), "");
	KEXPECT_TRUE(t, s == NULL);
	s = trail;
	KEXPECT_STREQ(t, strsep(&s, ","), "x");
	KEXPECT_STREQ(t, strsep(&s, ","), "");
	KEXPECT_TRUE(t, s == NULL);
}

/* Words at blanks, runs of blanks as one; more words than room is -E2BIG. */
static void test_argv_split_inplace(struct ktest *t)
{
	char line[] = "  run\t/bin/x  a ", blank[] = " \t ", many[] = "a b c d";
	char *argv[3];

	KEXPECT_EQ(t, argv_split_inplace(line, argv, 3), 3);
	KEXPECT_STREQ(t, argv[0], "run");
	KEXPECT_STREQ(t, argv[1], "/bin/x");
	KEXPECT_STREQ(t, argv[2], "a");
	KEXPECT_EQ(t, argv_split_inplace(blank, argv, 3), 0);
	KEXPECT_EQ(t, argv_split_inplace(many, argv, 3), -E2BIG);
	KEXPECT_STREQ(t, argv[2], "c");
}

/* The whole word, not a prefix; the first NULL ends the table; n bounds it. */
static void test_match_string(struct ktest *t)
{
	static const char *const words[] = { "read", "write", "randread", NULL, "rw" };

	KEXPECT_EQ(t, match_string(words, ARRAY_SIZE(words), "read"), 0);
	KEXPECT_EQ(t, match_string(words, ARRAY_SIZE(words), "randread"), 2);
	KEXPECT_EQ(t, match_string(words, ARRAY_SIZE(words), "rand"), -EINVAL);
	KEXPECT_EQ(t, match_string(words, ARRAY_SIZE(words), "readx"), -EINVAL);
	KEXPECT_EQ(t, match_string(words, ARRAY_SIZE(words), "rw"), -EINVAL);
	KEXPECT_EQ(t, match_string(words, 2, "randread"), -EINVAL);
	KEXPECT_EQ(t, match_string(words, ARRAY_SIZE(words), NULL), -EINVAL);
}

static void test_skip_spaces(struct ktest *t)
{
	const char *s = " \t\n\v\f\rx y";

	KEXPECT_TRUE(t, skip_spaces(s) == s + 6);
	KEXPECT_STREQ(t, skip_spaces("abc"), "abc");
	KEXPECT_STREQ(t, skip_spaces("   "), "");
	KEXPECT_STREQ(t, skip_spaces(""), "");
}

static void test_strim(struct ktest *t)
{
	char a[] = "  hello world \t\n";
	char b[] = "   ";
	char c[] = "";
	char d[] = "x";

	KEXPECT_STREQ(t, strim(a), "hello world");
	/* Trailing space is cut in place. */
	KEXPECT_EQ(t, a[13], '\0');
	KEXPECT_STREQ(t, strim(b), "");
	KEXPECT_STREQ(t, strim(c), "");
	KEXPECT_STREQ(t, strim(d), "x");
}

static void test_ctype(struct ktest *t)
{
	KEXPECT_TRUE(t, isdigit('0') && isdigit('9') && !isdigit('a'));
	KEXPECT_TRUE(t, isxdigit('f') && isxdigit('F') && !isxdigit('g'));
	KEXPECT_TRUE(t, isspace(' ') && isspace('\t') && !isspace('x'));
	KEXPECT_TRUE(t, isalpha('a') && isalpha('Z') && !isalpha('@'));
	KEXPECT_TRUE(t, !isalpha('[') && !isalpha('`') && !isalpha('{'));
	KEXPECT_EQ(t, tolower('Q'), 'q');
	KEXPECT_EQ(t, tolower('q'), 'q');
	KEXPECT_EQ(t, tolower('@'), '@');
}

static void test_strlist_has(struct ktest *t)
{
	KEXPECT_TRUE(t, strlist_has("all", "anything"));
	KEXPECT_TRUE(t, strlist_has("a,bb,c", "bb"));
	KEXPECT_TRUE(t, strlist_has("a,bb,c", "a"));
	KEXPECT_TRUE(t, strlist_has("a,bb,c", "c"));
	KEXPECT_FALSE(t, strlist_has("a,bb,c", "b"));
	KEXPECT_FALSE(t, strlist_has("a,bb,c", "bbb"));
	KEXPECT_FALSE(t, strlist_has("", "a"));
	KEXPECT_TRUE(t, strlist_has("x,,y", ""));
	KEXPECT_TRUE(t, strlist_has("all,-dm", "block"));
	KEXPECT_FALSE(t, strlist_has("all,-dm", "dm"));
	KEXPECT_FALSE(t, strlist_has("-dm,all", "dm"));
	KEXPECT_TRUE(t, strlist_has("all,-dm", "d"));
	KEXPECT_TRUE(t, strlist_has("all,-dm", "dmx"));
	KEXPECT_FALSE(t, strlist_has("-dm", "block"));
}

static struct ktest_case string_cases[] = {
	KTEST_CASE(test_strlist_has),
	KTEST_CASE(test_memcpy_sweep),
	KTEST_CASE(test_memmove_overlap),
	KTEST_CASE(test_memmove_backward_long),
	KTEST_CASE(test_memset_sweep),
	KTEST_CASE(test_memset_byte_only),
	KTEST_CASE(test_memcmp),
	KTEST_CASE(test_memchr),
	KTEST_CASE(test_strlen),
	KTEST_CASE(test_strnlen_unterminated),
	KTEST_CASE(test_strcmp),
	KTEST_CASE(test_strncmp),
	KTEST_CASE(test_strchr),
	KTEST_CASE(test_strlcpy),
	KTEST_CASE(test_strlcat),
	KTEST_CASE(test_strstr),
	KTEST_CASE(test_strsep),
	KTEST_CASE(test_strsep_edges),
	KTEST_CASE(test_argv_split_inplace),
	KTEST_CASE(test_match_string),
	KTEST_CASE(test_skip_spaces),
	KTEST_CASE(test_strim),
	KTEST_CASE(test_ctype),
	{}
};
KTEST_SUITE(string, string_cases);
