// SPDX-License-Identifier: MIT
/*
 * Bouncing buffers the device cannot reach (Linux: block/blk-map.c copies
 * user buffers that break dma_alignment; block/bounce.c did it for
 * highmem).
 *
 * A device's DMA may need every data piece to start and end on, say, 512
 * bytes (queue_limits.dma_alignment). A bio built from a buffer at an odd
 * address breaks that. Rather than fail it, the block core writes from (or
 * reads into) fresh whole pages and copies between them and the caller's
 * buffer; the caller sees only a slower I/O.
 */
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "blk.h"

static void bounce_copy(struct bio *orig, struct bio *bounce, bool to_bounce)
{
	struct bvec_iter oi, bi = bounce->bi_iter;
	struct bio_vec ov;

	/* bounce's iterator has not moved (only completion is left), nor orig's. */
	bi.bi_size = orig->bi_iter.bi_size;
	bio_for_each_segment(ov, orig, oi) {
		unsigned int done = 0;

		while (done < ov.bv_len) {
			struct bio_vec bv = bvec_iter_bvec(bounce->bi_io_vec, bi);
			unsigned int n = MIN(bv.bv_len, ov.bv_len - done);
			char *o = (char *)bvec_virt(&ov) + done;

			if (to_bounce)
				memcpy(bvec_virt(&bv), o, n);
			else
				memcpy(o, bvec_virt(&bv), n);
			bvec_iter_advance(bounce->bi_io_vec, &bi, n);
			done += n;
		}
	}
}

static void bounce_free_pages(struct bio *bounce)
{
	for (unsigned int i = 0; i < bounce->bi_vcnt; i++)
		__free_page(bounce->bi_io_vec[i].bv_page);
}

static void bounce_end_io(struct bio *bounce)
{
	struct bio *orig = bounce->bi_private;

	if (!bounce->bi_status && !op_is_write(orig->bi_opf)) {
		/* The completed bounce bio's iterator has run out: rewind it. */
		bounce->bi_iter = (struct bvec_iter){ .bi_size = orig->bi_iter.bi_size };
		bounce_copy(orig, bounce, false);
	}
	orig->bi_status = bounce->bi_status;
	bounce_free_pages(bounce);
	bio_put(bounce);
	bio_endio(orig);
}

/*
 * A bio with the same operation and sectors as orig but whole-page
 * buffers, which completes orig when done; NULL (orig failed) without memory.
 */
struct bio *blk_bounce_bio(struct bio *orig)
{
	unsigned int size = orig->bi_iter.bi_size;
	unsigned int nr = DIV_ROUND_UP(size, PAGE_SIZE);
	struct bio *b = bio_alloc(orig->bi_bdev, nr, orig->bi_opf, GFP_KERNEL);

	if (!b)
		goto fail;
	for (unsigned int i = 0; i < nr; i++) {
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page) {
			bounce_free_pages(b);
			bio_put(b);
			goto fail;
		}
		bio_add_page(b, page, MIN(size - i * (unsigned int)PAGE_SIZE,
					  (unsigned int)PAGE_SIZE), 0);
	}
	b->bi_iter.bi_sector = orig->bi_iter.bi_sector;
	b->bi_flags |= 1U << BIO_BOUNCED;
	b->bi_end_io = bounce_end_io;
	b->bi_private = orig;
	if (op_is_write(orig->bi_opf))
		bounce_copy(orig, b, true);
	return b;
fail:
	orig->bi_status = BLK_STS_RESOURCE;
	bio_endio(orig);
	return NULL;
}
