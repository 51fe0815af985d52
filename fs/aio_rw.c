// SPDX-License-Identifier: MIT
/*
 * io_submit and what it starts (Linux's fs/aio.c io_submit_one(),
 * aio_read(), aio_write(), aio_fsync(); block/fops.c's direct I/O).
 *
 * A read or write on a block device opened with O_DIRECT is asynchronous:
 * one bio over pages of the kernel's own is submitted and io_submit
 * returns; the bio's completion (the device's interrupt) queues the event
 * and wakes io_getevents. Linux's alignment rule holds: the position, the
 * length and every buffer a multiple of the logical block size, else the
 * event says -EINVAL. One bio holds BIO_MAX_VECS pages (1 MiB with 4 KiB
 * pages); a larger request is done at submission through the device's
 * ordinary path, as is one that finds requests holding an eighth of
 * memory in such pages already (aio_bounce_reserve()), and as everything
 * else is: a file, a block device without O_DIRECT and fsync complete
 * before io_submit returns, with their event queued, which is what Linux
 * does for buffered files too.
 *
 * The refusals io_submit answers itself come in Linux's order; an error
 * from the transfer is the event's result instead.
 */
#include <pagoda/bio.h>
#include <pagoda/blkdev.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <asm/fcntl.h>
#include "aio.h"
#include "internal.h"
#include "../kernel/syscalls.h"

/* The transfer is under way; its event comes from the completion. */
#define EIOCBQUEUED 529

/* More requests than this in one io_submit go out under one plug (Linux's AIO_PLUG_THRESHOLD). */
#define AIO_PLUG_THRESHOLD 2

static void aio_bio_endio(struct bio *bio)
{
	struct aio_kiocb *req = bio->bi_private;
	int err = blk_status_to_errno(bio->bi_status);

	bio_put(bio);
	aio_complete(req, err ? err : (long)req->len);
}

/* Linux's iov_iter_alignment(): every start and length ORed together. */
static u64 iov_alignment(const struct iov_iter *it)
{
	u64 res = 0;

	for (unsigned long i = 0; i < it->nr_segs; i++)
		if (it->iov[i].iov_len)
			res |= it->iov[i].iov_base | it->iov[i].iov_len;
	return res;
}

/* The transfer cannot be started asynchronously: do it at submission instead. */
#define AIO_GO_SYNC 1

/*
 * Kernel pages for len bytes (a write's filled from it): 0, AIO_GO_SYNC
 * when requests hold their share of memory already, -ENOMEM, -EFAULT.
 */
static int aio_alloc_pages(struct aio_kiocb *req, size_t len, struct iov_iter *it, bool write)
{
	unsigned int nr = (unsigned int)DIV_ROUND_UP(len, PAGE_SIZE);

	if (!aio_bounce_reserve(nr))
		return AIO_GO_SYNC;
	req->nr_pages = nr;
	req->pages = kcalloc(req->nr_pages, sizeof(*req->pages), GFP_KERNEL);
	if (!req->pages)
		return -ENOMEM;
	for (unsigned int i = 0; i < req->nr_pages; i++) {
		size_t n = MIN(len - (size_t)i * PAGE_SIZE, (size_t)PAGE_SIZE);

		req->pages[i] = alloc_page(GFP_KERNEL | __GFP_NOWARN);
		if (!req->pages[i])
			return -ENOMEM;
		if (write && copy_from_iter(page_address(req->pages[i]), n, it) != n)
			return -EFAULT;
	}
	return 0;
}

/*
 * A direct transfer on bdev (Linux's blkdev_direct_IO() and the checks of
 * blkdev_read_iter()/blkdev_write_iter() before it): -EIOCBQUEUED once
 * the bio is on its way, else the result for the event.
 */
static long aio_blkdev_direct(struct aio_kiocb *req, struct block_device *bdev,
			      struct iov_iter *it, u64 pos, bool write, int rw_flags)
{
	u64 size = (u64)bdev_nr_sectors(bdev) << SECTOR_SHIFT;
	u64 lbs = bdev_logical_block_size(bdev);
	size_t len = iov_iter_count(it);
	blk_opf_t opf = write ? REQ_OP_WRITE | REQ_SYNC | REQ_IDLE : REQ_OP_READ;
	struct bio *bio;
	int err;

	if (!len)
		return 0;
	if (pos >= size)
		return write ? -ENOSPC : 0;
	len = (size_t)MIN((u64)len, size - pos);
	it->count = len;
	if ((pos | len | iov_alignment(it)) & (lbs - 1))
		return -EINVAL;
	if (rw_flags & (RWF_DSYNC | RWF_SYNC))
		opf |= REQ_FUA; /* durable when it completes, as Linux's O_DSYNC direct write */
	err = aio_alloc_pages(req, len, it, write);
	if (err)
		return err; /* AIO_GO_SYNC: it is untouched yet */
	if (!write) {
		req->iov = kmalloc(it->nr_segs * sizeof(*req->iov), GFP_KERNEL);
		if (!req->iov)
			return -ENOMEM;
		memcpy(req->iov, it->iov, it->nr_segs * sizeof(*req->iov));
		req->nr_segs = it->nr_segs;
	}
	bio = bio_alloc(bdev, req->nr_pages, opf, GFP_KERNEL);
	if (!bio)
		return -ENOMEM;
	bio->bi_iter.bi_sector = pos >> SECTOR_SHIFT;
	for (unsigned int i = 0; i < req->nr_pages; i++)
		bio_add_page(bio, req->pages[i],
			     (unsigned int)MIN(len - (size_t)i * PAGE_SIZE, (size_t)PAGE_SIZE), 0);
	bio->bi_private = req;
	bio->bi_end_io = aio_bio_endio;
	req->len = len;
	req->copy_out = !write;
	aio_inflight(req);
	submit_bio(bio);
	return -EIOCBQUEUED;
}

/*
 * A transfer done at submission waits for its bios, which must not sit in
 * io_submit's plug meanwhile: Linux flushes a plug when its task sleeps,
 * Pagoda's scheduler does not. So the plug is flushed and set aside for
 * the wait, then taken up again.
 */
static struct blk_plug *unplug_for_wait(void)
{
	struct blk_plug *plug = current->plug;

	blk_flush_plug(plug);
	current->plug = NULL;
	return plug;
}

/* Linux's ioprio_check_cap(): a class it knows, a level inside it. */
static int ioprio_check(s16 prio)
{
	unsigned int class = ((u16)prio >> 13) & 7, data = (u16)prio & 0x1fff;

	switch (class) {
	case 0: /* none */
		return data ? -EINVAL : 0;
	case 1: /* real time: root may, and here everyone is root */
	case 2: /* best effort */
		return data >= 8 ? -EINVAL : 0;
	case 3: /* idle */
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * PREAD, PWRITE, PREADV, PWRITEV: 0 once started or done (the event is
 * queued or will be), else io_submit's errno.
 */
static int aio_rw(struct aio_kiocb *req, const struct iocb *cb, struct file *f, bool vectored,
		  bool write)
{
	struct iovec fast[UIO_FASTIOV], *iov = fast;
	struct block_device *bdev = file_bdev(f);
	bool positional = file_positional(f);
	u64 pos = (u64)cb->aio_offset;
	struct iov_iter it;
	long ret;

	if ((cb->aio_flags & IOCB_FLAG_IOPRIO) && ioprio_check(cb->aio_reqprio))
		return -EINVAL;
	ret = rw_flags_check(f, cb->aio_rw_flags);
	if (ret)
		return (int)ret;
	if (!(write ? file_writable(f) : file_readable(f)))
		return -EBADF;
	if (vectored)
		ret = import_iovec(cb->aio_buf, cb->aio_nbytes, fast, &iov, &it);
	else
		ret = import_single_range(cb->aio_buf, cb->aio_nbytes, fast, &it);
	if (ret)
		return (int)ret;
	/* Linux's rw_verify_area(): the range must not pass the largest position. */
	if (positional && (cb->aio_offset < 0 || pos + iov_iter_count(&it) < pos ||
			   (s64)(pos + iov_iter_count(&it)) < 0)) {
		ret = -EINVAL;
		goto out;
	}
	ret = AIO_GO_SYNC;
	if (bdev && (f->f_flags & O_DIRECT) && iov_iter_count(&it) <= BIO_MAX_VECS * PAGE_SIZE)
		ret = aio_blkdev_direct(req, bdev, &it, pos, write, cb->aio_rw_flags);
	if (ret == AIO_GO_SYNC) {
		struct blk_plug *plug = unplug_for_wait();

		if (write)
			ret = rw_write_sync(f, cb->aio_rw_flags,
					    vfs_iter_write(f, &it, positional ? &pos : NULL));
		else
			ret = vfs_iter_read(f, &it, positional ? &pos : NULL);
		current->plug = plug;
	}
	if (ret != -EIOCBQUEUED)
		aio_complete(req, ret);
	ret = 0;
out:
	if (iov != fast)
		kfree(iov);
	return (int)ret;
}

/*
 * FSYNC, FDSYNC: the buffer, offset, length and flags must be 0; a file
 * that cannot be synced (a pipe, the console, here) is -EINVAL, as a
 * file without ->fsync is on Linux.
 */
static int aio_fsync(struct aio_kiocb *req, const struct iocb *cb, struct file *f)
{
	if (cb->aio_buf || cb->aio_offset || cb->aio_nbytes || cb->aio_rw_flags)
		return -EINVAL;
	if (f->kind == FILE_PIPE || f->kind == FILE_CONSOLE)
		return -EINVAL;
	if (f->kind == FILE_OPS && f->f_op->fsync) {
		struct blk_plug *plug = unplug_for_wait();

		aio_complete(req, f->f_op->fsync(f));
		current->plug = plug;
	} else {
		aio_complete(req, 0);
	}
	return 0;
}

static int __io_submit_one(struct aio_kiocb *req, const struct iocb *cb, u64 user_iocb)
{
	struct file *f __free(file_put) = fget(cb->aio_fildes);
	u32 key = KIOCB_KEY;

	if (!f)
		return -EBADF;
	if (cb->aio_flags & IOCB_FLAG_RESFD) {
		/* There is no eventfd here: a descriptor that is open is not one. */
		struct file *ef __free(file_put) = fget(cb->aio_resfd);

		return ef ? -EINVAL : -EBADF;
	}
	if (copy_to_user(user_iocb + __builtin_offsetof(struct iocb, aio_key), &key, sizeof(key)))
		return -EFAULT;
	req->ev.obj = user_iocb;
	req->ev.data = cb->aio_data;
	switch (cb->aio_lio_opcode) {
	case IOCB_CMD_PREAD:
		return aio_rw(req, cb, f, false, false);
	case IOCB_CMD_PWRITE:
		return aio_rw(req, cb, f, false, true);
	case IOCB_CMD_PREADV:
		return aio_rw(req, cb, f, true, false);
	case IOCB_CMD_PWRITEV:
		return aio_rw(req, cb, f, true, true);
	case IOCB_CMD_FSYNC:
	case IOCB_CMD_FDSYNC:
		return aio_fsync(req, cb, f);
	default:
		return -EINVAL; /* IOCB_CMD_POLL too: not here */
	}
}

int io_submit_one(struct kioctx *ctx, u64 user_iocb)
{
	struct aio_kiocb *req;
	struct iocb cb;
	int err;

	if (copy_from_user(&cb, user_iocb, sizeof(cb)))
		return -EFAULT;
	if (cb.aio_reserved2)
		return -EINVAL; /* room for later, which must be 0 now */
	if ((s64)cb.aio_nbytes < 0)
		return -EINVAL;
	req = aio_get_req(ctx);
	if (!req)
		return -EAGAIN;
	err = __io_submit_one(req, &cb, user_iocb);
	/* Refused before it started: no event, and its slot back. */
	if (err)
		aio_free_req(req);
	return err;
}

/*
 * io_submit(ctx, nr, iocbpp): how many were started; the first one's
 * errno when none was. nr is cut to what the context can hold.
 */
long sys_io_submit(const unsigned long *args)
{
	long nr = (long)args[1], i;
	struct kioctx *ctx;
	struct blk_plug plug;
	int err = 0;

	if (nr < 0)
		return -EINVAL;
	ctx = lookup_ioctx(args[0]);
	if (!ctx)
		return -EINVAL;
	if (nr > (long)ctx->nr_events)
		nr = ctx->nr_events;
	if (nr > AIO_PLUG_THRESHOLD)
		blk_start_plug(&plug);
	for (i = 0; i < nr; i++) {
		u64 user_iocb;

		if (copy_from_user(&user_iocb, args[2] + (u64)i * sizeof(u64), sizeof(user_iocb))) {
			err = -EFAULT;
			break;
		}
		err = io_submit_one(ctx, user_iocb);
		if (err)
			break;
	}
	if (nr > AIO_PLUG_THRESHOLD)
		blk_finish_plug(&plug);
	put_ioctx(ctx);
	return i ? i : err;
}
