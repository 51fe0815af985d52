/* SPDX-License-Identifier: MIT */
/*
 * User I/O vectors, after Linux's include/linux/uio.h: a read or write
 * walks the user's buffers through an iov_iter, so read(2) and readv(2)
 * (write(2) and writev(2)) take the same path and stop at the same byte
 * when a buffer runs into a hole. Every segment has passed access_ok()
 * before the walk starts (import_iovec(), import_single_range()).
 */
#ifndef PAGODA_UIO_H
#define PAGODA_UIO_H

#include <pagoda/types.h>

/* Linux's MAX_RW_COUNT: one call moves at most INT_MAX rounded down to a page. */
#define MAX_RW_COUNT (0x7fffffffUL & ~(PAGE_SIZE - 1))
/* Linux's UIO_MAXIOV and UIO_FASTIOV. */
#define UIO_MAXIOV 1024
#define UIO_FASTIOV 8

/* preadv2's and pwritev2's flags, and an iocb's aio_rw_flags (Linux's RWF_*). */
#define RWF_HIPRI 0x01   /* poll for the completion: taken, nothing to poll here */
#define RWF_DSYNC 0x02   /* the write's data durable before the answer */
#define RWF_SYNC 0x04    /* the same, and the file's metadata */
#define RWF_NOWAIT 0x08  /* do not wait for what is not there yet */
#define RWF_APPEND 0x10  /* write at the end, as O_APPEND */
#define RWF_SUPPORTED 0x1f

struct file;
/* kernel/read_write.c: flags for f, 0 or -EOPNOTSUPP (Linux's kiocb_set_rw_flags()). */
int rw_flags_check(const struct file *f, int flags);
/* Has a position: pread and pwrite work (Linux's FMODE_PREAD). */
bool file_positional(const struct file *f);
/* Read or write through f's kind of file, at *pos or (NULL) the file's position. */
struct iov_iter;
long vfs_iter_read(struct file *f, struct iov_iter *it, u64 *pos);
long vfs_iter_write(struct file *f, struct iov_iter *it, u64 *pos);
/* After a write of `written` bytes: fsync it if flags ask (RWF_DSYNC, RWF_SYNC). */
long rw_write_sync(struct file *f, int flags, long written);

/* As the program lays it out: struct iovec of <sys/uio.h>. */
struct iovec {
	u64 iov_base;
	u64 iov_len;
};

struct iov_iter {
	const struct iovec *iov; /* the kernel's copy of the segments */
	unsigned long nr_segs;
	size_t iov_offset;       /* into iov[0] */
	size_t count;            /* bytes left in all of them */
};

/* Copy up to n bytes into (out of) the user's buffers: the bytes moved; a fault stops it. */
size_t copy_to_iter(const void *src, size_t n, struct iov_iter *i);
size_t copy_from_iter(void *dst, size_t n, struct iov_iter *i);

static inline size_t iov_iter_count(const struct iov_iter *i)
{
	return i->count;
}

/*
 * One buffer as an iterator (read, write, pread, pwrite): -EFAULT when it
 * is not wholly user memory, else 0, with len clamped to MAX_RW_COUNT.
 */
int import_single_range(u64 buf, size_t len, struct iovec *iov, struct iov_iter *i);
/*
 * The program's vector of nr segments at uvec (readv, writev): 0, or
 * -EINVAL (more than UIO_MAXIOV, a length above SSIZE_MAX), -EFAULT (the
 * vector unreadable, a segment not user memory). The total is clamped to
 * MAX_RW_COUNT, the last segments shortened. *iovp is fast when it held
 * them, else a kmalloc()ed array the caller kfree()s.
 */
int import_iovec(u64 uvec, unsigned long nr, struct iovec *fast, struct iovec **iovp,
		 struct iov_iter *i);

#endif
