// SPDX-License-Identifier: MIT
/*
 * The initramfs: Linux's cpio "newc" archives (lib/cpio.c), read-only and
 * in place. The kernel carries one built in (the Makefile packs user/'s
 * programs into it, as Linux's CONFIG_INITRAMFS_SOURCE does); a loader may
 * add more: QEMU's -initrd, a GRUB module, the Pi firmware's `initramfs`
 * line in config.txt all arrive as boot modules, and each one that starts
 * with the newc magic is read after the built-in one, a later file of the
 * same name winning, as when Linux unpacks them in turn; one module may
 * hold several archives back to back, as Linux's may. Hard links and
 * symbolic links are as Linux makes them (lib/ramfs.c). Nothing is
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

static struct ramfs fs;
static bool loaded;
static DEFINE_MUTEX(load_lock);

/*
 * A boot module: an archive (or several), or something else. Linux would
 * decompress a compressed one; Pagoda says so rather than drop it quietly.
 */
static void load_module(const struct boot_module *m)
{
	const char *name = m->name[0] ? m->name : "initrd";
	const char *data = __va(m->base);
	const char *comp = cpio_compression(data, m->size);

	if (m->size >= 6 && (!memcmp(data, "070701", 6) || !memcmp(data, "070702", 6)))
		ramfs_load(&fs, data, m->size, name);
	else if (comp)
		pr_err("initramfs: %s: %s-compressed; this kernel reads uncompressed newc "
		       "archives only: unpack it first, its files are not here\n", name, comp);
	else
		pr_info("initramfs: %s: not a cpio archive; left alone\n", name);
}

static void load_all(void)
{
	mutex_lock(&load_lock);
	if (!loaded) {
		ramfs_load(&fs, __initramfs_start, __initramfs_end - __initramfs_start, "built-in");
		for (u32 i = 0; i < boot_info.nr_modules; i++)
			load_module(&boot_info.modules[i]);
		loaded = true;
	}
	mutex_unlock(&load_lock);
}

const struct ramfs_file *ramfs_lookup(const char *path)
{
	load_all();
	return ramfs_find(&fs, path, true);
}

const struct ramfs_file *ramfs_lookup_nofollow(const char *path)
{
	load_all();
	return ramfs_find(&fs, path, false);
}

void ramfs_for_each(void (*fn)(const struct ramfs_file *f, void *arg), void *arg)
{
	load_all();
	for (unsigned int i = 0; i < fs.nr; i++)
		fn(&fs.files[i], arg);
}

static int cmd_ls(int argc, char **argv)
{
	load_all();
	for (unsigned int i = 0; i < fs.nr; i++) {
		const struct ramfs_file *f = &fs.files[i];
		u32 type = f->mode & CPIO_S_IFMT;

		kprintf("%c%04o %8llu /%s", type == CPIO_S_IFDIR ? 'd' : type == CPIO_S_IFLNK ? 'l' : '-',
			f->mode & 07777, (unsigned long long)f->size, f->path);
		if (type == CPIO_S_IFLNK)
			kprintf(" -> %.*s", (int)f->size, (const char *)f->data);
		kprintf("\n");
	}
	return 0;
}
SHELL_CMD(ls, "ls", "the initramfs's files", cmd_ls);
