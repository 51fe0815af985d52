// SPDX-License-Identifier: MIT
/*
 * bio life cycle: allocation, adding pages, chaining, splitting and
 * completion (Linux: block/bio.c).
 *
 * A bio that the block core cuts in two (bio_split()) becomes a chain: the
 * piece is a new bio sharing the parent's bio_vec array and counted in the
 * parent's __bi_remaining, so the submitter's bi_end_io runs once, after
 * every piece is done, with the first error any piece saw.
 */
#include <pagoda/bio.h>
#include <pagoda/blkdev.h>
#include <pagoda/completion.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

void bio_init(struct bio *bio, struct block_device *bdev, struct bio_vec *table,
	      unsigned int max_vecs, blk_opf_t opf)
{
	memset(bio, 0, sizeof(*bio));
	bio->bi_bdev = bdev;
	bio->bi_opf = opf;
	bio->bi_io_vec = table;
	bio->bi_max_vecs = max_vecs;
	atomic_set(&bio->__bi_remaining, 1);
	atomic_set(&bio->__bi_cnt, 1);
}

struct bio *bio_alloc(struct block_device *bdev, unsigned int nr_vecs,
		      blk_opf_t opf, gfp_t gfp)
{
	struct bio *bio;

	if (nr_vecs > BIO_MAX_VECS)
		return NULL;
	bio = kmalloc(sizeof(*bio) + nr_vecs * sizeof(struct bio_vec), gfp);
	if (!bio)
		return NULL;
	bio_init(bio, bdev, bio->bi_inline_vecs, nr_vecs, opf);
	bio_set_flag(bio, BIO_KMALLOC);
	return bio;
}

void bio_get(struct bio *bio)
{
	atomic_inc(&bio->__bi_cnt);
}

void bio_put(struct bio *bio)
{
	if (!atomic_dec_and_test(&bio->__bi_cnt))
		return;
	if (bio_flagged(bio, BIO_KMALLOC))
		kfree(bio);
}

unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len,
			  unsigned int offset)
{
	struct bio_vec *prev;

	if (!len || offset + len > PAGE_SIZE || bio->bi_iter.bi_size + (u64)len > U32_MAX)
		return 0;
	/* The next bytes of the same page extend the last piece. */
	prev = bio->bi_vcnt ? &bio->bi_io_vec[bio->bi_vcnt - 1] : NULL;
	if (prev && prev->bv_page == page && prev->bv_offset + prev->bv_len == offset) {
		prev->bv_len += len;
	} else {
		if (bio->bi_vcnt >= bio->bi_max_vecs)
			return 0;
		bio->bi_io_vec[bio->bi_vcnt++] = (struct bio_vec){ page, len, offset };
	}
	bio->bi_iter.bi_size += len;
	return len;
}

int bio_add_virt(struct bio *bio, void *buf, unsigned int len)
{
	char *p = buf;

	while (len) {
		unsigned int off = (uptr)p & (PAGE_SIZE - 1);
		unsigned int n = MIN(len, (unsigned int)PAGE_SIZE - off);

		if (bio_add_page(bio, virt_to_page(p), n, off) != n)
			return -E2BIG;
		p += n;
		len -= n;
	}
	return 0;
}

static void bio_chain_endio(struct bio *bio)
{
	/* Never called: bio_endio() walks chains itself (no recursion). */
	(void)bio;
}

/* The last completion of a chained bio (or the only one of a plain bio). */
static bool bio_remaining_done(struct bio *bio)
{
	if (!bio_flagged(bio, BIO_CHAIN))
		return true;
	if (atomic_dec_and_test(&bio->__bi_remaining)) {
		bio->bi_flags &= ~(1U << BIO_CHAIN);
		return true;
	}
	return false;
}

void bio_endio(struct bio *bio)
{
	while (bio_remaining_done(bio)) {
		struct bio *parent;

		if (bio->bi_end_io != bio_chain_endio) {
			if (bio->bi_end_io)
				bio->bi_end_io(bio);
			return;
		}
		/* A piece: hand its error up, drop it, finish the parent. */
		parent = bio->bi_private;
		if (bio->bi_status)
			cmpxchg(&parent->bi_status, BLK_STS_OK, bio->bi_status);
		bio_put(bio);
		bio = parent;
	}
}

void bio_chain(struct bio *bio, struct bio *parent)
{
	bio->bi_private = parent;
	bio->bi_end_io = bio_chain_endio;
	bio_set_flag(parent, BIO_CHAIN);
	smp_mb();
	atomic_inc(&parent->__bi_remaining);
}

void bio_advance(struct bio *bio, unsigned int bytes)
{
	bio_advance_iter(bio, &bio->bi_iter, bytes);
}

struct bio *bio_split(struct bio *bio, unsigned int sectors, gfp_t gfp)
{
	struct bio *split;

	if (!sectors || sectors >= bio_sectors(bio))
		return NULL;
	split = kmalloc(sizeof(*split), gfp);
	if (!split)
		return NULL;
	bio_init(split, bio->bi_bdev, bio->bi_io_vec, bio->bi_max_vecs, bio->bi_opf);
	split->bi_flags = (1U << BIO_CLONED) | (1U << BIO_KMALLOC);
	split->bi_vcnt = bio->bi_vcnt;
	split->bi_iter = bio->bi_iter;
	split->bi_iter.bi_size = sectors << SECTOR_SHIFT;
	bio_advance(bio, split->bi_iter.bi_size);
	return split;
}

static void submit_bio_wait_endio(struct bio *bio)
{
	complete(bio->bi_private);
}

int submit_bio_wait(struct bio *bio)
{
	struct completion done;

	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = submit_bio_wait_endio;
	bio->bi_opf |= REQ_SYNC;
	submit_bio(bio);
	wait_for_completion(&done);
	return blk_status_to_errno(bio->bi_status);
}

static const struct {
	int err;
	const char *name;
} blk_errors[] = {
	[BLK_STS_OK] = { 0, "" },
	[BLK_STS_NOTSUPP] = { -EINVAL, "operation not supported" },
	[BLK_STS_TIMEOUT] = { -ETIMEDOUT, "timeout" },
	[BLK_STS_NOSPC] = { -ENOSPC, "critical space allocation" },
	[BLK_STS_MEDIUM] = { -EIO, "critical medium" },
	[BLK_STS_RESOURCE] = { -ENOMEM, "kernel resource" },
	[BLK_STS_IOERR] = { -EIO, "I/O" },
	[BLK_STS_AGAIN] = { -EAGAIN, "nonblocking retry" },
	[BLK_STS_DEV_RESOURCE] = { -EBUSY, "device resource" },
	[BLK_STS_INVAL] = { -EINVAL, "invalid" },
};

int blk_status_to_errno(blk_status_t status)
{
	if (status < ARRAY_SIZE(blk_errors) && blk_errors[status].name)
		return blk_errors[status].err;
	return -EIO;
}

const char *blk_status_to_str(blk_status_t status)
{
	if (status < ARRAY_SIZE(blk_errors) && blk_errors[status].name)
		return blk_errors[status].name;
	return "<unknown>";
}
