// SPDX-License-Identifier: MIT
/*
 * read, write, pread64, pwrite64, readv and writev, after Linux's
 * fs/read_write.c: one path for all six. The descriptor's mode comes
 * first (-EBADF), then the buffers: a range that is not wholly user
 * memory is -EFAULT before anything moves, a length is cut to
 * MAX_RW_COUNT, and the file kind decides what a copy that stops at a
 * hole means:
 *
 * - an initramfs file (Linux's page-cache read) counts every byte it
 *   copied, so a read that runs into a hole is short, -EFAULT only when
 *   nothing was copied;
 * - a pipe moves page-sized pieces and drops a piece that did not copy
 *   whole (kernel/pipe.c);
 * - the console (a tty) takes 2048-byte chunks and drops one that did
 *   not copy whole, as Linux's tty_write() does.
 *
 * Files with a position (the initramfs's, the devices', a mounted file
 * system's unless it says it is a stream) take pread64 and pwrite64; on a
 * pipe or the console they are -ESPIPE. A mounted file system's file
 * reads and writes through its own operations (fs/).
 */
#include <pagoda/chrdev.h>
#include <pagoda/cpio.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/initramfs.h>
#include <pagoda/mutex.h>
#include <pagoda/pipe.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>
#include "syscalls.h"

bool file_readable(const struct file *f)
{
	if (f->kind == FILE_CHR || f->kind == FILE_OPS)
		return f->can_read;
	return !(f->kind == FILE_PIPE && f->write_end);
}

bool file_writable(const struct file *f)
{
	if (f->kind == FILE_CHR || f->kind == FILE_OPS)
		return f->can_write;
	return f->kind == FILE_CONSOLE || (f->kind == FILE_PIPE && f->write_end);
}

/* Linux's FMODE_PREAD / FMODE_PWRITE: files with a position, and the memory devices. */
static bool file_positional(const struct file *f)
{
	if (f->kind == FILE_OPS)
		return !f->f_op->no_seek;
	return f->kind == FILE_RAMFS || f->kind == FILE_CHR;
}

/* pos: where a pread64 reads; NULL: at the file's own position, moving it. */
static long do_iter_read(struct file *f, struct iov_iter *it, u64 *pos)
{
	const struct ramfs_file *rf = f->rf;
	u64 at = pos ? *pos : f->pos;
	size_t n, copied;

	if (f->kind == FILE_CONSOLE)
		return tty_read(f, it);
	if (f->kind == FILE_OPS)
		return f->f_op->read ? f->f_op->read(f, it, pos ? pos : &f->pos) : -EINVAL;
	if (f->kind == FILE_PIPE)
		return pipe_read(f, it);
	if (f->kind == FILE_CHR)
		return f->chr->read(it); /* no position: pread's is ignored, as Linux's */
	if ((rf->mode & CPIO_S_IFMT) == CPIO_S_IFDIR)
		return -EISDIR;
	if (at >= rf->size || !iov_iter_count(it))
		return 0;
	n = MIN(iov_iter_count(it), rf->size - at);
	copied = copy_to_iter((const u8 *)rf->data + at, n, it);
	if (!copied)
		return -EFAULT;
	if (!pos)
		f->pos = at + copied;
	return (long)copied;
}

#define TTY_CHUNK 2048

/* Programs' console output, staged a chunk at a time (Linux: tty->write_buf). */
static DEFINE_MUTEX(console_write_lock);
static char console_chunk[TTY_CHUNK];

static long console_write_iter(struct iov_iter *it)
{
	long written = 0;

	mutex_lock(&console_write_lock);
	while (iov_iter_count(it)) {
		size_t n = MIN(iov_iter_count(it), (size_t)TTY_CHUNK);

		if (copy_from_iter(console_chunk, n, it) != n)
			break;
		console_write_locked(console_chunk, n);
		written += n;
	}
	mutex_unlock(&console_write_lock);
	return written || !iov_iter_count(it) ? written : -EFAULT;
}

static long do_iter_write(struct file *f, struct iov_iter *it, u64 *pos)
{
	if (f->kind == FILE_OPS)
		return f->f_op->write ? f->f_op->write(f, it, pos ? pos : &f->pos) : -EINVAL;
	if (f->kind == FILE_PIPE)
		return pipe_write(f, it);
	if (f->kind == FILE_CHR)
		return f->chr->write(it, iov_iter_count(it));
	return console_write_iter(it);
}

/* read (write false) or write, at pos or (NULL) at the file's position. */
static long do_rw(long fd, u64 buf, size_t count, u64 *pos, bool write)
{
	struct file *f __free(file_put) = fget(fd);
	struct iov_iter it;
	struct iovec iov;
	int err;

	if (!f)
		return -EBADF;
	if (pos && !file_positional(f))
		return -ESPIPE; /* before the mode, as Linux's FMODE_PREAD test */
	if (!(write ? file_writable(f) : file_readable(f)))
		return -EBADF; /* an initramfs file is opened read-only */
	err = import_single_range(buf, count, &iov, &it);
	if (err)
		return err;
	return write ? do_iter_write(f, &it, pos) : do_iter_read(f, &it, pos);
}

long sys_read(const unsigned long *args)
{
	return do_rw((long)args[0], args[1], args[2], NULL, false);
}

long sys_write(const unsigned long *args)
{
	return do_rw((long)args[0], args[1], args[2], NULL, true);
}

/* pread64 and pwrite64: a negative position is -EINVAL before the descriptor. */
static long do_prw(const unsigned long *args, bool write)
{
	u64 pos = args[3];

	if ((s64)pos < 0)
		return -EINVAL;
	return do_rw((long)args[0], args[1], args[2], &pos, write);
}

long sys_pread64(const unsigned long *args)
{
	return do_prw(args, false);
}

long sys_pwrite64(const unsigned long *args)
{
	return do_prw(args, true);
}

static long do_readv(long fd, u64 uvec, unsigned long nr, bool write)
{
	struct file *f __free(file_put) = fget(fd);
	struct iovec fast[UIO_FASTIOV], *iov;
	struct iov_iter it;
	long ret;

	if (!f || !(write ? file_writable(f) : file_readable(f)))
		return -EBADF;
	ret = import_iovec(uvec, nr, fast, &iov, &it);
	if (ret)
		return ret;
	if (iov_iter_count(&it))
		ret = write ? do_iter_write(f, &it, NULL) : do_iter_read(f, &it, NULL);
	if (iov != fast)
		kfree(iov);
	return ret;
}

long sys_readv(const unsigned long *args)
{
	return do_readv((long)args[0], args[1], args[2], false);
}

long sys_writev(const unsigned long *args)
{
	return do_readv((long)args[0], args[1], args[2], true);
}
