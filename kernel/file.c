// SPDX-License-Identifier: MIT
/*
 * Files for user programs: the initramfs, read-only. openat() resolves a
 * path (relative ones from "/", the only working directory there is) and
 * gives the lowest free descriptor from 3 up; fds 0-2 are the console
 * (write goes there, read answers end-of-file). Anything that would write
 * is -EROFS.
 */
#include <pagoda/cpio.h>
#include <pagoda/initramfs.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include "syscalls.h"

#define AT_FDCWD -100
#define O_ACCMODE 3
#define O_CREAT 0100
#define O_TRUNC 01000
#define PATH_MAX 256
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

int string_from_user(char *buf, u64 ustr, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (copy_from_user(&buf[i], ustr + i, 1))
			return -EFAULT;
		if (!buf[i])
			return 0;
	}
	return -ENAMETOOLONG;
}

/* A NUL-terminated path from user memory, at most PATH_MAX with its NUL. */
static int path_from_user(char *buf, u64 upath)
{
	return string_from_user(buf, upath, PATH_MAX);
}

static struct file *fd_file(long fd)
{
	struct process *p = current_process();

	if (fd < 3 || fd >= 3 + NR_OPEN || !p->files[fd - 3].rf)
		return NULL;
	return &p->files[fd - 3];
}

long sys_openat(const unsigned long *args)
{
	struct process *p = current_process();
	long dirfd = (long)args[0];
	unsigned long flags = args[2];
	const struct ramfs_file *rf;
	char path[PATH_MAX];
	int err = path_from_user(path, args[1]);

	if (err)
		return err;
	if (path[0] != '/' && dirfd != AT_FDCWD && (int)dirfd != AT_FDCWD)
		return -ENOENT; /* no directories to be relative to, yet */
	if ((flags & O_ACCMODE) != 0 || (flags & (O_CREAT | O_TRUNC)))
		return -EROFS;
	rf = ramfs_lookup(path);
	if (!rf)
		return -ENOENT;
	for (int i = 0; i < NR_OPEN; i++)
		if (!p->files[i].rf) {
			p->files[i] = (struct file){ rf, 0 };
			return 3 + i;
		}
	return -EMFILE;
}

long sys_read(const unsigned long *args)
{
	long fd = (long)args[0];
	struct file *f;
	u64 n;

	if (fd >= 0 && fd <= 2)
		return 0; /* no console input for programs yet: end of file */
	f = fd_file(fd);
	if (!f)
		return -EBADF;
	if ((f->rf->mode & CPIO_S_IFMT) == CPIO_S_IFDIR)
		return -EISDIR;
	if (f->pos >= f->rf->size)
		return 0;
	n = MIN((u64)args[2], f->rf->size - f->pos);
	n -= copy_to_user(args[1], (const u8 *)f->rf->data + f->pos, n);
	if (!n && args[2])
		return -EFAULT;
	f->pos += n;
	return (long)n;
}

long sys_close(const unsigned long *args)
{
	struct file *f = fd_file((long)args[0]);

	if ((long)args[0] >= 0 && (long)args[0] <= 2)
		return 0;
	if (!f)
		return -EBADF;
	f->rf = NULL;
	return 0;
}

long sys_lseek(const unsigned long *args)
{
	struct file *f = fd_file((long)args[0]);
	s64 off = (s64)args[1], base;

	if (!f)
		return (long)args[0] <= 2 ? -ESPIPE : -EBADF;
	switch (args[2]) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (s64)f->pos;
		break;
	case SEEK_END:
		base = (s64)f->rf->size;
		break;
	default:
		return -EINVAL;
	}
	if ((off < 0 && base + off < 0) || (off > 0 && base > (s64)(U64_MAX >> 1) - off))
		return -EINVAL;
	f->pos = (u64)(base + off);
	return (long)f->pos;
}

#define AT_EMPTY_PATH 0x1000
#define S_IFCHR 0020000

/*
 * struct stat as each arch's Linux lays it out: x86-64 has its own (144
 * bytes, st_nlink before st_mode, 64-bit), arm64 the generic one (128
 * bytes, st_mode before a 32-bit st_nlink).
 */
struct kstat {
	u64 ino, nlink, size, blocks, rdev;
	u32 mode, blksize;
};

static long put_stat(u64 ubuf, const struct kstat *k)
{
	u8 buf[144];

	memset(buf, 0, sizeof(buf));
#ifdef __x86_64__
	memcpy(buf + 8, &k->ino, 8);
	memcpy(buf + 16, &k->nlink, 8);
	memcpy(buf + 24, &k->mode, 4);
	memcpy(buf + 40, &k->rdev, 8);
	memcpy(buf + 48, &k->size, 8);
	u64 bs = k->blksize;
	memcpy(buf + 56, &bs, 8);
	memcpy(buf + 64, &k->blocks, 8);
	return copy_to_user(ubuf, buf, 144) ? -EFAULT : 0;
#else
	u32 nlink = (u32)k->nlink;

	memcpy(buf + 8, &k->ino, 8);
	memcpy(buf + 16, &k->mode, 4);
	memcpy(buf + 20, &nlink, 4);
	memcpy(buf + 32, &k->rdev, 8);
	memcpy(buf + 48, &k->size, 8);
	memcpy(buf + 56, &k->blksize, 4);
	memcpy(buf + 64, &k->blocks, 8);
	return copy_to_user(ubuf, buf, 128) ? -EFAULT : 0;
#endif
}

static void stat_ramfs(const struct ramfs_file *rf, struct kstat *k)
{
	*k = (struct kstat){
		/* No inode numbers in the ramfs: the entry's address is unique and stable. */
		.ino = ((u64)(uintptr_t)rf >> 4) & 0xffffffff,
		.nlink = 1,
		.size = rf->size,
		.blocks = (rf->size + 511) / 512,
		.mode = rf->mode,
		.blksize = PAGE_SIZE,
	};
}

static long stat_fd(long fd, u64 ubuf)
{
	struct kstat k;
	struct file *f;

	if (fd >= 0 && fd <= 2) {
		/* The console: a character device, /dev/console's numbers (5, 1). */
		k = (struct kstat){ .ino = 1 + (u64)fd, .nlink = 1, .mode = S_IFCHR | 0620,
				    .rdev = (5 << 8) | 1, .blksize = 1024 };
		return put_stat(ubuf, &k);
	}
	f = fd_file(fd);
	if (!f)
		return -EBADF;
	stat_ramfs(f->rf, &k);
	return put_stat(ubuf, &k);
}

long sys_fstat(const unsigned long *args)
{
	return stat_fd((long)args[0], args[1]);
}

/* newfstatat(dirfd, path, buf, flags); x86-64 calls it fstatat too. */
long sys_newfstatat(const unsigned long *args)
{
	const struct ramfs_file *rf;
	char path[PATH_MAX];
	struct kstat k;
	int err = path_from_user(path, args[1]);

	if (err)
		return err;
	if (!path[0])
		return (args[3] & AT_EMPTY_PATH) ? stat_fd((long)args[0], args[2]) : -ENOENT;
	if (path[0] != '/' && (long)args[0] != AT_FDCWD && (int)args[0] != AT_FDCWD)
		return -ENOENT;
	rf = ramfs_lookup(path);
	if (!rf)
		return -ENOENT;
	stat_ramfs(rf, &k);
	return put_stat(args[2], &k);
}
