// SPDX-License-Identifier: MIT
/*
 * The initramfs: Linux's cpio "newc" archives (lib/cpio.c), read-only and
 * in place. The kernel carries one built in (the Makefile packs user/'s
 * programs into it, as Linux's CONFIG_INITRAMFS_SOURCE does); a loader may
 * add more: QEMU's -initrd, a GRUB module, the Pi firmware's `initramfs`
 * line in config.txt all arrive as boot modules, and each one that starts
 * with the newc magic is read after the built-in one, a later file of the
 * same name winning, as when Linux unpacks them in turn. Nothing is
 * copied: the built-in archive is in .rodata, a module's pages stay
 * reserved.
 */
#include <pagoda/boot_info.h>
#include <pagoda/cpio.h>
#include <pagoda/initramfs.h>
#include <pagoda/mm.h>
#include <pagoda/mutex.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>

extern const char __initramfs_start[], __initramfs_end[];

#define MAX_FILES 256

static struct ramfs_file files[MAX_FILES];
static unsigned int nr_files;
static bool loaded;
static DEFINE_MUTEX(load_lock);

static void add_file(const struct cpio_entry *e)
{
	const char *name = e->name;

	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (*name == '/')
		name++;
	for (unsigned int i = 0; i < nr_files; i++)
		if (!strcmp(files[i].path, name)) {
			files[i] = (struct ramfs_file){ name, e->data, e->size, e->mode };
			return;
		}
	if (nr_files == MAX_FILES) {
		pr_warn("initramfs: more than %d files; %s left out\n", MAX_FILES, name);
		return;
	}
	files[nr_files++] = (struct ramfs_file){ name, e->data, e->size, e->mode };
}

static void load_archive(const void *buf, size_t size, const char *what)
{
	struct cpio_entry e;
	const char *why;
	size_t pos = 0;
	unsigned int n = 0;
	int r;

	while ((r = cpio_next(buf, size, &pos, &e, &why)) == 1) {
		add_file(&e);
		n++;
	}
	if (r < 0)
		pr_err("initramfs: %s: %s at byte %zu; the %u entries before it are kept\n",
		       what, why, pos, n);
	else
		pr_info("initramfs: %s: %u entries\n", what, n);
}

static void load_all(void)
{
	mutex_lock(&load_lock);
	if (!loaded) {
		load_archive(__initramfs_start, __initramfs_end - __initramfs_start, "built-in");
		for (u32 i = 0; i < boot_info.nr_modules; i++) {
			const struct boot_module *m = &boot_info.modules[i];

			if (m->size >= 6 && !memcmp(__va(m->base), "070701", 6))
				load_archive(__va(m->base), m->size, m->name[0] ? m->name : "initrd");
		}
		loaded = true;
	}
	mutex_unlock(&load_lock);
}

const struct ramfs_file *ramfs_lookup(const char *path)
{
	load_all();
	while (*path == '/')
		path++;
	for (unsigned int i = 0; i < nr_files; i++)
		if (!strcmp(files[i].path, path))
			return &files[i];
	return NULL;
}

static int cmd_ls(int argc, char **argv)
{
	load_all();
	for (unsigned int i = 0; i < nr_files; i++)
		kprintf("%c%04o %8llu /%s\n",
			(files[i].mode & CPIO_S_IFMT) == CPIO_S_IFDIR ? 'd' : '-',
			files[i].mode & 07777, (unsigned long long)files[i].size, files[i].path);
	return 0;
}
SHELL_CMD(ls, "ls", "the initramfs's files", cmd_ls);
