// SPDX-License-Identifier: MIT
/*
 * brd: RAM disks ram0, ram1... (Linux: drivers/block/brd.c).
 *
 * The simplest block driver there is, and a bio-based one: no requests, no
 * tags, no queues. Each bio (already cut to the queue limits by the core)
 * is copied to or from pages kept in a sparse page array, and ended at
 * once in the submitter's context. Comparing it with null_blk
 * (memory_backed=1, irqmode=none) shows what blk-mq costs.
 *
 *   brd.rd_nr=N      number of RAM disks (Linux's default is 16; here 1)
 *   brd.rd_size=KiB  size of each (default 4096, Linux's too)
 */
#include <pagoda/blkdev.h>
#include <pagoda/err.h>
#include <pagoda/errname.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "pagemap.h"

static u64 rd_nr = 1;
PARAM_UINT("brd.rd_nr", rd_nr, 0, 16, "brd: number of RAM disks (ram0..)");
static u64 rd_size = 4096;
PARAM_UINT("brd.rd_size", rd_size, 4, 16ULL << 20, "brd: size of each RAM disk in KiB");

struct brd_device {
	struct gendisk *disk;
	struct pagemap pages;
};

static void brd_copy(struct brd_device *brd, u64 pos, void *buf, unsigned int len,
		     bool write, blk_status_t *status)
{
	while (len) {
		u64 idx = pos / PAGE_SIZE;
		unsigned int off = pos % PAGE_SIZE;
		unsigned int n = MIN(len, (unsigned int)PAGE_SIZE - off);
		struct page *page;

		if (write) {
			page = pagemap_get(&brd->pages, idx);
			if (!page) {
				*status = BLK_STS_RESOURCE;
				return;
			}
			memcpy((char *)page_address(page) + off, buf, n);
		} else {
			pagemap_read(buf, pagemap_lookup(&brd->pages, idx), off, n);
		}
		pos += n;
		buf = (char *)buf + n;
		len -= n;
	}
}

static void brd_discard(struct brd_device *brd, u64 pos, u64 len)
{
	/* Whole pages go back to the allocator; partial ones are zeroed. */
	while (len) {
		u64 idx = pos / PAGE_SIZE;
		unsigned int off = pos % PAGE_SIZE;
		unsigned int n = (unsigned int)MIN(len, (u64)PAGE_SIZE - off);
		struct page *p;

		if (n == PAGE_SIZE) {
			p = pagemap_take(&brd->pages, idx);
			if (p)
				__free_page(p);
		} else {
			p = pagemap_lookup(&brd->pages, idx);
			if (p)
				memset((char *)page_address(p) + off, 0, n);
		}
		pos += n;
		len -= n;
	}
}

static void brd_submit_bio(struct bio *bio)
{
	struct brd_device *brd = bio->bi_bdev->bd_disk->private_data;
	u64 pos = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	blk_status_t status = BLK_STS_OK;
	struct bvec_iter iter;
	struct bio_vec bv;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		bio_for_each_segment(bv, bio, iter) {
			brd_copy(brd, pos, bvec_virt(&bv), bv.bv_len, op_is_write(bio->bi_opf),
				 &status);
			if (status)
				break;
			pos += bv.bv_len;
		}
		break;
	case REQ_OP_DISCARD:
	case REQ_OP_WRITE_ZEROES:
		brd_discard(brd, pos, bio->bi_iter.bi_size);
		break;
	default:
		status = BLK_STS_NOTSUPP;
	}
	bio->bi_status = status;
	bio_endio(bio);
}

static const struct block_device_operations brd_fops = {
	.submit_bio = brd_submit_bio,
};

static int brd_alloc(unsigned int i)
{
	struct queue_limits lim = {
		.logical_block_size = 512,
		.physical_block_size = PAGE_SIZE,
		.max_hw_sectors = U32_MAX >> SECTOR_SHIFT,
		.max_sectors = 2048,
		.max_segments = BIO_MAX_VECS,
		.max_segment_size = PAGE_SIZE,
		.max_discard_sectors = U32_MAX >> SECTOR_SHIFT,
		.max_write_zeroes_sectors = U32_MAX >> SECTOR_SHIFT,
	};
	struct brd_device *brd = kzalloc(sizeof(*brd), GFP_KERNEL);
	u64 bytes = rd_size * 1024;
	int err;

	if (!brd)
		return -ENOMEM;
	err = pagemap_init(&brd->pages, DIV_ROUND_UP(bytes, PAGE_SIZE));
	if (err)
		goto fail;
	brd->disk = blk_alloc_disk(&lim, brd);
	if (IS_ERR(brd->disk)) {
		err = (int)PTR_ERR(brd->disk);
		goto fail;
	}
	brd->disk->fops = &brd_fops;
	brd->disk->private_data = brd;
	snprintf(brd->disk->disk_name, DISK_NAME_LEN, "ram%u", i);
	/* /dev/ram0 is 1:0 in Linux too */
	brd->disk->major = RAMDISK_MAJOR;
	brd->disk->first_minor = i;
	brd->disk->minors = 1;
	set_capacity(brd->disk, bytes >> SECTOR_SHIFT);
	err = add_disk(brd->disk);
	if (err) {
		put_disk(brd->disk);
		goto fail;
	}
	return 0;
fail:
	pagemap_free(&brd->pages);
	kfree(brd);
	return err;
}

void brd_init(void)
{
	for (unsigned int i = 0; i < rd_nr; i++) {
		int err = brd_alloc(i);

		if (err) {
			pr_err("brd: ram%u: %s\n", i, errmsg(err));
			return;
		}
	}
}
