// SPDX-License-Identifier: MIT
/*
 * Images on a block device, from its first sector, so that they outlive
 * the machine (a virtio-blk disk) or at least the process (ram0).
 *
 * The first 512 bytes, which hold the header, are written last and the
 * device's cache flushed around them: a write cut short leaves the old
 * header, whose checksum does not cover the new body, and restore refuses
 * it instead of taking half an image for a whole one.
 *
 * The block layer maps buffers page by page through the direct map, so
 * the vmalloc'd image goes through a bounce buffer of physically
 * contiguous pages.
 */
#include <pagoda/bio.h>
#include <pagoda/blkdev.h>
#include <pagoda/err.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>
#include "cr.h"

#define BOUNCE_ORDER 4
#define BOUNCE_BYTES (PAGE_SIZE << BOUNCE_ORDER)
#define HEAD_BYTES 512u
#define IMAGE_MAX (64u << 20) /* no sane image is larger; a header saying so is corrupt */

static int rw(struct block_device *bdev, blk_opf_t op, u64 off, u8 *data, size_t len, u8 *bounce)
{
	while (len) {
		size_t n = MIN(len, (size_t)BOUNCE_BYTES);
		size_t io = ALIGN_UP(n, (size_t)HEAD_BYTES);
		int err;

		if (op == REQ_OP_WRITE) {
			memcpy(bounce, data, n);
			memset(bounce + n, 0, io - n);
		}
		err = blkdev_rw(bdev, op, off >> SECTOR_SHIFT, bounce, io);
		if (err)
			return err;
		if (op == REQ_OP_READ)
			memcpy(data, bounce, n);
		off += n;
		data += n;
		len -= n;
	}
	return 0;
}

static struct block_device *open_dev(const char *dev, u8 **bounce, const char **why)
{
	struct block_device *bdev = blkdev_get_by_name(dev);
	struct page *pg;

	if (IS_ERR(bdev)) {
		*why = "no such block device";
		return bdev;
	}
	if (bdev_logical_block_size(bdev) > HEAD_BYTES) {
		blkdev_put(bdev);
		*why = "the device's blocks are larger than 512 bytes";
		return ERR_PTR(-EINVAL);
	}
	pg = alloc_pages(GFP_KERNEL, BOUNCE_ORDER);
	if (!pg) {
		blkdev_put(bdev);
		*why = "out of memory";
		return ERR_PTR(-ENOMEM);
	}
	*bounce = page_address(pg);
	return bdev;
}

static void close_dev(struct block_device *bdev, u8 *bounce)
{
	__free_pages(virt_to_page(bounce), BOUNCE_ORDER);
	blkdev_put(bdev);
}

int cr_store_write(const char *dev, const struct cr_buf *b, const char **why)
{
	u8 *bounce;
	struct block_device *bdev = open_dev(dev, &bounce, why);
	int err;

	if (IS_ERR(bdev))
		return (int)PTR_ERR(bdev);
	if (b->len < HEAD_BYTES ||
	    ALIGN_UP(b->len, (size_t)HEAD_BYTES) > bdev_nr_sectors(bdev) << SECTOR_SHIFT) {
		close_dev(bdev, bounce);
		*why = "the image is larger than the device";
		return -ENOSPC;
	}
	err = rw(bdev, REQ_OP_WRITE, HEAD_BYTES, b->data + HEAD_BYTES, b->len - HEAD_BYTES, bounce);
	if (!err)
		err = blkdev_issue_flush(bdev);
	if (!err)
		err = rw(bdev, REQ_OP_WRITE, 0, b->data, HEAD_BYTES, bounce);
	if (!err)
		err = blkdev_issue_flush(bdev);
	close_dev(bdev, bounce);
	if (err)
		*why = "the device failed a write";
	return err;
}

int cr_store_read(const char *dev, struct cr_buf *b, const char **why)
{
	u8 *bounce;
	struct block_device *bdev = open_dev(dev, &bounce, why);
	struct cr_header h;
	u64 dev_bytes;
	int err;

	*b = (struct cr_buf){ 0 };
	if (IS_ERR(bdev))
		return (int)PTR_ERR(bdev);
	dev_bytes = bdev_nr_sectors(bdev) << SECTOR_SHIFT;
	err = blkdev_rw(bdev, REQ_OP_READ, 0, bounce, HEAD_BYTES);
	if (err) {
		*why = "the device failed a read";
		goto out;
	}
	memcpy(&h, bounce, sizeof(h));
	/* Only what sizing the read needs; cr_image_check() judges the rest. */
	if (h.magic != CR_MAGIC) {
		*why = "no checkpoint image here (bad magic)";
		err = -EINVAL;
		goto out;
	}
	if (h.total_len < HEAD_BYTES || h.total_len > IMAGE_MAX ||
	    ALIGN_UP(h.total_len, (u64)HEAD_BYTES) > dev_bytes) {
		*why = "the image's length is impossible for this device (corrupt header)";
		err = -EINVAL;
		goto out;
	}
	b->data = vmalloc(h.total_len);
	if (!b->data) {
		*why = "out of memory for the image";
		err = -ENOMEM;
		goto out;
	}
	b->len = b->cap = h.total_len;
	err = rw(bdev, REQ_OP_READ, 0, b->data, b->len, bounce);
	if (err) {
		*why = "the device failed a read";
		cr_buf_free(b);
	}
out:
	close_dev(bdev, bounce);
	return err;
}
