/* SPDX-License-Identifier: MIT */
/*
 * bio: one block I/O as its submitter sees it (block/bio.c).
 *
 *	struct bio *bio = bio_alloc(bdev, nr_pages, REQ_OP_WRITE | REQ_SYNC, GFP_KERNEL);
 *	bio->bi_iter.bi_sector = sector;
 *	bio_add_page(bio, page, len, offset);    ... as many as nr_pages
 *	err = submit_bio_wait(bio);              or: bio->bi_end_io = fn; submit_bio(bio);
 *	bio_put(bio);
 *
 * bi_end_io runs in completion context (possibly an interrupt): it must not
 * sleep and must not submit new bios; wake a thread to do that.
 */
#ifndef PAGODA_BIO_H
#define PAGODA_BIO_H

#include <pagoda/bitops.h>
#include <pagoda/blk_types.h>
#include <pagoda/gfp.h>

#define BIO_MAX_VECS 256U

static inline enum req_op bio_op(const struct bio *bio)
{
	return bio_op_of(bio->bi_opf);
}

static inline bool bio_flagged(const struct bio *bio, unsigned int bit)
{
	return bio->bi_flags & (1U << bit);
}

static inline void bio_set_flag(struct bio *bio, unsigned int bit)
{
	bio->bi_flags |= 1U << bit;
}

static inline unsigned int bio_sectors(const struct bio *bio)
{
	return bio->bi_iter.bi_size >> SECTOR_SHIFT;
}

static inline sector_t bio_end_sector(const struct bio *bio)
{
	return bio->bi_iter.bi_sector + bio_sectors(bio);
}

static inline bool bio_has_data(const struct bio *bio)
{
	return bio->bi_iter.bi_size && !op_is_nodata(bio->bi_opf);
}

static inline struct bio_vec bio_iter_iovec(const struct bio *bio, struct bvec_iter iter)
{
	return bvec_iter_bvec(bio->bi_io_vec, iter);
}

static inline void bio_advance_iter(const struct bio *bio, struct bvec_iter *iter,
				    unsigned int bytes)
{
	if (op_is_nodata(bio->bi_opf))
		iter->bi_size -= bytes, iter->bi_sector += bytes >> SECTOR_SHIFT;
	else
		bvec_iter_advance(bio->bi_io_vec, iter, bytes);
}

/* Each piece of the bio's remaining data, one page at most. */
#define __bio_for_each_segment(bvl, bio, iter, start)                       \
	for (iter = (start);                                                 \
	     (iter).bi_size && ((bvl = bio_iter_iovec((bio), (iter))), 1);   \
	     bio_advance_iter((bio), &(iter), (bvl).bv_len))
#define bio_for_each_segment(bvl, bio, iter) \
	__bio_for_each_segment(bvl, bio, iter, (bio)->bi_iter)

/* A bio with room for nr_vecs pages, one reference, aimed at bdev. */
struct bio *bio_alloc(struct block_device *bdev, unsigned int nr_vecs,
		      blk_opf_t opf, gfp_t gfp);
/* Initialise a caller-owned bio with a caller-owned bio_vec table. */
void bio_init(struct bio *bio, struct block_device *bdev, struct bio_vec *table,
	      unsigned int max_vecs, blk_opf_t opf);
void bio_get(struct bio *bio);
void bio_put(struct bio *bio);
/* Append a piece of a page; returns len, or 0 when the bio is full. */
unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len,
			  unsigned int offset);
/*
 * Append len bytes at kernel address buf (direct-mapped memory: kmalloc,
 * page allocator), a page piece at a time. 0 or -E2BIG if it did not fit.
 */
int bio_add_virt(struct bio *bio, void *buf, unsigned int len);
/* The I/O is finished: run bi_end_io once every chained child is done. */
void bio_endio(struct bio *bio);
static inline void bio_io_error(struct bio *bio)
{
	bio->bi_status = BLK_STS_IOERR;
	bio_endio(bio);
}
/* parent completes only after bio has; bio's error becomes parent's. */
void bio_chain(struct bio *bio, struct bio *parent);
/*
 * Split off the first `sectors` of bio into a new bio sharing its pages;
 * bio keeps the rest. The caller chains and submits both.
 */
struct bio *bio_split(struct bio *bio, unsigned int sectors, gfp_t gfp);
/* Advance a bio's start by bytes (bytes done, or split off). */
void bio_advance(struct bio *bio, unsigned int bytes);

/* Hand the bio to its device; bi_end_io reports how it went. May sleep. */
void submit_bio(struct bio *bio);
/* submit_bio() and wait: 0 or a negative errno. */
int submit_bio_wait(struct bio *bio);

/*
 * A singly linked FIFO of bios through bi_next (Linux's bio_list): for
 * holding bios back until something they wait for is done. An all-zero
 * struct is an empty list.
 */
struct bio_list {
	struct bio *head, *tail;
};

static inline bool bio_list_empty(const struct bio_list *bl)
{
	return !bl->head;
}

static inline void bio_list_add(struct bio_list *bl, struct bio *bio)
{
	bio->bi_next = NULL;
	if (bl->tail)
		bl->tail->bi_next = bio;
	else
		bl->head = bio;
	bl->tail = bio;
}

/* The oldest bio, off the list (its bi_next cleared), or NULL. */
static inline struct bio *bio_list_pop(struct bio_list *bl)
{
	struct bio *bio = bl->head;

	if (bio) {
		bl->head = bio->bi_next;
		if (!bl->head)
			bl->tail = NULL;
		bio->bi_next = NULL;
	}
	return bio;
}

#endif
