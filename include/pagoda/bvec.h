/* SPDX-License-Identifier: MIT */
/*
 * bio_vec: one piece of an I/O buffer (a page, an offset and a length), and
 * bvec_iter: a position inside an array of them.
 *
 * A bio's data is an array of bio_vecs that nobody changes once the bio is
 * submitted; what moves is the iterator. Splitting a bio and completing part
 * of a request only advance iterators, so a split child shares its parent's
 * array instead of copying it. Each bio_vec stays inside one page.
 */
#ifndef PAGODA_BVEC_H
#define PAGODA_BVEC_H

#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/types.h>

typedef u64 sector_t;
#define SECTOR_SHIFT 9
#define SECTOR_SIZE (1U << SECTOR_SHIFT)

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

struct bvec_iter {
	sector_t bi_sector;        /* device address, in 512-byte sectors */
	unsigned int bi_size;      /* bytes left */
	unsigned int bi_idx;       /* current index into the bio_vec array */
	unsigned int bi_bvec_done; /* bytes of that bio_vec already done */
};

/* The bio_vec the iterator points at, trimmed to what is left of both. */
static inline struct bio_vec bvec_iter_bvec(const struct bio_vec *bv,
					    struct bvec_iter iter)
{
	const struct bio_vec *cur = &bv[iter.bi_idx];
	unsigned int left = cur->bv_len - iter.bi_bvec_done;

	return (struct bio_vec){
		.bv_page = cur->bv_page,
		.bv_len = left < iter.bi_size ? left : iter.bi_size,
		.bv_offset = cur->bv_offset + iter.bi_bvec_done,
	};
}

static inline void bvec_iter_advance(const struct bio_vec *bv,
				     struct bvec_iter *iter, unsigned int bytes)
{
	iter->bi_sector += bytes >> SECTOR_SHIFT;
	iter->bi_size -= bytes;
	bytes += iter->bi_bvec_done;
	while (bytes && bytes >= bv[iter->bi_idx].bv_len) {
		bytes -= bv[iter->bi_idx].bv_len;
		iter->bi_idx++;
	}
	iter->bi_bvec_done = bytes;
}

/* The kernel address of a bio_vec's bytes (all RAM is in the direct map). */
static inline void *bvec_virt(const struct bio_vec *bv)
{
	return (char *)page_address(bv->bv_page) + bv->bv_offset;
}

#define for_each_bvec(bvl, bio_vec, iter, start)                             \
	for (iter = (start);                                                 \
	     (iter).bi_size && ((bvl = bvec_iter_bvec((bio_vec), (iter))), 1); \
	     bvec_iter_advance((bio_vec), &(iter), (bvl).bv_len))

#endif
