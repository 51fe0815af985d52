// SPDX-License-Identifier: MIT
/*
 * Cache flushes and FUA (Linux: block/blk-flush.c, which runs a state
 * machine per request; the same promises here, kept by simpler means).
 *
 * A device with a volatile write cache (BLK_FEAT_WRITE_CACHE) may report a
 * write complete while the data sits in that cache. Two promises let file
 * systems and logs order their writes anyway:
 *   REQ_PREFLUSH: every write completed before this bio was submitted is
 *                 durable before this bio's data is written;
 *   REQ_FUA:      this bio's data is durable when it completes.
 * Without a write cache both hold trivially and are dropped. Otherwise a
 * PREFLUSH is a separate flush request that the submitter waits for before
 * the data goes out, and FUA on a device without BLK_FEAT_FUA becomes a
 * flush after the data completes, from a worker, before bi_end_io runs.
 */
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/workqueue.h>

#include "blk.h"

struct fua_post {
	struct work_struct work;
	struct bio *bio;
	bio_end_io_t *end_io;
	void *private;
};

static void fua_post_work(struct work_struct *w)
{
	struct fua_post *fp = container_of(w, struct fua_post, work);
	struct bio *bio = fp->bio;
	int err = 0;

	if (!bio->bi_status)
		err = blkdev_issue_flush(bio->bi_bdev);
	if (err)
		bio->bi_status = BLK_STS_IOERR;
	bio->bi_end_io = fp->end_io;
	bio->bi_private = fp->private;
	kfree(fp);
	bio_endio(bio);
}

static void fua_data_endio(struct bio *bio)
{
	struct fua_post *fp = bio->bi_private;

	/* A flush may sleep: not here, in completion context. */
	schedule_work(&fp->work);
}

/* true when bio has been dealt with (completed) and must not go on. */
bool blk_flush_handle(struct bio *bio)
{
	unsigned int features = bdev_get_queue(bio->bi_bdev)->limits.features;
	bool preflush = bio->bi_opf & REQ_PREFLUSH;
	bool fua = bio->bi_opf & REQ_FUA;

	if (!(features & BLK_FEAT_WRITE_CACHE)) {
		bio->bi_opf &= ~(REQ_PREFLUSH | REQ_FUA);
		if (bio_op(bio) == REQ_OP_FLUSH) {
			bio_endio(bio);
			return true;
		}
		return false;
	}
	if (bio_op(bio) == REQ_OP_FLUSH) {
		bio->bi_opf &= ~REQ_FUA;
		return false;
	}
	if (!op_is_write(bio->bi_opf)) {
		bio->bi_opf &= ~(REQ_PREFLUSH | REQ_FUA);
		return false;
	}
	if (preflush) {
		/*
		 * The flush is waited for right here, so it must not sit on the
		 * submitter's plug, which is only sent after we return.
		 */
		struct blk_plug *plug = current->plug;
		int err;

		current->plug = NULL;
		err = blkdev_issue_flush(bio->bi_bdev);
		current->plug = plug;

		bio->bi_opf &= ~REQ_PREFLUSH;
		if (err) {
			bio->bi_status = BLK_STS_IOERR;
			bio_endio(bio);
			return true;
		}
	}
	if (fua && !(features & BLK_FEAT_FUA)) {
		struct fua_post *fp = kmalloc(sizeof(*fp), GFP_KERNEL);

		if (!fp) {
			bio->bi_status = BLK_STS_RESOURCE;
			bio_endio(bio);
			return true;
		}
		bio->bi_opf &= ~REQ_FUA;
		INIT_WORK(&fp->work, fua_post_work);
		fp->bio = bio;
		fp->end_io = bio->bi_end_io;
		fp->private = bio->bi_private;
		bio->bi_end_io = fua_data_endio;
		bio->bi_private = fp;
	}
	return false;
}
