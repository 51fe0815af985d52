/* SPDX-License-Identifier: MIT */
/*
 * The types every block-layer user sees: struct bio, the operations and
 * flags it carries, and blk_status_t. (Linux: include/linux/blk_types.h.)
 */
#ifndef PAGODA_BLK_TYPES_H
#define PAGODA_BLK_TYPES_H

#include <pagoda/atomic.h>
#include <pagoda/bvec.h>
#include <pagoda/types.h>

struct block_device;
struct bio;

/* How an I/O ended; blk_status_to_errno() turns it into -EIO and friends. */
typedef u8 blk_status_t;
#define BLK_STS_OK 0
#define BLK_STS_NOTSUPP 1       /* the device cannot do this operation */
#define BLK_STS_TIMEOUT 2
#define BLK_STS_NOSPC 3
#define BLK_STS_MEDIUM 7        /* a bad block */
#define BLK_STS_RESOURCE 9      /* driver: out of descriptors, try again */
#define BLK_STS_IOERR 10
#define BLK_STS_AGAIN 12
#define BLK_STS_DEV_RESOURCE 13 /* driver: retry once a request completes */
#define BLK_STS_INVAL 14        /* a malformed request (beyond the end...) */

int blk_status_to_errno(blk_status_t status);
const char *blk_status_to_str(blk_status_t status);

/*
 * bi_opf: the operation in the low 8 bits, flags above, as in Linux.
 * Odd operations move data to the device, even ones from it.
 */
typedef u32 blk_opf_t;
enum req_op {
	REQ_OP_READ = 0,
	REQ_OP_WRITE = 1,
	REQ_OP_FLUSH = 2,        /* make completed writes durable; no data */
	REQ_OP_DISCARD = 3,      /* the range's contents are no longer needed */
	REQ_OP_WRITE_ZEROES = 9, /* the range reads back as zeroes; no data */
	REQ_OP_LAST,
};
#define REQ_OP_BITS 8
#define REQ_OP_MASK ((1U << REQ_OP_BITS) - 1)

#define REQ_FAILFAST_DEV (1U << 8)
#define REQ_SYNC (1U << 11)      /* someone waits for it: do not delay */
#define REQ_META (1U << 12)
#define REQ_PRIO (1U << 13)
#define REQ_NOMERGE (1U << 14)
#define REQ_IDLE (1U << 15)
#define REQ_FUA (1U << 17)       /* durable when it completes */
#define REQ_PREFLUSH (1U << 18)  /* flush the write cache before this */
#define REQ_RAHEAD (1U << 19)
#define REQ_NOWAIT (1U << 21)    /* fail with BLK_STS_AGAIN rather than sleep */

static inline enum req_op bio_op_of(blk_opf_t opf)
{
	return (enum req_op)(opf & REQ_OP_MASK);
}

static inline bool op_is_write(blk_opf_t op)
{
	return op & 1;
}

/* Operations that carry no data pages. */
static inline bool op_is_nodata(blk_opf_t op)
{
	enum req_op o = bio_op_of(op);

	return o == REQ_OP_FLUSH || o == REQ_OP_DISCARD || o == REQ_OP_WRITE_ZEROES;
}

static inline bool op_is_flush(blk_opf_t op)
{
	return op & (REQ_FUA | REQ_PREFLUSH);
}

typedef void(bio_end_io_t)(struct bio *bio);

/* bi_flags bits */
enum {
	BIO_CLONED,   /* shares another bio's bi_io_vec (a split) */
	BIO_CHAIN,    /* __bi_remaining counts chained children */
	BIO_BOUNCED,  /* data went through a bounce buffer */
	BIO_KMALLOC,  /* from bio_alloc()/bio_split(): bio_put() frees it */
};

struct bio {
	struct bio *bi_next;        /* on a request's list, or a plug's */
	struct block_device *bi_bdev;
	blk_opf_t bi_opf;
	unsigned short bi_flags;
	blk_status_t bi_status;
	atomic_t __bi_remaining;    /* completions to see before bi_end_io */
	struct bvec_iter bi_iter;
	bio_end_io_t *bi_end_io;
	void *bi_private;
	unsigned short bi_vcnt;     /* bio_vecs in use */
	unsigned short bi_max_vecs; /* bio_vecs the array can hold */
	atomic_t __bi_cnt;          /* references; bio_put() frees at zero */
	struct bio_vec *bi_io_vec;
	void *bi_pool_priv;         /* bounce buffer bookkeeping (bio.c) */
	struct bio_vec bi_inline_vecs[];
};

#endif
