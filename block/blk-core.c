// SPDX-License-Identifier: MIT
/*
 * submit_bio(): the front door of the block layer (Linux: block/blk-core.c).
 *
 * Before a bio may become a request it is checked (inside the device, on
 * whole logical blocks, an operation the device has), moved from its
 * partition to the disk's sector numbers, its cache flags are turned into
 * what the device can do (blk-flush.c), a buffer the device's DMA cannot
 * reach is bounced (bounce.c), and it is cut into pieces the device takes
 * (blk-merge.c). Each piece then goes to blk-mq. A bio that fails a check
 * completes at once with an error status: nothing is silently dropped.
 */
#include <pagoda/completion.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/task.h>

#include "blk.h"

/* Larger misaligned bios are bounced a piece at a time. */
#define BOUNCE_MAX_BYTES (BIO_MAX_VECS * PAGE_SIZE)

static blk_status_t bio_check(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	struct request_queue *q;
	unsigned int lbs;
	sector_t nr;

	if (!bdev || !bdev->bd_disk || !bdev->bd_disk->registered)
		return BLK_STS_IOERR;
	q = bdev_get_queue(bdev);
	lbs = q->limits.logical_block_size;
	nr = bio_sectors(bio);
	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		if (!bio->bi_iter.bi_size)
			return BLK_STS_INVAL;
		break;
	case REQ_OP_FLUSH:
		if (bio->bi_iter.bi_size)
			return BLK_STS_INVAL;
		return BLK_STS_OK;
	case REQ_OP_DISCARD:
		if (!q->limits.max_discard_sectors)
			return BLK_STS_NOTSUPP;
		break;
	case REQ_OP_WRITE_ZEROES:
		if (!q->limits.max_write_zeroes_sectors)
			return BLK_STS_NOTSUPP;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	if (((bio->bi_iter.bi_sector << SECTOR_SHIFT) | bio->bi_iter.bi_size) & (lbs - 1)) {
		pr_debug("%s: I/O at sector %llu, %u bytes, not on %u-byte blocks\n",
			 bdev->bd_name, (unsigned long long)bio->bi_iter.bi_sector,
			 bio->bi_iter.bi_size, lbs);
		return BLK_STS_INVAL;
	}
	if (bio->bi_iter.bi_sector > bdev->bd_nr_sectors ||
	    nr > bdev->bd_nr_sectors - bio->bi_iter.bi_sector) {
		pr_debug("%s: attempt to access beyond end of device (sector %llu + %llu > %llu)\n",
			 bdev->bd_name, (unsigned long long)bio->bi_iter.bi_sector,
			 (unsigned long long)nr, (unsigned long long)bdev->bd_nr_sectors);
		return BLK_STS_IOERR;
	}
	return BLK_STS_OK;
}

/*
 * Split bio until its first piece fits lim: returns that piece (chained to
 * the rest, which the caller resubmits: bio itself, advanced) or bio when
 * it fits whole, or NULL after failing bio when it cannot be cut.
 */
struct bio *__bio_split_to_limits(struct bio *bio, const struct queue_limits *lim,
				  unsigned int *nr_segs)
{
	struct bio *split;
	int sectors = bio_split_sectors(bio, lim, nr_segs);

	if (sectors == 0)
		return bio;
	if (sectors < 0) {
		bio->bi_status = BLK_STS_INVAL;
		bio_endio(bio);
		return NULL;
	}
	split = bio_split(bio, sectors, GFP_KERNEL);
	if (!split) {
		bio->bi_status = BLK_STS_RESOURCE;
		bio_endio(bio);
		return NULL;
	}
	bio_chain(split, bio);
	*nr_segs = bio_count_segments(split, lim);
	return split;
}

/* Cut bio to the device's limits and hand each piece to blk-mq. */
static void submit_split_loop(struct bio *bio)
{
	struct request_queue *q = bdev_get_queue(bio->bi_bdev);

	for (;;) {
		unsigned int nr_segs;
		struct bio *piece = __bio_split_to_limits(bio, &q->limits, &nr_segs);

		if (!piece)
			return;
		if (piece != bio)
			atomic64_inc(&q->nr_splits);
		if (q->mq_ops)
			blk_mq_submit_bio_segs(piece, nr_segs);
		else
			piece->bi_bdev->bd_disk->fops->submit_bio(piece);
		if (piece == bio)
			return;
	}
}

void submit_bio(struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	struct request_queue *q;
	blk_status_t status = bio_check(bio);

	if (status) {
		bio->bi_status = status;
		bio_endio(bio);
		return;
	}
	q = bdev_get_queue(bdev);
	atomic64_inc(&q->nr_bios);
	bio->bi_iter.bi_sector += bdev->bd_start_sect;
	if (blk_flush_handle(bio))
		return;
	while (!bio_aligned_for(bio, &q->limits)) {
		struct bio *piece = bio, *bounce;

		if (bio->bi_iter.bi_size > BOUNCE_MAX_BYTES) {
			piece = bio_split(bio, BOUNCE_MAX_BYTES >> SECTOR_SHIFT, GFP_KERNEL);
			if (!piece) {
				bio->bi_status = BLK_STS_RESOURCE;
				bio_endio(bio);
				return;
			}
			bio_chain(piece, bio);
		}
		bounce = blk_bounce_bio(piece);
		if (bounce)
			submit_split_loop(bounce);
		if (piece == bio)
			return;
	}
	submit_split_loop(bio);
}

void blk_start_plug(struct blk_plug *plug)
{
	INIT_LIST_HEAD(&plug->mq_list);
	plug->rq_count = 0;
	if (!current->plug)
		current->plug = plug;
}

void blk_flush_plug(struct blk_plug *plug)
{
	if (plug && !list_empty(&plug->mq_list))
		blk_mq_flush_plug_list(plug);
}

void blk_finish_plug(struct blk_plug *plug)
{
	if (current->plug != plug)
		return;
	blk_flush_plug(plug);
	current->plug = NULL;
}

/* blkdev_rw(): chunks in flight together, one wait for all of them. */
struct rw_batch {
	atomic_t pending;
	blk_status_t status;
	struct completion done;
};

static void rw_batch_endio(struct bio *bio)
{
	struct rw_batch *b = bio->bi_private;

	if (bio->bi_status)
		cmpxchg(&b->status, BLK_STS_OK, bio->bi_status);
	bio_put(bio);
	if (atomic_dec_and_test(&b->pending))
		complete(&b->done);
}

int blkdev_rw(struct block_device *bdev, blk_opf_t opf, sector_t sector,
	      void *buf, size_t len)
{
	struct rw_batch b;
	struct blk_plug plug;
	char *p = buf;

	if (len & (bdev_logical_block_size(bdev) - 1))
		return -EINVAL;
	if (!len)
		return 0;
	atomic_set(&b.pending, 1);
	b.status = BLK_STS_OK;
	init_completion(&b.done);
	blk_start_plug(&plug);
	while (len) {
		unsigned int first = (uptr)p & (PAGE_SIZE - 1);
		size_t room = (size_t)BIO_MAX_VECS * PAGE_SIZE - first;
		unsigned int n = (unsigned int)ALIGN_DOWN(MIN(len, room),
						     (size_t)bdev_logical_block_size(bdev));
		struct bio *bio = bio_alloc(bdev, DIV_ROUND_UP(first + n, PAGE_SIZE),
					    opf | REQ_SYNC, GFP_KERNEL);

		if (!bio) {
			b.status = BLK_STS_RESOURCE;
			break;
		}
		bio->bi_iter.bi_sector = sector;
		bio_add_virt(bio, p, n);
		bio->bi_end_io = rw_batch_endio;
		bio->bi_private = &b;
		atomic_inc(&b.pending);
		submit_bio(bio);
		p += n;
		len -= n;
		sector += n >> SECTOR_SHIFT;
	}
	blk_finish_plug(&plug);
	if (atomic_dec_and_test(&b.pending))
		complete(&b.done);
	wait_for_completion(&b.done);
	return blk_status_to_errno(b.status);
}

int blkdev_issue_flush(struct block_device *bdev)
{
	struct bio bio;

	bio_init(&bio, bdev, NULL, 0, REQ_OP_FLUSH | REQ_PREFLUSH);
	return submit_bio_wait(&bio);
}
