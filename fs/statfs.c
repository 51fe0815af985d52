// SPDX-License-Identifier: MIT
/*
 * statfs(path, buf) and fstatfs(fd, buf), after Linux's fs/statfs.c: which
 * file system a file is on, by its magic number, in struct statfs (120
 * bytes, the same layout on x86-64 and arm64). Programs ask to tell file
 * systems apart: libselinux (behind Debian's ls) whether selinuxfs is
 * mounted, df and `stat -f` for the kind. No file system here has a size
 * limit, so the block and inode counts are 0, as Linux's ramfs answers.
 */
#include <pagoda/file.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include "../kernel/syscalls.h"
#include "internal.h"

/* Linux's <linux/magic.h>: the initramfs is a ramfs there too. */
#define RAMFS_MAGIC 0x858458f6UL
#define TMPFS_MAGIC 0x01021994UL
#define PROC_SUPER_MAGIC 0x9fa0UL
#define PIPEFS_MAGIC 0x50495045UL
#define ST_RDONLY 0x1UL
#define ST_VALID 0x20UL

/* f_type, f_bsize, blocks (4), files (2), fsid, f_namelen, f_frsize, f_flags, spare. */
static long put_statfs(u64 ubuf, unsigned long magic, bool rdonly)
{
	u64 buf[15];

	memset(buf, 0, sizeof(buf));
	buf[0] = magic;
	buf[1] = PAGE_SIZE;                           /* f_bsize */
	buf[8] = 255;                                 /* f_namelen */
	buf[9] = PAGE_SIZE;                           /* f_frsize */
	buf[10] = ST_VALID | (rdonly ? ST_RDONLY : 0); /* f_flags */
	return copy_to_user(ubuf, buf, sizeof(buf)) ? -EFAULT : 0;
}

static unsigned long fs_magic(const struct file_system_type *t)
{
	if (t == &proc_fs_type)
		return PROC_SUPER_MAGIC;
	if (t == &rootfs_fs_type)
		return RAMFS_MAGIC;
	return TMPFS_MAGIC; /* tmpfs, and devtmpfs, which is one on Linux */
}

long sys_statfs(const unsigned long *args)
{
	char path[PATH_MAX];
	const char *rest;
	struct vfsmount *m;
	struct kstat k;
	int err = user_path_mnt(AT_FDCWD, args[0], path, &m, &rest);

	if (err)
		return err;
	err = m->type->getattr(m, rest, &k, true);
	if (!err)
		err = (int)put_statfs(args[1], fs_magic(m->type), m->type == &rootfs_fs_type);
	mntput(m);
	return err;
}

long sys_fstatfs(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);

	if (!f)
		return -EBADF;
	if (f->kind == FILE_PIPE)
		return put_statfs(args[1], PIPEFS_MAGIC, false);
	if (f->mnt)
		return put_statfs(args[1], fs_magic(f->mnt->type), f->mnt->type == &rootfs_fs_type);
	/* Opened without a mount: an initramfs file, or the console and devices. */
	if (f->kind == FILE_RAMFS)
		return put_statfs(args[1], RAMFS_MAGIC, true);
	return put_statfs(args[1], TMPFS_MAGIC, false);
}
