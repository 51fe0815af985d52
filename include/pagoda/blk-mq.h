/* SPDX-License-Identifier: MIT */
/*
 * blk-mq: multi-queue requests (block/blk-mq.c). How a driver uses it is
 * the "how to write a block driver" comment in pagoda/blkdev.h.
 *
 * Each CPU has a software queue (blk_mq_ctx) per request_queue; each
 * hardware queue (blk_mq_hw_ctx) serves a fixed set of CPUs (CPU c goes to
 * hardware queue c % nr_hw_queues) and owns `queue_depth` tags. A request
 * is born holding a tag, so at most queue_depth are in flight per hardware
 * queue; a submitter finding none free sleeps until one is freed.
 */
#ifndef PAGODA_BLK_MQ_H
#define PAGODA_BLK_MQ_H

#include <pagoda/blkdev.h>
#include <pagoda/timer.h>
#include <pagoda/wait.h>
#include <pagoda/workqueue.h>

enum mq_rq_state {
	MQ_RQ_IDLE = 0,     /* free, or built and not yet given to the driver */
	MQ_RQ_IN_FLIGHT = 1,
	MQ_RQ_COMPLETE = 2,
};

struct request {
	struct request_queue *q;
	struct blk_mq_ctx *mq_ctx;
	struct blk_mq_hw_ctx *mq_hctx;
	blk_opf_t cmd_flags;
	int tag;
	enum mq_rq_state state;
	unsigned short nr_phys_segments;
	sector_t __sector;
	unsigned int __data_len;
	struct bio *bio, *biotail;
	struct list_head queuelist;  /* plug, software queue, dispatch list */
	struct request *done_next;   /* per-CPU completion list */
	u64 start_time_ns;           /* allocated */
	u64 io_start_time_ns;        /* given to the driver */
	/* the driver's pdu (cmd_size bytes) follows */
};

static inline enum req_op req_op(const struct request *rq)
{
	return bio_op_of(rq->cmd_flags);
}
static inline sector_t blk_rq_pos(const struct request *rq)
{
	return rq->__sector;
}
static inline unsigned int blk_rq_bytes(const struct request *rq)
{
	return rq->__data_len;
}
static inline unsigned int blk_rq_sectors(const struct request *rq)
{
	return rq->__data_len >> SECTOR_SHIFT;
}
static inline unsigned short blk_rq_nr_phys_segments(const struct request *rq)
{
	return rq->nr_phys_segments;
}
static inline bool rq_data_dir_write(const struct request *rq)
{
	return op_is_write(rq->cmd_flags);
}
static inline void *blk_mq_rq_to_pdu(struct request *rq)
{
	return rq + 1;
}
static inline struct request *blk_mq_rq_from_pdu(void *pdu)
{
	return (struct request *)pdu - 1;
}

struct req_iterator {
	struct bvec_iter iter;
	struct bio *bio;
};
/* Each data piece of a request (a page at most), across its bios. */
#define rq_for_each_segment(bvl, _rq, _iter)                     \
	for ((_iter).bio = (_rq)->bio; (_iter).bio; (_iter).bio = (_iter).bio->bi_next) \
		bio_for_each_segment(bvl, (_iter).bio, (_iter).iter)

/* The tags of one hardware queue (block/blk-mq-tag.c). */
struct blk_mq_tags {
	unsigned int nr_tags;
	unsigned long *bitmap;         /* bit set: tag in use */
	unsigned int alloc_hint;
	atomic_t active;               /* tags in use */
	struct request **static_rqs;   /* a request per tag, made up front */
	struct wait_queue_head wait;   /* submitters waiting for a tag */
};
int blk_mq_init_tags(struct blk_mq_tags *tags, unsigned int nr_tags);
void blk_mq_free_tags(struct blk_mq_tags *tags);
/* A free tag, or -1 when all are in use. */
int blk_mq_get_tag_nowait(struct blk_mq_tags *tags);
void blk_mq_put_tag(struct blk_mq_tags *tags, unsigned int tag);
static inline struct request *blk_mq_tag_to_rq(struct blk_mq_tags *tags, unsigned int tag)
{
	return tag < tags->nr_tags ? tags->static_rqs[tag] : NULL;
}

/* hctx->state bits */
enum {
	BLK_MQ_S_STOPPED,   /* blk_mq_stop_hw_queue(): dispatch nothing */
	BLK_MQ_S_RUNNING,   /* a CPU is dispatching */
	BLK_MQ_S_RESTART,   /* the driver was busy: run again on a completion */
};

struct blk_mq_hw_ctx {
	struct request_queue *queue;
	unsigned int queue_num;
	struct blk_mq_tags *tags;
	void *driver_data;
	unsigned long state;
	spinlock_t lock;
	struct list_head dispatch;   /* taken from software queues, not yet accepted */
	u64 cpumask;                 /* CPUs whose software queues feed it */
	struct work_struct run_work; /* an asynchronous run */
	struct timer_list delay_timer;
	/* statistics */
	atomic_t nr_in_flight;       /* started and not yet ended */
	u64 queued, dispatched, busy;
	unsigned int max_in_flight;
};

struct blk_mq_ctx {
	spinlock_t lock;
	struct list_head rq_list;
	unsigned int cpu;
	struct blk_mq_hw_ctx *hctx;
	struct request_queue *queue;
};

struct blk_mq_queue_data {
	struct request *rq;
	bool last;  /* no more requests follow in this batch */
};

struct blk_mq_ops {
	blk_status_t (*queue_rq)(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd);
	/* A batch ended with last == false: ring the doorbell now. */
	void (*commit_rqs)(struct blk_mq_hw_ctx *hctx);
	/* From blk_mq_complete_request(), in completion context. */
	void (*complete)(struct request *rq);
	/* Once per hardware queue when the disk is made, and once per request. */
	int (*init_hctx)(struct blk_mq_hw_ctx *hctx, void *driver_data, unsigned int idx);
	int (*init_request)(struct blk_mq_tag_set *set, struct request *rq,
			    unsigned int hctx_idx);
};

#define BLK_MQ_MAX_DEPTH 4096

struct blk_mq_tag_set {
	const struct blk_mq_ops *ops;
	unsigned int nr_hw_queues;
	unsigned int queue_depth;
	unsigned int cmd_size;
	int numa_node;
	unsigned int flags;
	void *driver_data;
	struct blk_mq_tags *tags;        /* [nr_hw_queues] */
	struct list_head tag_list;       /* request_queues using it */
};

int blk_mq_alloc_tag_set(struct blk_mq_tag_set *set);
void blk_mq_free_tag_set(struct blk_mq_tag_set *set);
/* A gendisk whose queue uses set; lim may be NULL for defaults. */
struct gendisk *blk_mq_alloc_disk(struct blk_mq_tag_set *set,
				  struct queue_limits *lim, void *queuedata);

void blk_mq_start_request(struct request *rq);
/*
 * Complete nr_bytes of rq with status: finishes the bios they cover. true
 * if some of rq is still left (the driver goes on with the rest).
 */
bool blk_update_request(struct request *rq, blk_status_t status, unsigned int nr_bytes);
/* Finish all of rq and free it (its tag goes back). */
void blk_mq_end_request(struct request *rq, blk_status_t status);
/* From the interrupt: have ops->complete(rq) run in completion context. */
void blk_mq_complete_request(struct request *rq);

void blk_mq_run_hw_queue(struct blk_mq_hw_ctx *hctx, bool async);
void blk_mq_run_hw_queues(struct request_queue *q, bool async);
void blk_mq_stop_hw_queue(struct blk_mq_hw_ctx *hctx);
void blk_mq_start_stopped_hw_queues(struct request_queue *q, bool async);
/* Wait until no request of q is in flight. */
void blk_mq_quiesce_wait(struct request_queue *q);

#endif
