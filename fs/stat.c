// SPDX-License-Identifier: MIT
/*
 * stat, fstat, newfstatat, statx, readlinkat and faccessat, after Linux's
 * fs/stat.c and fs/open.c: the path goes through fs/namei.c to the file
 * system mounted there; an open file answers for itself.
 */
#include <pagoda/chrdev.h>
#include <pagoda/file.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <asm/stat.h>
#include "../kernel/syscalls.h"
#include "internal.h"

#define AT_EMPTY_PATH 0x1000
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS 0x200
#define R_OK 4
#define W_OK 2
#define X_OK 1

/*
 * struct stat as the arch's Linux lays it out (<asm/stat.h>: x86-64 its
 * own, arm64 the generic one). No owner but root, no device number for a
 * file system's files, and one time, the modification's, for all three.
 */
long put_stat(u64 ubuf, const struct kstat *k)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_ino = k->ino;
	st.st_nlink = k->nlink;
	st.st_mode = k->mode;
	st.st_rdev = k->rdev;
	st.st_size = (s64)k->size;
	st.st_blksize = k->blksize;
	st.st_blocks = (s64)k->blocks;
	st.st_atime = st.st_mtime = st.st_ctime = k->mtime;
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

void console_stat(struct kstat *k)
{
	*k = (struct kstat){ .ino = 1, .nlink = 1, .mode = S_IFCHR | 0620,
			     .rdev = (5 << 8) | 1, .blksize = 1024 };
}

int file_getattr(struct file *f, struct kstat *k)
{
	switch (f->kind) {
	case FILE_CONSOLE:
		console_stat(k);
		return 0;
	case FILE_PIPE:
		*k = (struct kstat){ .ino = ((u64)(uintptr_t)f->pipe >> 4) & 0xffffffff,
				     .nlink = 1, .mode = S_IFIFO | 0600, .blksize = PAGE_SIZE };
		return 0;
	case FILE_CHR:
		chrdev_stat(f->chr, k);
		return 0;
	case FILE_RAMFS:
		ramfs_stat(f->rf, k);
		return 0;
	case FILE_OPS:
		if (f->f_op->getattr)
			return f->f_op->getattr(f, k);
		return f->path ? vfs_getattr(f->path, k, true) : -EBADF;
	}
	return -EBADF;
}

static long stat_fd(long fd, u64 ubuf)
{
	struct file *f __free(file_put) = fget(fd);
	struct kstat k;
	int err;

	if (!f)
		return -EBADF;
	err = file_getattr(f, &k);
	return err ? err : put_stat(ubuf, &k);
}

long sys_fstat(const unsigned long *args)
{
	return stat_fd((long)args[0], args[1]);
}

/* What dirfd and path name (the open file itself for "" with AT_EMPTY_PATH). */
static int getattr_at(long dirfd, u64 upath, unsigned long flags, struct kstat *k)
{
	char path[PATH_MAX];
	int err = user_path_at(dirfd, upath, path);

	if (err)
		return err;
	if (!path[0]) {
		struct file *f __free(file_put) = NULL;

		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		f = fget(dirfd);
		return f ? file_getattr(f, k) : -EBADF;
	}
	/* lstat: a symbolic link at the end is described, not followed */
	return vfs_getattr(path, k, !(flags & AT_SYMLINK_NOFOLLOW));
}

static long stat_path(long dirfd, u64 upath, u64 ubuf, unsigned long flags)
{
	struct kstat k;
	int err = getattr_at(dirfd, upath, flags, &k);

	return err ? err : put_stat(ubuf, &k);
}

#define AT_NO_AUTOMOUNT 0x800
#define AT_STATX_SYNC_TYPE 0x6000
#define STATX_BASIC_STATS 0x7ffU
#define STATX__RESERVED 0x80000000U

/*
 * statx(dirfd, path, flags, mask, buf): the same answer in Linux's struct
 * statx (256 bytes, one layout on every arch), which coreutils' ls and
 * stat ask for first. Every basic field is known whatever the mask asks
 * (Linux may give more than asked); the birth time is not (STATX_BTIME
 * stays clear). Times are the file's one time, in whole seconds, and a
 * device number is split into major and minor as Linux's new_encode_dev()
 * packs them.
 */
long sys_statx(const unsigned long *args)
{
	unsigned long flags = args[2];
	u8 buf[256];
	struct kstat k;
	u32 mask = STATX_BASIC_STATS, major, minor;
	u16 mode;
	int err;

	if (flags & ~(unsigned long)(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH |
				     AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (args[3] & STATX__RESERVED))
		return -EINVAL;
	err = getattr_at((long)args[0], args[1], flags, &k);
	if (err)
		return err;
	memset(buf, 0, sizeof(buf));
	mode = (u16)k.mode;
	major = (u32)((k.rdev >> 8) & 0xfff);
	minor = (u32)((k.rdev & 0xff) | ((k.rdev >> 12) & 0xfff00));
	memcpy(buf + 0, &mask, 4);        /* stx_mask */
	memcpy(buf + 4, &k.blksize, 4);   /* stx_blksize */
	memcpy(buf + 16, &k.nlink, 4);    /* stx_nlink (u32; uid, gid: root's 0) */
	memcpy(buf + 28, &mode, 2);       /* stx_mode */
	memcpy(buf + 32, &k.ino, 8);      /* stx_ino */
	memcpy(buf + 40, &k.size, 8);     /* stx_size */
	memcpy(buf + 48, &k.blocks, 8);   /* stx_blocks */
	for (int at = 64; at <= 112; at += 16)
		if (at != 80)             /* atime, ctime, mtime; not btime */
			memcpy(buf + at, &k.mtime, 8);
	memcpy(buf + 128, &major, 4);     /* stx_rdev_major */
	memcpy(buf + 132, &minor, 4);     /* stx_rdev_minor */
	return copy_to_user(args[4], buf, sizeof(buf)) ? -EFAULT : 0;
}

/* newfstatat(dirfd, path, buf, flags); x86-64 calls it fstatat too. */
long sys_newfstatat(const unsigned long *args)
{
	return stat_path((long)args[0], args[1], args[2], args[3]);
}

/*
 * readlinkat(dirfd, path, buf, size): a symbolic link's target, not
 * NUL-terminated, cut at size; -EINVAL if path is not a link.
 */
long sys_readlinkat(const unsigned long *args)
{
	char path[PATH_MAX], target[PATH_MAX];
	int err = user_path_at((long)args[0], args[1], path), n;

	if (err)
		return err;
	if ((long)args[3] <= 0)
		return -EINVAL;
	if (!path[0])
		return -ENOENT;
	n = vfs_readlink(path, target, sizeof(target));
	if (n < 0)
		return n;
	n = MIN(n, (int)args[3]);
	return copy_to_user(args[2], target, (size_t)n) ? -EFAULT : n;
}

/* x86-64's older calls: the same, relative to the current directory. */
long sys_stat(const unsigned long *args)
{
	return stat_path(AT_FDCWD, args[0], args[1], 0);
}

long sys_lstat(const unsigned long *args)
{
	return stat_path(AT_FDCWD, args[0], args[1], AT_SYMLINK_NOFOLLOW);
}

long sys_readlink(const unsigned long *args)
{
	const unsigned long at[4] = { (unsigned long)AT_FDCWD, args[0], args[1], args[2] };

	return sys_readlinkat(at);
}

/*
 * May the caller (root, always) do mode to a file like k on mount m? Root
 * reads anything and runs anything with an execute bit (or searches a
 * directory); writing is -EROFS on a read-only file system (the
 * initramfs) for files, directories and links, as Linux's
 * inode_permission() answers.
 */
static int may_access(const struct vfsmount *m, const struct kstat *k, unsigned long mode)
{
	u32 type = k->mode & S_IFMT;

	if ((mode & W_OK) && m && m->type == &rootfs_fs_type &&
	    (type == S_IFREG || type == S_IFDIR || type == S_IFLNK))
		return -EROFS;
	if ((mode & X_OK) && type != S_IFDIR && !(k->mode & 0111))
		return -EACCES;
	return 0;
}

static long do_faccessat(long dirfd, u64 upath, unsigned long mode, unsigned long flags)
{
	struct vfsmount *m;
	const char *rest;
	char path[PATH_MAX];
	struct kstat k;
	int err;

	if (mode & ~7UL)
		return -EINVAL;
	if (flags & ~(unsigned long)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(dirfd, upath, path);
	if (err)
		return err;
	if (!path[0]) {
		struct file *f __free(file_put) = (flags & AT_EMPTY_PATH) ? fget(dirfd) : NULL;

		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		if (!f)
			return -EBADF;
		err = file_getattr(f, &k);
		return err ? err : may_access(f->mnt, &k, mode);
	}
	m = lookup_mnt(path, &rest);
	if (!m)
		return -ENOENT;
	err = m->type->getattr(m, rest, &k, !(flags & AT_SYMLINK_NOFOLLOW));
	if (!err)
		err = may_access(m, &k, mode);
	mntput(m);
	return err;
}

/* faccessat(dirfd, path, mode): the system call has no flags argument (libc's does). */
long sys_faccessat(const unsigned long *args)
{
	return do_faccessat((long)args[0], args[1], args[2], 0);
}

/* faccessat2(dirfd, path, mode, flags): AT_EACCESS changes nothing for a lone root. */
long sys_faccessat2(const unsigned long *args)
{
	return do_faccessat((long)args[0], args[1], args[2], args[3]);
}

/* access(path, mode): faccessat from the current directory. */
long sys_access(const unsigned long *args)
{
	return do_faccessat(AT_FDCWD, args[0], args[1], 0);
}
