// SPDX-License-Identifier: MIT
/*
 * Tests for lib/cpio.c: an archive read back; several archives one after
 * another with zeros between them; 070702 checksums; compressed and
 * malformed input refused with the reason.
 */
#include <pagoda/cpio.h>
#include <pagoda/ktest.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

static char arc[2048];
static size_t arc_len;

/* One entry, newc (070701) or newc-crc (070702, the data's byte sum). */
static void add_entry(const char *magic, const char *name, u32 mode, u32 ino, u32 nlink,
		      const char *data)
{
	size_t nlen = strlen(name) + 1, dlen = data ? strlen(data) : 0;
	u32 sum = 0;

	for (size_t i = 0; i < dlen; i++)
		sum += (u8)data[i];
	arc_len += snprintf(arc + arc_len, sizeof(arc) - arc_len,
			    "%s%08x%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x", magic,
			    ino, mode, 0, 0, nlink, 0, dlen, 0, 0, 0, 0, nlen,
			    magic[5] == '2' ? sum : 0);
	memcpy(arc + arc_len, name, nlen);
	arc_len = (arc_len + nlen + 3) & ~3UL;
	memcpy(arc + arc_len, data, dlen);
	arc_len = (arc_len + dlen + 3) & ~3UL;
}

static void add(const char *name, u32 mode, const char *data)
{
	add_entry("070701", name, mode, 1, 1, data);
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

/* Entries until the end or an error; the error's reason in *why. */
static int count(size_t len, const char **why)
{
	struct cpio_iter it;
	struct cpio_entry e;
	int n = 0, r;

	cpio_iter_init(&it, arc, len);
	while ((r = cpio_next(&it, &e, why)) > 0)
		n += r == CPIO_ENTRY;
	return r < 0 ? r : n;
}

static void test_read_back(struct ktest *t)
{
	struct cpio_iter it;
	struct cpio_entry e;
	const char *why;

	build();
	cpio_iter_init(&it, arc, arc_len);
	KASSERT_EQ(t, cpio_next(&it, &e, &why), CPIO_ENTRY);
	KEXPECT_STREQ(t, e.name, "bin");
	KEXPECT_EQ(t, e.mode & CPIO_S_IFMT, CPIO_S_IFDIR);
	KASSERT_EQ(t, cpio_next(&it, &e, &why), CPIO_ENTRY);
	KEXPECT_STREQ(t, e.name, "bin/hello");
	KEXPECT_EQ(t, e.size, 7);
	KEXPECT_EQ(t, memcmp(e.data, "abcdefg", 7), 0);
	KEXPECT_EQ(t, (uptr)e.data % 4, 0);
	KASSERT_EQ(t, cpio_next(&it, &e, &why), CPIO_ENTRY);
	KEXPECT_STREQ(t, e.name, "etc/motd");
	KEXPECT_EQ(t, cpio_next(&it, &e, &why), CPIO_TRAILER);
	KEXPECT_EQ(t, cpio_next(&it, &e, &why), CPIO_END);
	/* Zero padding after the archive (a block-sized image) is fine. */
	KEXPECT_EQ(t, count(sizeof(arc), &why), 3);
}

/*
 * Archives back to back, as Linux takes them (an early archive, then the
 * main one): all their entries, with zeros between them or without.
 */
static void test_several_archives(struct ktest *t)
{
	const char *why;

	build();
	arc_len += 512; /* zeros, a block's worth */
	add("etc/second", CPIO_S_IFREG | 0644, "2\n");
	add("TRAILER!!!", 0, NULL);
	add("etc/third", CPIO_S_IFREG | 0644, "3\n");
	add("TRAILER!!!", 0, NULL);
	KEXPECT_EQ(t, count(arc_len, &why), 5);
	KEXPECT_EQ(t, count(sizeof(arc), &why), 5);
	/* the last archive may end without its trailer, but not mid-entry */
	KEXPECT_EQ(t, count(arc_len - 124, &why), 5);
	KEXPECT_EQ(t, count(arc_len - 130, &why), -EINVAL);
}

static void test_checksums(struct ktest *t)
{
	const char *why;
	char *sum;

	memset(arc, 0, sizeof(arc));
	arc_len = 0;
	add_entry("070702", "etc/motd", CPIO_S_IFREG | 0644, 2, 1, "checked\n");
	add_entry("070702", "TRAILER!!!", 0, 0, 1, NULL);
	KEXPECT_EQ(t, count(arc_len, &why), 1);
	/* one byte of the data changed: refused */
	sum = memchr(arc, 'k', arc_len);
	KASSERT_TRUE(t, sum != NULL);
	*sum = 'K';
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "checksum") != NULL);
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
	/* zeros where an entry should be, inside an archive: no magic */
	build();
	memset(arc + 116, 0, 110);
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	/* a second archive off the 4-byte grid (Linux's "broken padding") */
	build();
	arc_len += 2;
	add("etc/late", CPIO_S_IFREG | 0644, "x");
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "padding") != NULL);
	/* the old portable format, and compressed data, named as such */
	build();
	memcpy(arc, "070707", 6);
	KEXPECT_EQ(t, count(arc_len, &why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "-H newc") != NULL);
	build();
	memcpy(arc + arc_len, "\x1f\x8b\x08\x00", 4); /* a gzip member after the archive */
	KEXPECT_EQ(t, count(arc_len + 4, &why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "compressed") != NULL);
	KEXPECT_STREQ(t, cpio_compression("\x28\xb5\x2f\xfd", 4), "zstd");
	KEXPECT_TRUE(t, cpio_compression("0707", 4) == NULL);
}

static struct ktest_case cpio_cases[] = {
	KTEST_CASE(test_read_back),
	KTEST_CASE(test_several_archives),
	KTEST_CASE(test_checksums),
	KTEST_CASE(test_malformed),
	{}
};
KTEST_SUITE(cpio, cpio_cases);
