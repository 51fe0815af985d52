/* SPDX-License-Identifier: MIT */
/*
 * Block devices: gendisk, block_device, request_queue and its limits, the
 * registry, plugging (block/). The path of one bio is told in docs/block.md.
 *
 * A disk (struct gendisk) is what a driver registers: a name ("vda"), a
 * capacity in 512-byte sectors, a request_queue with the device's limits,
 * and blk-mq hardware queues (pagoda/blk-mq.h). Users open block devices
 * (struct block_device): the whole disk ("vda", disk->part0) or one of the
 * partitions found on it ("vda2", "mmcblk0p1", "nullb0p1"). As in Linux, a
 * partition is a block_device of its parent disk, with a start and a size;
 * bios aimed at it are shifted by the block core and go to the parent's
 * queue. Every block_device is in one registry, found by name.
 *
 * HOW TO WRITE A BLOCK DRIVER
 *
 *   1. A tag set says how many hardware queues the device has and how many
 *      requests each may have in flight (the tags), and how much private
 *      space each request carries for the driver (cmd_size):
 *
 *	static const struct blk_mq_ops mydev_mq_ops = {
 *		.queue_rq = mydev_queue_rq,     // required
 *		.complete = mydev_complete,     // required if you use
 *	};                                      // blk_mq_complete_request()
 *	set->ops = &mydev_mq_ops;
 *	set->nr_hw_queues = 1;                  // or one per CPU, per ring...
 *	set->queue_depth = 128;                 // tags per hardware queue
 *	set->cmd_size = sizeof(struct mydev_cmd);
 *	set->driver_data = mydev;
 *	err = blk_mq_alloc_tag_set(set);
 *
 *   2. A disk on it, with the device's limits (zero fields get defaults:
 *      512-byte blocks, 255 segments of up to 64 KiB, 1 MiB per request):
 *
 *	struct queue_limits lim = {
 *		.logical_block_size = 512,
 *		.max_hw_sectors = 256,          // 128 KiB per request at most
 *		.max_segments = ring_size - 2,  // data descriptors per request
 *		.max_segment_size = 65536,
 *		.dma_alignment = 511,           // buffers start on 512 bytes
 *		.features = BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA, // if it has them
 *	};
 *	disk = blk_mq_alloc_disk(set, &lim, mydev);   // ERR_PTR on failure
 *	snprintf(disk->disk_name, DISK_NAME_LEN, "vd%c", 'a' + index);
 *	set_capacity(disk, nr_sectors);
 *	err = add_disk(disk);                   // registers it, reads partitions
 *
 *   3. queue_rq() gets one request at a time (never concurrently for the
 *      same hardware queue; hctx->driver_data is free for the driver). It
 *      must not sleep. Call blk_mq_start_request(rq), then give the device
 *      rq's op (req_op(rq)), start sector (blk_rq_pos(rq)), length
 *      (blk_rq_bytes(rq)) and data pieces:
 *
 *	struct req_iterator iter;
 *	struct bio_vec bv;
 *	rq_for_each_segment(bv, rq, iter)
 *		... page_to_phys(bv.bv_page) + bv.bv_offset, bv.bv_len ...
 *
 *      Return BLK_STS_OK once the device owns it; BLK_STS_DEV_RESOURCE
 *      when the ring is full (the core keeps rq and calls again after one
 *      of this queue's requests completes); BLK_STS_RESOURCE when out of memory (tried again a few
 *      ms later); any other status fails rq at once. bd->last is false
 *      when more requests follow at once: a driver may hold its doorbell
 *      until last (or until ops->commit_rqs).
 *
 *   4. When the device says rq is done (interrupt handler, any CPU): record
 *      the outcome in the driver's pdu (blk_mq_rq_to_pdu(rq)) and call
 *      blk_mq_complete_request(rq). The core runs ops->complete(rq) in a
 *      per-CPU completion context (like Linux's block softirq), where the
 *      driver calls blk_mq_end_request(rq, status). A driver that finishes
 *      inside queue_rq (a RAM disk) may call blk_mq_end_request() there.
 *      Map tags back with blk_mq_tag_to_rq(hctx->tags, tag).
 *
 *   5. Removal: del_gendisk(disk) fails with -EBUSY while anyone has the
 *      disk or a partition open; then put_disk(disk), then
 *      blk_mq_free_tag_set(set).
 *
 *   Flushes: with BLK_FEAT_WRITE_CACHE the driver gets REQ_OP_FLUSH
 *   requests (no data) and must make earlier completed writes durable;
 *   REQ_FUA reaches it on writes only with BLK_FEAT_FUA (otherwise the core
 *   follows the write with a flush). Without a write cache the core drops
 *   flushes. REQ_OP_DISCARD and REQ_OP_WRITE_ZEROES come only when
 *   max_discard_sectors / max_write_zeroes_sectors are set.
 *
 * Users:
 *	bdev = blkdev_get_by_name("vda2");      // opens it, or ERR_PTR
 *	bio = bio_alloc(bdev, ...); ... submit_bio_wait(bio);   (pagoda/bio.h)
 *	err = blkdev_rw(bdev, REQ_OP_READ, sector, buf, len);   // the short way
 *	blkdev_put(bdev);
 */
#ifndef PAGODA_BLKDEV_H
#define PAGODA_BLKDEV_H

#include <pagoda/bio.h>
#include <pagoda/list.h>
#include <pagoda/spinlock.h>
#include <pagoda/types.h>
#include <pagoda/wait.h>

struct blk_mq_tag_set;
struct blk_mq_hw_ctx;
struct blk_mq_ctx;
struct request;
struct gendisk;

/*
 * Device numbers, as Linux's kernel keeps them: 12 bits of major, 20 of
 * minor. A disk has minors [first_minor, first_minor + minors): the whole
 * disk, then its partitions; partitions past them get numbers of the
 * extended major (259, Linux's blkext), as Linux does.
 */
typedef u32 dev_t;
#define MINORBITS 20
#define MKDEV(ma, mi) ((dev_t)(((ma) << MINORBITS) | (mi)))
#define MAJOR(dev) ((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev) ((unsigned int)((dev) & ((1U << MINORBITS) - 1)))
#define BLOCK_EXT_MAJOR 259
#define RAMDISK_MAJOR 1
#define MMC_BLOCK_MAJOR 179

/*
 * A major for name: the one asked for, or with 0 the first free one from
 * 254 down (Linux's dynamic majors, so drivers registered in the same
 * order get the same numbers). The major, or -EBUSY.
 */
int register_blkdev(unsigned int major, const char *name);
/* Every registered block major, in order (/proc/devices). */
void blkdev_for_each_major(void (*fn)(unsigned int major, const char *name, void *arg),
			   void *arg);

#define DISK_NAME_LEN 32
#define BDEVNAME_SIZE 32
#define DISK_MAX_PARTS 129 /* numbers 1..128, as many as a GPT holds */

/* queue_limits.features */
#define BLK_FEAT_WRITE_CACHE (1U << 0) /* volatile cache: flushes mean something */
#define BLK_FEAT_FUA (1U << 1)         /* the device honours REQ_FUA itself */
#define BLK_FEAT_ROTATIONAL (1U << 2)

struct queue_limits {
	unsigned int features;
	unsigned int logical_block_size;   /* smallest addressable unit, bytes */
	unsigned int physical_block_size;  /* what the device writes atomically */
	unsigned int max_hw_sectors;       /* per request, in 512-byte sectors */
	unsigned int max_sectors;          /* what the core builds (<= hw) */
	unsigned int max_segments;         /* data pieces per request */
	unsigned int max_segment_size;     /* bytes per piece */
	unsigned int dma_alignment;        /* mask: buffer address and length */
	unsigned int max_discard_sectors;  /* 0: no discard */
	unsigned int max_write_zeroes_sectors; /* 0: no write-zeroes */
};

/* Fill zero fields with defaults and check the rest; 0 or -EINVAL. */
int blk_validate_limits(struct queue_limits *lim);

struct request_queue {
	struct queue_limits limits;
	const struct blk_mq_ops *mq_ops;
	struct blk_mq_tag_set *tag_set;
	void *queuedata;
	struct gendisk *disk;
	unsigned int nr_hw_queues;
	struct blk_mq_hw_ctx **queue_hw_ctx;
	struct blk_mq_ctx *queue_ctx;      /* one per possible CPU */
	struct list_head tag_set_list;
	/*
	 * Requests of this queue taken and not yet freed (Linux's
	 * q_usage_counter, a plain count here). Dropped as the very last
	 * step of freeing one, after the tag, its wake-up and the restart:
	 * a queue about to be freed waits for zero, and then no CPU is still
	 * inside a request's freeing touching the queue's memory.
	 */
	atomic_t q_usage_counter;
	/* statistics, for lsblk and the benchmarks */
	atomic64_t nr_bios, nr_splits, nr_merges, nr_requests;
};

struct block_device {
	char bd_name[BDEVNAME_SIZE];
	dev_t bd_dev;             /* major:minor, as lsblk and dm tables show it */
	struct gendisk *bd_disk;
	sector_t bd_start_sect;   /* 0 for the whole disk */
	sector_t bd_nr_sectors;
	u8 bd_partno;             /* 0 for the whole disk */
	atomic_t bd_openers;
	struct list_head bd_list; /* the registry (genhd.c) */
};

struct block_device_operations {
	/*
	 * Bio-based drivers (brd) take bios here instead of having blk-mq
	 * requests: each bio already fits the limits. Must end it (bio_endio).
	 */
	void (*submit_bio)(struct bio *bio);
	/* Optional: called on first open / last close of the disk. */
	int (*open)(struct gendisk *disk);
	void (*release)(struct gendisk *disk);
};

struct gendisk {
	char disk_name[DISK_NAME_LEN];
	/* the driver's device numbers: major, and its minors (whole disk first) */
	unsigned int major, first_minor, minors;
	const struct block_device_operations *fops;
	struct request_queue *queue;
	void *private_data;
	struct block_device *part0;        /* the whole disk */
	struct block_device *parts[DISK_MAX_PARTS]; /* [1..] partitions */
	unsigned int nr_parts;             /* highest partition number found */
	atomic_t open_count;               /* opens of the disk and its partitions */
	bool registered;
	/*
	 * Another name the whole disk answers to, as a udev link gives one on
	 * Linux: a mapped device's dm name, found as NAME and as
	 * /dev/mapper/NAME. Kernel names come first when both match.
	 */
	char alias[128];	/* a mapped device's name: Linux's DM_NAME_LEN */
};

static inline sector_t get_capacity(const struct gendisk *disk)
{
	return disk->part0->bd_nr_sectors;
}
void set_capacity(struct gendisk *disk, sector_t sectors);
static inline struct request_queue *bdev_get_queue(struct block_device *bdev)
{
	return bdev->bd_disk->queue;
}
static inline unsigned int bdev_logical_block_size(struct block_device *bdev)
{
	return bdev_get_queue(bdev)->limits.logical_block_size;
}
static inline sector_t bdev_nr_sectors(struct block_device *bdev)
{
	return bdev->bd_nr_sectors;
}

/* Register a disk, scan its partitions; 0 or -EEXIST/-EINVAL/-ENOMEM. */
int add_disk(struct gendisk *disk);
/* Unregister disk and its partitions: -EBUSY while any of them is open. */
int del_gendisk(struct gendisk *disk);
/* Free an unregistered disk (and its queue). */
void put_disk(struct gendisk *disk);
/* A disk with a queue but no blk-mq (used by blk_mq_alloc_disk()). */
struct gendisk *__alloc_disk(void);
/* A bio-based disk (fops->submit_bio): ERR_PTR on failure. */
struct gendisk *blk_alloc_disk(struct queue_limits *lim, void *queuedata);

/* Open by name ("vda", "vda2"): ERR_PTR(-ENOENT) if there is none. */
struct block_device *blkdev_get_by_name(const char *name);
void blkdev_put(struct block_device *bdev);
/* Look up without opening (lsblk); the result may go away: registry users only. */
struct block_device *bdev_lookup(const char *name);
/* Call fn on each registered block_device, in registration order. */
void bdev_for_each(void (*fn)(struct block_device *bdev, void *arg), void *arg);
/* Re-read the partition table (the disk must not be open): 0 or -EBUSY. */
int bdev_disk_changed(struct gendisk *disk);

/*
 * Synchronous I/O from a kernel buffer (any alignment, any size that is a
 * multiple of the logical block size): 0 or a negative errno.
 */
int blkdev_rw(struct block_device *bdev, blk_opf_t opf, sector_t sector,
	      void *buf, size_t len);
/* Flush the device's write cache. */
int blkdev_issue_flush(struct block_device *bdev);

/*
 * Plugging: between blk_start_plug() and blk_finish_plug() a thread's
 * requests collect on its plug, where neighbours merge, and go to the
 * hardware queues in one batch at the end (or when the thread sleeps for
 * a tag, or the plug holds BLK_MAX_REQUEST_COUNT requests).
 */
#define BLK_MAX_REQUEST_COUNT 32
struct blk_plug {
	struct list_head mq_list;
	unsigned int rq_count;
};
void blk_start_plug(struct blk_plug *plug);
void blk_finish_plug(struct blk_plug *plug);
void blk_flush_plug(struct blk_plug *plug);

/* Boot: the block core, then the block drivers (kernel/init.c). */
void blk_dev_init(void);
void null_init(void);   /* drivers/block/null_blk/ */
void brd_init(void);    /* drivers/block/brd.c */

#endif
