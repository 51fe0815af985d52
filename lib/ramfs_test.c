// SPDX-License-Identifier: MIT
/*
 * Tests for lib/ramfs.c on archives laid out as GNU cpio and Linux's
 * gen_init_cpio write them: hard links (the data with the last name, or
 * the first), symbolic links (absolute, relative, in the middle of a path,
 * in a loop), "." entries, a later archive replacing a file.
 */
#include <pagoda/cpio.h>
#include <pagoda/ktest.h>
#include <pagoda/printk.h>
#include <pagoda/ramfs.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

static char arc[4096];
static size_t arc_len;

static void put(const char *name, u32 mode, u32 ino, u32 nlink, const char *data)
{
	size_t nlen = strlen(name) + 1, dlen = data ? strlen(data) : 0;

	arc_len += snprintf(arc + arc_len, sizeof(arc) - arc_len,
			    "070701%08x%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x", ino,
			    mode, 0, 0, nlink, 0, dlen, 8, 1, 0, 0, nlen, 0);
	memcpy(arc + arc_len, name, nlen);
	arc_len = (arc_len + nlen + 3) & ~3UL;
	memcpy(arc + arc_len, data, dlen);
	arc_len = (arc_len + dlen + 3) & ~3UL;
}

#define DIR (CPIO_S_IFDIR | 0755)
#define REG (CPIO_S_IFREG | 0644)
#define LNK (CPIO_S_IFLNK | 0777)

static struct ramfs *fresh(void)
{
	memset(arc, 0, sizeof(arc));
	arc_len = 0;
	return kzalloc(sizeof(struct ramfs), GFP_KERNEL);
}

static bool holds(struct ramfs *fs, const char *path, const char *data)
{
	const struct ramfs_file *f = ramfs_find(fs, path, true);

	return f && f->size == strlen(data) && !memcmp(f->data, data, f->size);
}

/* GNU cpio (find . | cpio -o -H newc): "." first, "./" names, links' data last. */
static void test_hard_links(struct ktest *t)
{
	struct ramfs *fs = fresh();
	const struct ramfs_file *a, *b, *c;

	KASSERT_TRUE(t, fs != NULL);
	put(".", DIR, 1, 3, NULL);
	put("./etc", DIR, 2, 2, NULL);
	put("./etc/a", REG, 7, 3, NULL);
	put("./etc/b", REG, 7, 3, NULL);
	put("./etc/c", REG, 7, 3, "shared\n");
	put("./etc/other", REG, 8, 1, "alone\n");
	put("TRAILER!!!", 0, 0, 1, NULL);
	KASSERT_EQ(t, ramfs_load(fs, arc, arc_len, "test"), 0);
	KEXPECT_EQ(t, fs->nr, 5); /* "." is the root itself: not a file */
	a = ramfs_find(fs, "/etc/a", true);
	b = ramfs_find(fs, "etc/b", true);
	c = ramfs_find(fs, "./etc/c", true);
	KASSERT_TRUE(t, a && b && c);
	KEXPECT_TRUE(t, holds(fs, "etc/a", "shared\n"));
	KEXPECT_TRUE(t, holds(fs, "etc/b", "shared\n"));
	KEXPECT_TRUE(t, holds(fs, "etc/c", "shared\n"));
	KEXPECT_TRUE(t, a->inode == b->inode && b->inode == c->inode);
	KEXPECT_EQ(t, a->nlink, 3);
	KEXPECT_TRUE(t, ramfs_find(fs, "etc/other", true)->inode != a->inode);
	KEXPECT_TRUE(t, holds(fs, "etc/other", "alone\n"));
	kfree(fs);
}

/* The data with the first name (another writer's order), and links that
 * do not reach into the next archive (Linux forgets them at a trailer). */
static void test_hard_links_first_and_per_archive(struct ktest *t)
{
	struct ramfs *fs = fresh();

	KASSERT_TRUE(t, fs != NULL);
	put("bin/x", REG, 5, 2, "first\n");
	put("bin/y", REG, 5, 2, NULL);
	put("TRAILER!!!", 0, 0, 1, NULL);
	put("bin/z", REG, 5, 2, NULL); /* ino 5 again, but a new archive */
	put("TRAILER!!!", 0, 0, 1, NULL);
	KASSERT_EQ(t, ramfs_load(fs, arc, arc_len, "test"), 0);
	KEXPECT_TRUE(t, holds(fs, "bin/x", "first\n"));
	KEXPECT_TRUE(t, holds(fs, "bin/y", "first\n"));
	KEXPECT_TRUE(t, holds(fs, "bin/z", ""));
	kfree(fs);
}

static void test_symlinks(struct ktest *t)
{
	struct ramfs *fs = fresh();
	const struct ramfs_file *l;

	KASSERT_TRUE(t, fs != NULL);
	put("usr", DIR, 1, 2, NULL);
	put("usr/bin", DIR, 2, 2, NULL);
	put("usr/bin/tool", REG, 3, 1, "elf\n");
	put("bin", LNK, 4, 1, "usr/bin");         /* relative, a directory */
	put("usr/bin/alias", LNK, 5, 1, "tool");   /* relative to its directory */
	put("usr/bin/abs", LNK, 6, 1, "/usr/bin/tool");
	put("usr/bin/up", LNK, 7, 1, "../bin/./tool");
	put("loop1", LNK, 8, 1, "loop2");
	put("loop2", LNK, 9, 1, "loop1");
	put("dangling", LNK, 10, 1, "nowhere");
	put("TRAILER!!!", 0, 0, 1, NULL);
	KASSERT_EQ(t, ramfs_load(fs, arc, arc_len, "test"), 0);
	KEXPECT_TRUE(t, holds(fs, "/bin/tool", "elf\n"));
	KEXPECT_TRUE(t, holds(fs, "/bin/alias", "elf\n"));
	KEXPECT_TRUE(t, holds(fs, "/usr/bin/alias", "elf\n"));
	KEXPECT_TRUE(t, holds(fs, "/usr/bin/abs", "elf\n"));
	KEXPECT_TRUE(t, holds(fs, "/bin/up", "elf\n"));
	KEXPECT_TRUE(t, holds(fs, "/usr/../usr/bin/tool", "elf\n"));
	/* lstat's view: the link itself, its size the target's length */
	l = ramfs_find(fs, "/usr/bin/alias", false);
	KASSERT_TRUE(t, l != NULL);
	KEXPECT_EQ(t, l->mode & CPIO_S_IFMT, CPIO_S_IFLNK);
	KEXPECT_EQ(t, l->size, 4);
	/* but a link in the middle of the path is followed even so */
	KEXPECT_TRUE(t, ramfs_find(fs, "/bin/tool", false) != NULL);
	KEXPECT_TRUE(t, ramfs_find(fs, "/loop1", true) == NULL);
	KEXPECT_TRUE(t, ramfs_find(fs, "/dangling", true) == NULL);
	KEXPECT_TRUE(t, ramfs_find(fs, "/dangling", false) != NULL);
	kfree(fs);
}

/* A later archive (a boot module) replaces a file of an earlier one. */
static void test_later_archive_wins(struct ktest *t)
{
	struct ramfs *fs = fresh();
	size_t first;

	KASSERT_TRUE(t, fs != NULL);
	put("etc/motd", REG, 1, 1, "old\n");
	put("TRAILER!!!", 0, 0, 1, NULL);
	first = arc_len;
	put("etc/motd", REG, 1, 1, "new\n");
	put("TRAILER!!!", 0, 0, 1, NULL);
	KASSERT_EQ(t, ramfs_load(fs, arc, first, "one"), 0);
	KEXPECT_TRUE(t, holds(fs, "etc/motd", "old\n"));
	KASSERT_EQ(t, ramfs_load(fs, arc + first, arc_len - first, "two"), 0);
	KEXPECT_TRUE(t, holds(fs, "etc/motd", "new\n"));
	KEXPECT_EQ(t, fs->nr, 1);
	kfree(fs);
}

/*
 * A later archive over a hard-linked name: a file writes into the file,
 * every name sees it; a symbolic link takes the name alone, the other
 * name keeps the old file.
 */
static void test_later_archive_over_links(struct ktest *t)
{
	struct ramfs *fs = fresh();
	size_t first;

	KASSERT_TRUE(t, fs != NULL);
	put("etc/a", REG, 4, 2, NULL);
	put("etc/b", REG, 4, 2, "old\n");
	put("etc/c", REG, 5, 2, NULL);
	put("etc/d", REG, 5, 2, "kept\n");
	put("TRAILER!!!", 0, 0, 1, NULL);
	first = arc_len;
	put("etc/a", REG, 9, 1, "new\n");
	put("etc/c", LNK, 10, 1, "a");
	put("TRAILER!!!", 0, 0, 1, NULL);
	KASSERT_EQ(t, ramfs_load(fs, arc, first, "one"), 0);
	KASSERT_EQ(t, ramfs_load(fs, arc + first, arc_len - first, "two"), 0);
	KEXPECT_TRUE(t, holds(fs, "etc/a", "new\n"));
	KEXPECT_TRUE(t, holds(fs, "etc/b", "new\n"));
	KEXPECT_TRUE(t, holds(fs, "etc/d", "kept\n"));
	KEXPECT_TRUE(t, holds(fs, "etc/c", "new\n")); /* the link, to etc/a */
	KEXPECT_TRUE(t, ramfs_find(fs, "etc/d", false)->inode !=
			ramfs_find(fs, "etc/c", false)->inode);
	KEXPECT_TRUE(t, ramfs_find(fs, "etc/d", false)->inode == ramfs_find(fs, "etc/d", false));
	kfree(fs);
}

static struct ktest_case ramfs_cases[] = {
	KTEST_CASE(test_hard_links),
	KTEST_CASE(test_hard_links_first_and_per_archive),
	KTEST_CASE(test_symlinks),
	KTEST_CASE(test_later_archive_wins),
	KTEST_CASE(test_later_archive_over_links),
	{}
};
KTEST_SUITE(ramfs, ramfs_cases);
