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
bool file_positional(const struct file *f)
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

/* The two above for fs/aio_rw.c (Linux's vfs_iter_read() and vfs_iter_write()). */
long vfs_iter_read(struct file *f, struct iov_iter *it, u64 *pos)
{
	return do_iter_read(f, it, pos);
}

long vfs_iter_write(struct file *f, struct iov_iter *it, u64 *pos)
{
	return do_iter_write(f, it, pos);
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

/*
 * preadv2's and pwritev2's flags, as Linux's kiocb_set_rw_flags() takes
 * them: a flag it does not know is -EOPNOTSUPP, and RWF_NOWAIT only on a
 * file that can refuse to wait (Linux's FMODE_NOWAIT: pipes, block
 * devices, a file system's files; not the console or the memory
 * devices). Nothing here waits for anything but the device or the other
 * end of a pipe, so RWF_NOWAIT and RWF_HIPRI change nothing once taken.
 */
int rw_flags_check(const struct file *f, int flags)
{
	if (flags & ~RWF_SUPPORTED)
		return -EOPNOTSUPP;
	if ((flags & RWF_NOWAIT) && f->kind != FILE_OPS && f->kind != FILE_PIPE &&
	    f->kind != FILE_RAMFS)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * What RWF_DSYNC and RWF_SYNC ask after a write (Linux's
 * generic_write_sync()): the file's data made durable before the call
 * answers. A file with no fsync (a pipe, tmpfs) has nothing to flush.
 */
long rw_write_sync(struct file *f, int flags, long written)
{
	int err;

	if (written <= 0 || !(flags & (RWF_DSYNC | RWF_SYNC)) || f->kind != FILE_OPS ||
	    !f->f_op->fsync)
		return written;
	err = f->f_op->fsync(f);
	return err ? err : written;
}

/*
 * preadv, pwritev, preadv2, pwritev2 (Linux's do_preadv() and vfs_readv()),
 * in Linux's order of refusals: a negative position other than -1 is
 * -EINVAL before the descriptor; -1 (the 2 calls) means the file's own
 * position, as readv; a stream is -ESPIPE; then the vector, then the
 * open's mode; a call with nothing to move answers 0 before its flags are
 * looked at, as Linux's do_iter_read() does.
 */
static long do_preadv(const unsigned long *args, int flags, bool two, bool write)
{
	s64 spos = (s64)args[3];
	u64 pos = (u64)spos;
	struct file *f __free(file_put) = NULL;
	struct iovec fast[UIO_FASTIOV], *iov;
	struct iov_iter it;
	bool at_pos = !(two && spos == -1);
	long ret;

	if (at_pos && spos < 0)
		return -EINVAL;
	f = fget((long)args[0]);
	if (!f)
		return -EBADF;
	if (at_pos && !file_positional(f))
		return -ESPIPE;
	ret = import_iovec(args[1], args[2], fast, &iov, &it);
	if (ret)
		return ret;
	if (!(write ? file_writable(f) : file_readable(f)))
		ret = -EBADF;
	else if (!iov_iter_count(&it))
		ret = 0;
	else if (at_pos && (s64)(pos + iov_iter_count(&it)) < 0)
		ret = -EINVAL; /* Linux's rw_verify_area() */
	else
		ret = rw_flags_check(f, flags);
	/*
	 * A pipe is the one file here that waits for someone else: with
	 * RWF_NOWAIT, nothing to read (no room to write) is -EAGAIN, as
	 * Linux's pipe under IOCB_NOWAIT.
	 */
	if (!ret && iov_iter_count(&it) && (flags & RWF_NOWAIT) && f->kind == FILE_PIPE &&
	    !(pipe_poll(f) & (write ? POLLOUT | POLLERR : POLLIN | POLLHUP)))
		ret = -EAGAIN;
	if (!ret && iov_iter_count(&it)) {
		if (write && (flags & RWF_APPEND) && file_positional(f)) {
			struct kstat k;
			u64 end = 0;

			/*
			 * Linux's IOCB_APPEND: at the end, whatever the position
			 * asked; with -1 the file's position ends up after it.
			 */
			if (f->kind == FILE_OPS && f->f_op->end)
				end = f->f_op->end(f);
			else if (!file_getattr(f, &k))
				end = k.size;
			if (at_pos)
				pos = end;
			else
				f->pos = end;
		}
		if (write)
			ret = rw_write_sync(f, flags, do_iter_write(f, &it, at_pos ? &pos : NULL));
		else
			ret = do_iter_read(f, &it, at_pos ? &pos : NULL);
	}
	if (iov != fast)
		kfree(iov);
	return ret;
}

long sys_preadv(const unsigned long *args)
{
	return do_preadv(args, 0, false, false);
}

long sys_pwritev(const unsigned long *args)
{
	return do_preadv(args, 0, false, true);
}

long sys_preadv2(const unsigned long *args)
{
	return do_preadv(args, (int)args[5], true, false);
}

long sys_pwritev2(const unsigned long *args)
{
	return do_preadv(args, (int)args[5], true, true);
}
