// SPDX-License-Identifier: MIT
/*
 * A block device opened by a program (/dev/vda, /dev/dm-0): Linux's
 * block/fops.c. Pagoda has no page cache for block devices, so every
 * read and write goes to the device through blkdev_rw(), in whole
 * logical blocks staged in a kernel buffer: a read of bytes that do not
 * start or end on a block reads the blocks around them, a write that
 * does rewrites them (read, change, write). That is what Linux's O_DIRECT
 * would refuse and its page cache does; here O_DIRECT behaves the same.
 * A read at or past the end is end-of-file, a write there -ENOSPC.
 *
 * ioctls, with Linux's numbers: BLKGETSIZE64 (bytes), BLKGETSIZE
 * (512-byte sectors), BLKSSZGET (logical block size), BLKPBSZGET
 * (physical), BLKFLSBUF (nothing cached here: the device's cache is
 * flushed), BLKRAGET (read-ahead in sectors: Linux's default 128 KiB, as
 * `dmsetup info` prints it; nothing is read ahead here). fsync flushes
 * the device's write cache.
 */
#include <pagoda/blkdev.h>
#include <pagoda/err.h>
#include <pagoda/file.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>
#include "internal.h"

#define BLKGETSIZE 0x1260
#define BLKFLSBUF 0x1261
#define BLKRAGET 0x1263
#define BLKSSZGET 0x1268
#define BLKPBSZGET 0x127b
#define BLKGETSIZE64 0x80081272

/* The staging buffer: 64 KiB, one allocation of contiguous pages. */
#define STAGE_ORDER 4
#define STAGE_SIZE (PAGE_SIZE << STAGE_ORDER)

static u64 bdev_bytes(struct block_device *bdev)
{
	return (u64)bdev_nr_sectors(bdev) << SECTOR_SHIFT;
}

/* Move up to the buffer's worth between the device at *pos and the iterator. */
static long blkdev_rw_iter(struct file *f, struct iov_iter *it, u64 *pos, bool write)
{
	struct block_device *bdev = f->private_data;
	u64 size = bdev_bytes(bdev), bs = bdev_logical_block_size(bdev);
	struct page *page;
	long done = 0;
	u8 *stage;
	int err = 0;

	if (*pos >= size)
		return write && iov_iter_count(it) ? -ENOSPC : 0;
	page = alloc_pages(GFP_KERNEL, STAGE_ORDER);
	if (!page)
		return -ENOMEM;
	stage = page_address(page);
	while (iov_iter_count(it) && *pos < size) {
		u64 start = ALIGN_DOWN(*pos, bs), off = *pos - start;
		size_t n = (size_t)MIN(MIN((u64)iov_iter_count(it), STAGE_SIZE - off), size - *pos);
		size_t span = (size_t)ALIGN_UP(off + n, bs), moved;
		sector_t sector = start >> SECTOR_SHIFT;

		if (!write || off || span != n)
			err = blkdev_rw(bdev, REQ_OP_READ, sector, stage, span);
		if (err)
			break;
		if (write) {
			moved = copy_from_iter(stage + off, n, it);
			if (moved)
				err = blkdev_rw(bdev, REQ_OP_WRITE, sector, stage, span);
		} else {
			moved = copy_to_iter(stage + off, n, it);
		}
		if (err)
			break;
		done += (long)moved;
		*pos += moved;
		if (moved < n) {
			err = -EFAULT;
			break;
		}
	}
	__free_pages(page, STAGE_ORDER);
	return done ? done : err;
}

static long blkdev_read(struct file *f, struct iov_iter *to, u64 *pos)
{
	return blkdev_rw_iter(f, to, pos, false);
}

static long blkdev_write(struct file *f, struct iov_iter *from, u64 *pos)
{
	return blkdev_rw_iter(f, from, pos, true);
}

static long blkdev_ioctl(struct file *f, unsigned int cmd, u64 arg)
{
	struct block_device *bdev = f->private_data;
	u64 v64;
	unsigned long vl;
	int v;

	switch (cmd) {
	case BLKGETSIZE64:
		v64 = bdev_bytes(bdev);
		return copy_to_user(arg, &v64, 8) ? -EFAULT : 0;
	case BLKGETSIZE:
		vl = (unsigned long)bdev_nr_sectors(bdev);
		return copy_to_user(arg, &vl, sizeof(vl)) ? -EFAULT : 0;
	case BLKSSZGET:
		v = (int)bdev_logical_block_size(bdev);
		return copy_to_user(arg, &v, 4) ? -EFAULT : 0;
	case BLKPBSZGET:
		v = (int)bdev_get_queue(bdev)->limits.physical_block_size;
		if (!v)
			v = (int)bdev_logical_block_size(bdev);
		return copy_to_user(arg, &v, 4) ? -EFAULT : 0;
	case BLKFLSBUF:
		return blkdev_issue_flush(bdev);
	case BLKRAGET:
		vl = 256;
		return copy_to_user(arg, &vl, sizeof(vl)) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static int blkdev_getattr(struct file *f, struct kstat *k)
{
	int err = vfs_getattr(f->path, k, true);

	/* A block device's st_size is 0, as Linux's stat says; lseek SEEK_END needs the size. */
	if (!err)
		k->size = 0;
	return err;
}

static int blkdev_fsync(struct file *f)
{
	return blkdev_issue_flush(f->private_data);
}

static void blkdev_release(struct file *f)
{
	blkdev_put(f->private_data);
}

/* lseek's SEEK_END goes to the device's end (Linux's blkdev_llseek). */
static u64 blkdev_end(struct file *f)
{
	return bdev_bytes(f->private_data);
}

static const struct file_operations blkdev_fops = {
	.end = blkdev_end,
	.read = blkdev_read,
	.write = blkdev_write,
	.ioctl = blkdev_ioctl,
	.getattr = blkdev_getattr,
	.fsync = blkdev_fsync,
	.release = blkdev_release,
};

/* The block device behind f, or NULL when f is not one (Linux's file_bdev()). */
struct block_device *file_bdev(const struct file *f)
{
	return f->kind == FILE_OPS && f->f_op == &blkdev_fops ? f->private_data : NULL;
}

int blkdev_file_open(const char *name, unsigned long flags, struct file *f)
{
	struct block_device *bdev = blkdev_get_by_name(name);

	(void)flags;
	if (IS_ERR(bdev))
		return (int)PTR_ERR(bdev);
	f->f_op = &blkdev_fops;
	f->private_data = bdev;
	return 0;
}
