// SPDX-License-Identifier: MIT
/*
 * The root of the tree: the initramfs (kernel/initramfs.c), read-only and
 * read in place. Its files open as FILE_RAMFS (kernel/read_write.c reads
 * them straight from the archive); anything that would write is -EROFS.
 * Symbolic links inside it are followed by lib/ramfs.c.
 */
#include <pagoda/cpio.h>
#include <pagoda/file.h>
#include <pagoda/initramfs.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include "internal.h"

void ramfs_stat(const struct ramfs_file *rf, struct kstat *k)
{
	*k = (struct kstat){
		/* The file's first entry's address: unique and stable, and the
		 * same for every name of a hard-linked file. */
		.ino = ((u64)(uintptr_t)rf->inode >> 4) & 0xffffffff,
		.nlink = rf->nlink,
		.size = rf->size,
		.blocks = (rf->size + 511) / 512,
		.mode = rf->mode,
		.blksize = PAGE_SIZE,
	};
}

static const struct ramfs_file *find(const char *path, bool follow)
{
	return follow ? ramfs_lookup(path) : ramfs_lookup_nofollow(path);
}

static int rootfs_getattr(struct vfsmount *m, const char *path, struct kstat *k, bool follow)
{
	const struct ramfs_file *rf;

	(void)m;
	if (!path[0]) {
		/* The root: an archive need not have an entry for it. */
		*k = (struct kstat){ .ino = 1, .nlink = 2, .mode = S_IFDIR | 0755,
				     .blksize = PAGE_SIZE };
		return 0;
	}
	rf = find(path, follow);
	if (!rf)
		return -ENOENT;
	ramfs_stat(rf, k);
	return 0;
}

static int rootfs_open(struct vfsmount *m, const char *path, unsigned long flags, u32 mode,
		       struct file *f)
{
	const struct ramfs_file *rf = find(path, true);

	(void)m;
	(void)mode;
	if (may_write_open(flags))
		return rf || (flags & O_CREAT) ? -EROFS : -ENOENT;
	if (!rf)
		return -ENOENT;
	f->kind = FILE_RAMFS;
	f->rf = rf;
	return 0;
}

struct readdir_walk {
	const char *dir;
	size_t len;
	struct dir_context *ctx;
	int err;
};

static unsigned int dtype(u32 mode)
{
	switch (mode & CPIO_S_IFMT) {
	case CPIO_S_IFDIR:
		return DT_DIR;
	case CPIO_S_IFLNK:
		return DT_LNK;
	case CPIO_S_IFREG:
		return DT_REG;
	default:
		return DT_UNKNOWN;
	}
}

static void emit_child(const struct ramfs_file *f, void *arg)
{
	struct readdir_walk *w = arg;
	const char *name = f->path;

	if (w->len) {
		if (strncmp(name, w->dir, w->len) || name[w->len] != '/')
			return;
		name += w->len + 1;
	}
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || w->err)
		return;
	w->err = dir_emit(w->ctx, name, strlen(name), ((u64)(uintptr_t)f->inode >> 4) & 0xffffffff,
			  dtype(f->mode));
}

static int rootfs_readdir(struct vfsmount *m, const char *path, struct dir_context *ctx)
{
	char dir[PATH_MAX];
	struct readdir_walk w = { .ctx = ctx };
	const struct ramfs_file *rf;

	(void)m;
	/* A directory reached through a symbolic link is listed under its real name. */
	if (path[0]) {
		rf = ramfs_lookup(path);
		if (!rf)
			return -ENOENT;
		strlcpy(dir, rf->path, sizeof(dir));
	} else {
		dir[0] = '\0';
	}
	w.dir = dir;
	w.len = strlen(dir);
	ramfs_for_each(emit_child, &w);
	return w.err;
}

static int rootfs_readlink(struct vfsmount *m, const char *path, char *buf, size_t size)
{
	const struct ramfs_file *rf = path[0] ? ramfs_lookup_nofollow(path) : NULL;
	size_t n;

	(void)m;
	if (!path[0])
		return -EINVAL;
	if (!rf)
		return -ENOENT;
	if ((rf->mode & CPIO_S_IFMT) != CPIO_S_IFLNK)
		return -EINVAL;
	n = MIN((size_t)rf->size, size);
	memcpy(buf, rf->data, n);
	return (int)n;
}

const struct file_system_type rootfs_fs_type = {
	.name = "rootfs",
	.nodev = true,
	.getattr = rootfs_getattr,
	.open = rootfs_open,
	.readdir = rootfs_readdir,
	.readlink = rootfs_readlink,
};
