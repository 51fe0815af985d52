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

/* A NUL-terminated string from user memory, at most PATH_MAX with its NUL. */
static int path_from_user(char *buf, u64 upath)
{
	for (size_t i = 0; i < PATH_MAX; i++) {
		if (copy_from_user(&buf[i], upath + i, 1))
			return -EFAULT;
		if (!buf[i])
			return 0;
	}
	return -ENAMETOOLONG;
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
