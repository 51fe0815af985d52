/* SPDX-License-Identifier: MIT */
/* The block core's internal interfaces (block/). */
#ifndef BLOCK_BLK_H
#define BLOCK_BLK_H

#include <pagoda/blk-mq.h>

/* blk-merge.c: pure, tested on the host */
int bio_split_sectors(const struct bio *bio, const struct queue_limits *lim,
		      unsigned int *nr_segs);
unsigned int bio_count_segments(const struct bio *bio, const struct queue_limits *lim);
bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio);
bool blk_rq_back_merge_fits(const struct request *rq, const struct bio *bio,
			    unsigned int nr_segs, const struct queue_limits *lim);
void blk_rq_back_merge(struct request *rq, struct bio *bio, unsigned int nr_segs);
struct bio *__bio_split_to_limits(struct bio *bio, const struct queue_limits *lim,
				  unsigned int *nr_segs);
bool bio_aligned_for(const struct bio *bio, const struct queue_limits *lim);

/* blk-mq.c */
void blk_mq_submit_bio_segs(struct bio *bio, unsigned int nr_segs);
int blk_mq_init_queue_on(struct request_queue *q, struct blk_mq_tag_set *set);
void blk_mq_release_queue(struct request_queue *q);
void blk_mq_flush_plug_list(struct blk_plug *plug);
void blk_mq_init(void);

/* blk-flush.c */
bool blk_flush_handle(struct bio *bio);

/* genhd.c */
extern struct mutex bdev_lock;
struct block_device *bdev_alloc(struct gendisk *disk, u8 partno);
void disk_name_part(const char *disk, unsigned int partno, char *buf, size_t size);

/* partitions/core.c */
int blk_add_partitions(struct gendisk *disk);
void blk_drop_partitions(struct gendisk *disk);

/* bounce.c */
struct bio *blk_bounce_bio(struct bio *bio);

#endif
