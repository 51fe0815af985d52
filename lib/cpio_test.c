// SPDX-License-Identifier: MIT
/* Tests for lib/cpio.c: a small archive read back, and malformed ones refused. */
#include <pagoda/cpio.h>
#include <pagoda/ktest.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

static char arc[1024];
static size_t arc_len;

static void add(const char *name, u32 mode, const char *data)
{
	size_t nlen = strlen(name) + 1, dlen = data ? strlen(data) : 0;

	arc_len += snprintf(arc + arc_len, sizeof(arc) - arc_len,
			    "070701%08x%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x",
			    1, mode, 0, 0, 1, 0, dlen, 0, 0, 0, 0, nlen, 0);
	memcpy(arc + arc_len, name, nlen);
	arc_len = (arc_len + nlen + 3) & ~3UL;
	memcpy(arc + arc_len, data, dlen);
	arc_len = (arc_len + dlen + 3) & ~3UL;
}

static void build(void)
{
	memset(arc, 0, sizeof(arc));
	arc_len = 0;
	add("bin", CPIO_S_IFDIR | 0755, NULL);
	add("bin/hello", CPIO_S_IFREG | 0755, "abcdefg");
	add("etc/motd", CPIO_S_IFREG | 0644, "hi\n");
	add("TRAILER!!!", 0, NULL);
}

static int count(size_t len, const char **why)
{
	struct cpio_entry e;
	size_t pos = 0;
	int n = 0, r;

	while ((r = cpio_next(arc, len, &pos, &e, why)) == 1)
		n++;
	return r < 0 ? r : n;
}

static void test_read_back(struct ktest *t)
{
	struct cpio_entry e;
	const char *why;
	size_t pos = 0;

	build();
	KASSERT_EQ(t, cpio_next(arc, arc_len, &pos, &e, &why), 1);
	KEXPECT_STREQ(t, e.name, "bin");
	KEXPECT_EQ(t, e.mode & CPIO_S_IFMT, CPIO_S_IFDIR);
	KASSERT_EQ(t, cpio_next(arc, arc_len, &pos, &e, &why), 1);
	KEXPECT_STREQ(t, e.name, "bin/hello");
	KEXPECT_EQ(t, e.size, 7);
	KEXPECT_EQ(t, memcmp(e.data, "abcdefg", 7), 0);
	KEXPECT_EQ(t, (uptr)e.data % 4, 0);
	KASSERT_EQ(t, cpio_next(arc, arc_len, &pos, &e, &why), 1);
	KEXPECT_STREQ(t, e.name, "etc/motd");
	KEXPECT_EQ(t, cpio_next(arc, arc_len, &pos, &e, &why), 0);
	/* Zero padding after the archive (a block-sized image) is fine. */
	KEXPECT_EQ(t, count(sizeof(arc), &why), 3);
}

static void test_malformed(struct ktest *t)
{
	const char *why;

	build();
	KEXPECT_EQ(t, count(arc_len - 20, &why), -EINVAL); /* cut in the last header */
	KEXPECT_EQ(t, count(130, &why), -EINVAL);          /* cut in a name */
	build();
	arc[0] = '1';
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	build();
	arc[6 + 8 * 6] = 'x'; /* filesize not hex */
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	build();
	memcpy(arc + 6 + 8 * 6, "7fffffff", 8); /* data past the end */
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "past") != NULL);
	build();
	memcpy(arc + 6 + 8 * 11, "00000002", 8); /* "bin" with namesize 2: no NUL there */
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	build();
	memcpy(arc + 6 + 8 * 11, "00000000", 8);
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
}

static struct ktest_case cpio_cases[] = {
	KTEST_CASE(test_read_back),
	KTEST_CASE(test_malformed),
	{}
};
KTEST_SUITE(cpio, cpio_cases);
