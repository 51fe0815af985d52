// SPDX-License-Identifier: MIT
/*
 * Cutting bios to what a device takes, and gluing neighbours back together
 * (Linux: block/blk-merge.c).
 *
 * A device states its limits once (struct queue_limits): bytes per request,
 * data pieces (segments) per request, bytes per segment, block size. The
 * submitter need not know them: a bio that breaks one is split here into a
 * piece that fits and a rest that is split again, each piece ending on a
 * logical-block boundary. Going the other way, a bio that continues where
 * a waiting request ends is appended to it (a back merge) while the
 * result still fits, so sequential small writes reach the device as one.
 *
 * Pure code: runs on the host in the ktest host runner.
 */
#include "blk.h"

/* Segments bio needs under lim: each page piece, cut at max_segment_size. */
unsigned int bio_count_segments(const struct bio *bio, const struct queue_limits *lim)
{
	struct bvec_iter iter;
	struct bio_vec bv;
	unsigned int segs = 0;

	if (!bio_has_data(bio))
		return 0;
	bio_for_each_segment(bv, bio, iter)
		segs += DIV_ROUND_UP(bv.bv_len, lim->max_segment_size);
	return segs;
}

static unsigned int max_sectors_for(const struct bio *bio, const struct queue_limits *lim)
{
	switch (bio_op(bio)) {
	case REQ_OP_DISCARD:
		return lim->max_discard_sectors;
	case REQ_OP_WRITE_ZEROES:
		return lim->max_write_zeroes_sectors;
	default:
		return lim->max_sectors;
	}
}

/*
 * How many sectors of bio make the first piece: 0 if the whole bio fits
 * (*nr_segs is then its segment count), or -EINVAL if not even one logical
 * block fits (a segment limit below the block size).
 */
int bio_split_sectors(const struct bio *bio, const struct queue_limits *lim,
		      unsigned int *nr_segs)
{
	unsigned int lbs_sectors = lim->logical_block_size >> SECTOR_SHIFT;
	unsigned int max = ALIGN_DOWN(max_sectors_for(bio, lim), lbs_sectors);
	u64 max_bytes = (u64)max << SECTOR_SHIFT;
	u64 bytes = 0;
	unsigned int segs = 0;
	struct bvec_iter iter;
	struct bio_vec bv;

	*nr_segs = 0;
	if (bio_op(bio) == REQ_OP_FLUSH)
		return 0;
	if (!bio_has_data(bio)) {
		if (!max)
			return -EINVAL;
		return bio_sectors(bio) > max ? (int)max : 0;
	}
	bio_for_each_segment(bv, bio, iter) {
		unsigned int len = bv.bv_len;

		while (len) {
			unsigned int seg = MIN(len, lim->max_segment_size);

			if (segs + 1 > lim->max_segments || bytes + seg > max_bytes) {
				/* Cut here, back on a block boundary. */
				bytes = ALIGN_DOWN(bytes, (u64)lim->logical_block_size);
				return bytes ? (int)(bytes >> SECTOR_SHIFT) : -EINVAL;
			}
			segs++;
			bytes += seg;
			len -= seg;
		}
	}
	*nr_segs = segs;
	return 0;
}

/* Every data piece starts and ends where the device's DMA can reach it. */
bool bio_aligned_for(const struct bio *bio, const struct queue_limits *lim)
{
	struct bvec_iter iter;
	struct bio_vec bv;

	if (!bio_has_data(bio))
		return true;
	bio_for_each_segment(bv, bio, iter)
		if ((bv.bv_offset | bv.bv_len) & lim->dma_alignment)
			return false;
	return true;
}

/* Flags that forbid merging: ordering points and explicit requests. */
#define REQ_NOMERGE_FLAGS (REQ_NOMERGE | REQ_PREFLUSH | REQ_FUA)

bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio)
{
	if ((rq->cmd_flags | bio->bi_opf) & REQ_NOMERGE_FLAGS)
		return false;
	if (req_op(rq) != bio_op(bio))
		return false;
	/* Only reads and writes: discards would need multi-range commands. */
	if (req_op(rq) != REQ_OP_READ && req_op(rq) != REQ_OP_WRITE)
		return false;
	return rq->bio && rq->bio->bi_bdev->bd_disk == bio->bi_bdev->bd_disk;
}

bool blk_rq_back_merge_fits(const struct request *rq, const struct bio *bio,
			    unsigned int nr_segs, const struct queue_limits *lim)
{
	if (blk_rq_pos(rq) + blk_rq_sectors(rq) != bio->bi_iter.bi_sector)
		return false;
	if (blk_rq_sectors(rq) + bio_sectors(bio) > lim->max_sectors)
		return false;
	return rq->nr_phys_segments + nr_segs <= lim->max_segments;
}

void blk_rq_back_merge(struct request *rq, struct bio *bio, unsigned int nr_segs)
{
	rq->biotail->bi_next = bio;
	rq->biotail = bio;
	bio->bi_next = NULL;
	rq->__data_len += bio->bi_iter.bi_size;
	rq->nr_phys_segments += nr_segs;
	/* A synchronous bio makes the whole request synchronous. */
	rq->cmd_flags |= bio->bi_opf & REQ_SYNC;
}
