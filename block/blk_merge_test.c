// SPDX-License-Identifier: MIT
/*
 * The block core's pure parts, in the kernel and on the host: where a bio
 * is cut for given queue limits, when a bio may join a request, and tag
 * allocation. The bios here are built by hand over stand-in pages: nothing
 * reads their data.
 */
#include <pagoda/blk-mq.h>
#include <pagoda/ktest.h>
#include <pagoda/string.h>

#include "blk.h"

static struct page fake_pages[64];
static struct bio_vec vecs[64];

/* A bio over `nr` pieces of `len` bytes each, at `sector`. */
static void make_bio(struct bio *bio, blk_opf_t op, sector_t sector, unsigned int nr,
		     unsigned int len, unsigned int offset)
{
	memset(bio, 0, sizeof(*bio));
	for (unsigned int i = 0; i < nr; i++)
		vecs[i] = (struct bio_vec){ &fake_pages[i], len, offset };
	bio->bi_opf = op;
	bio->bi_io_vec = vecs;
	bio->bi_vcnt = (unsigned short)nr;
	bio->bi_max_vecs = 64;
	bio->bi_iter.bi_sector = sector;
	bio->bi_iter.bi_size = nr * len;
}

static struct queue_limits limits(unsigned int lbs, unsigned int max_sectors,
				  unsigned int max_segs, unsigned int seg_size)
{
	struct queue_limits lim = {
		.logical_block_size = lbs, .max_hw_sectors = max_sectors,
		.max_segments = max_segs, .max_segment_size = seg_size,
	};

	blk_validate_limits(&lim);
	return lim;
}

static void test_split_fits(struct ktest *t)
{
	struct queue_limits lim = limits(512, 256, 32, 65536);
	struct bio bio;
	unsigned int segs;

	make_bio(&bio, REQ_OP_WRITE, 0, 32, 4096, 0); /* 128 KiB, 32 pieces */
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 0);
	KEXPECT_EQ(t, segs, 32);
}

static void test_split_by_max_sectors(struct ktest *t)
{
	struct queue_limits lim = limits(512, 64, 128, 65536); /* 32 KiB */
	struct bio bio;
	unsigned int segs;

	make_bio(&bio, REQ_OP_READ, 0, 16, 4096, 0);
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 64);
}

static void test_split_by_segments(struct ktest *t)
{
	struct queue_limits lim = limits(512, 2048, 4, 65536);
	struct bio bio;
	unsigned int segs;

	make_bio(&bio, REQ_OP_WRITE, 0, 10, 4096, 0);
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 4 * 8);
	/* Segment size cuts each piece: 4 KiB pieces, 1 KiB segments. */
	lim = limits(512, 2048, 6, 1024);
	KEXPECT_EQ(t, bio_count_segments(&bio, &lim), 40);
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 6 * 2);
}

static void test_split_on_block_boundary(struct ktest *t)
{
	/* 4 KiB blocks, pieces of 1.5 KiB, 3 segments at most: 4.5 KiB fit, 4 KiB are cut. */
	struct queue_limits lim = limits(4096, 2048, 3, 65536);
	struct bio bio;
	unsigned int segs;

	make_bio(&bio, REQ_OP_WRITE, 0, 8, 1536, 0);
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 8);
	/* Not even one block fits 2 segments of 1.5 KiB: refused, never a 0-byte piece. */
	lim = limits(4096, 2048, 2, 65536);
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), -EINVAL);
}

static void test_split_discard_and_flush(struct ktest *t)
{
	struct queue_limits lim = limits(512, 2048, 128, 65536);
	struct bio bio;
	unsigned int segs;

	lim.max_discard_sectors = 1000;
	make_bio(&bio, REQ_OP_DISCARD, 0, 0, 0, 0);
	bio.bi_iter.bi_size = 4000 * 512;
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 1000);
	KEXPECT_EQ(t, segs, 0);
	bio.bi_iter.bi_size = 1000 * 512;
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 0);
	make_bio(&bio, REQ_OP_FLUSH, 0, 0, 0, 0);
	KEXPECT_EQ(t, bio_split_sectors(&bio, &lim, &segs), 0);
}

static void test_alignment(struct ktest *t)
{
	struct queue_limits lim = limits(512, 2048, 128, 65536);
	struct bio bio;

	make_bio(&bio, REQ_OP_WRITE, 0, 2, 4096, 0);
	KEXPECT_TRUE(t, bio_aligned_for(&bio, &lim));
	make_bio(&bio, REQ_OP_WRITE, 0, 2, 2048, 1);
	KEXPECT_FALSE(t, bio_aligned_for(&bio, &lim));
	lim.dma_alignment = 0;
	KEXPECT_TRUE(t, bio_aligned_for(&bio, &lim));
}

static void test_limits_validation(struct ktest *t)
{
	struct queue_limits lim = { 0 };

	KEXPECT_EQ(t, blk_validate_limits(&lim), 0);
	KEXPECT_EQ(t, lim.logical_block_size, 512);
	KEXPECT_EQ(t, lim.dma_alignment, 511);
	ktest_expect_reports(t, true); /* the refusals say why */
	lim = (struct queue_limits){ .logical_block_size = 1000 };
	KEXPECT_EQ(t, blk_validate_limits(&lim), -EINVAL);
	lim = (struct queue_limits){ .logical_block_size = 4096, .max_segment_size = 512 };
	KEXPECT_EQ(t, blk_validate_limits(&lim), -EINVAL);
	lim = (struct queue_limits){ .logical_block_size = 4096, .max_hw_sectors = 100 };
	KEXPECT_EQ(t, blk_validate_limits(&lim), 0);
	KEXPECT_EQ(t, lim.max_sectors, 96); /* whole 4 KiB blocks */
}

static void test_back_merge(struct ktest *t)
{
	struct queue_limits lim = limits(512, 64, 4, 65536);
	struct gendisk disk = { 0 };
	struct block_device bdev = { .bd_disk = &disk };
	struct request rq = { 0 };
	struct bio a, b;

	make_bio(&a, REQ_OP_WRITE, 100, 2, 4096, 0);
	a.bi_bdev = &bdev;
	rq.cmd_flags = a.bi_opf;
	rq.bio = rq.biotail = &a;
	rq.__sector = 100;
	rq.__data_len = a.bi_iter.bi_size;
	rq.nr_phys_segments = 2;
	make_bio(&b, REQ_OP_WRITE, 116, 1, 4096, 0);
	b.bi_bdev = &bdev;
	KEXPECT_TRUE(t, blk_rq_merge_ok(&rq, &b));
	KEXPECT_TRUE(t, blk_rq_back_merge_fits(&rq, &b, 1, &lim));
	b.bi_iter.bi_sector = 117; /* a hole */
	KEXPECT_FALSE(t, blk_rq_back_merge_fits(&rq, &b, 1, &lim));
	b.bi_iter.bi_sector = 116;
	KEXPECT_FALSE(t, blk_rq_back_merge_fits(&rq, &b, 3, &lim)); /* 5 segments */
	b.bi_opf = REQ_OP_READ;
	KEXPECT_FALSE(t, blk_rq_merge_ok(&rq, &b));
	b.bi_opf = REQ_OP_WRITE | REQ_FUA;
	KEXPECT_FALSE(t, blk_rq_merge_ok(&rq, &b));
	b.bi_opf = REQ_OP_WRITE | REQ_SYNC;
	blk_rq_back_merge(&rq, &b, 1);
	KEXPECT_EQ(t, blk_rq_sectors(&rq), 24);
	KEXPECT_EQ(t, rq.nr_phys_segments, 3);
	KEXPECT_TRUE(t, rq.biotail == &b && a.bi_next == &b);
	KEXPECT_TRUE(t, rq.cmd_flags & REQ_SYNC);
	/* 64 sectors at most: 24 + 48 does not fit. */
	make_bio(&b, REQ_OP_WRITE, 124, 1, 4096, 0);
	b.bi_iter.bi_size = 48 * 512;
	KEXPECT_FALSE(t, blk_rq_back_merge_fits(&rq, &b, 1, &lim));
}

static void test_tags(struct ktest *t)
{
	struct blk_mq_tags tags;
	bool seen[5] = { false };
	int tag;

	KASSERT_EQ(t, blk_mq_init_tags(&tags, 5), 0);
	for (int i = 0; i < 5; i++) {
		tag = blk_mq_get_tag_nowait(&tags);
		KASSERT_TRUE(t, tag >= 0 && tag < 5);
		KEXPECT_FALSE(t, seen[tag]);
		seen[tag] = true;
	}
	KEXPECT_EQ(t, blk_mq_get_tag_nowait(&tags), -1);
	KEXPECT_EQ(t, atomic_read(&tags.active), 5);
	blk_mq_put_tag(&tags, 3);
	KEXPECT_EQ(t, blk_mq_get_tag_nowait(&tags), 3);
	blk_mq_put_tag(&tags, 0);
	blk_mq_put_tag(&tags, 4);
	/* The hint rotates: the next search starts after the last tag handed out. */
	KEXPECT_EQ(t, blk_mq_get_tag_nowait(&tags), 4);
	KEXPECT_EQ(t, blk_mq_get_tag_nowait(&tags), 0);
	KEXPECT_EQ(t, blk_mq_init_tags(&(struct blk_mq_tags){ 0 }, 0), -EINVAL);
	blk_mq_free_tags(&tags);
}

static struct ktest_case blk_pure_cases[] = {
	KTEST_CASE(test_split_fits),
	KTEST_CASE(test_split_by_max_sectors),
	KTEST_CASE(test_split_by_segments),
	KTEST_CASE(test_split_on_block_boundary),
	KTEST_CASE(test_split_discard_and_flush),
	KTEST_CASE(test_alignment),
	KTEST_CASE(test_limits_validation),
	KTEST_CASE(test_back_merge),
	KTEST_CASE(test_tags),
	{}
};
KTEST_SUITE(blk_merge, blk_pure_cases);
