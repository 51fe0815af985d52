// SPDX-License-Identifier: MIT
/*
 * blk-mq: from bios to requests to the driver and back (Linux:
 * block/blk-mq.c). The story, in order:
 *
 * 1. blk_mq_submit_bio() gets a bio that already fits the device (blk-core.c
 *    split it). If it continues the last request on the submitter's plug,
 *    or one still waiting in this CPU's software queue, it is appended
 *    there (a back merge) and that is all.
 * 2. Otherwise it needs a request, and a request needs a tag of the
 *    hardware queue that serves this CPU. None free: the submitter sends
 *    its own plugged requests on (they hold tags too) and sleeps until a
 *    completion frees one. So a full queue waits; it never fails.
 * 3. The request goes on the plug (sent in a batch by blk_finish_plug()) or
 *    straight into this CPU's software queue (blk_mq_ctx), and the hardware
 *    queue is run.
 * 4. Running a hardware queue (one CPU at a time per queue, the RUNNING
 *    bit) moves everything from its software queues to a dispatch list and
 *    offers it to ->queue_rq() in order. A driver out of room says
 *    BLK_STS_DEV_RESOURCE: the rest waits on hctx->dispatch and the queue
 *    is run again when one of its requests completes (RESTART).
 * 5. The device's interrupt calls blk_mq_complete_request(): the request
 *    goes on this CPU's completion list and BLOCK_SOFTIRQ runs ->complete()
 *    as the interrupt returns; the driver calls blk_mq_end_request(), which
 *    ends the bios (their bi_end_io), frees the tag and wakes a waiter.
 */
#include <pagoda/interrupt.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/task.h>

#include "blk.h"

#define BLK_MQ_RESOURCE_DELAY_NS (3 * NSEC_PER_MSEC)

static struct workqueue_struct *kblockd_workqueue;

/* Per-CPU lists of requests whose ->complete() is due (BLOCK_SOFTIRQ). */
static struct {
	struct request *head, *tail;
} blk_cpu_done[NR_CPUS];

/* --- tag sets ----------------------------------------------------------- */

static void free_set_requests(struct blk_mq_tag_set *set, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		struct blk_mq_tags *tags = &set->tags[i];

		for (unsigned int t = 0; tags->static_rqs && t < tags->nr_tags; t++)
			kfree(tags->static_rqs[t]);
		blk_mq_free_tags(tags);
	}
}

int blk_mq_alloc_tag_set(struct blk_mq_tag_set *set)
{
	unsigned int i;
	int err;

	if (!set->ops || !set->ops->queue_rq)
		return -EINVAL;
	if (!set->nr_hw_queues || !set->queue_depth || set->queue_depth > BLK_MQ_MAX_DEPTH)
		return -EINVAL;
	if (set->nr_hw_queues > NR_CPUS)
		set->nr_hw_queues = NR_CPUS;
	INIT_LIST_HEAD(&set->tag_list);
	set->tags = kcalloc(set->nr_hw_queues, sizeof(*set->tags), GFP_KERNEL);
	if (!set->tags)
		return -ENOMEM;
	for (i = 0; i < set->nr_hw_queues; i++) {
		struct blk_mq_tags *tags = &set->tags[i];

		err = blk_mq_init_tags(tags, set->queue_depth);
		if (err)
			goto fail;
		for (unsigned int t = 0; t < tags->nr_tags; t++) {
			struct request *rq = kzalloc(sizeof(*rq) + set->cmd_size, GFP_KERNEL);

			if (!rq) {
				err = -ENOMEM;
				goto fail_one;
			}
			rq->tag = (int)t;
			INIT_LIST_HEAD(&rq->queuelist);
			tags->static_rqs[t] = rq;
			if (set->ops->init_request) {
				err = set->ops->init_request(set, rq, i);
				if (err)
					goto fail_one;
			}
		}
	}
	return 0;
fail_one:
	i++;
fail:
	free_set_requests(set, i);
	kfree(set->tags);
	set->tags = NULL;
	return err;
}

void blk_mq_free_tag_set(struct blk_mq_tag_set *set)
{
	if (!set->tags)
		return;
	free_set_requests(set, set->nr_hw_queues);
	kfree(set->tags);
	set->tags = NULL;
}

/* --- queues -------------------------------------------------------------- */

static void blk_mq_run_work_fn(struct work_struct *w)
{
	struct blk_mq_hw_ctx *hctx = container_of(w, struct blk_mq_hw_ctx, run_work);

	blk_mq_run_hw_queue(hctx, false);
}

static void blk_mq_delay_fn(struct timer_list *t)
{
	struct blk_mq_hw_ctx *hctx = container_of(t, struct blk_mq_hw_ctx, delay_timer);

	clear_bit(BLK_MQ_S_RESTART, &hctx->state);
	queue_work(kblockd_workqueue, &hctx->run_work);
}

int blk_mq_init_queue_on(struct request_queue *q, struct blk_mq_tag_set *set)
{
	unsigned int nr = set->nr_hw_queues;

	q->tag_set = set;
	q->mq_ops = set->ops;
	atomic_set(&q->q_usage_counter, 0);
	q->nr_hw_queues = nr;
	q->queue_hw_ctx = kcalloc(nr, sizeof(*q->queue_hw_ctx), GFP_KERNEL);
	q->queue_ctx = kcalloc(NR_CPUS, sizeof(*q->queue_ctx), GFP_KERNEL);
	if (!q->queue_hw_ctx || !q->queue_ctx)
		goto fail;
	for (unsigned int i = 0; i < nr; i++) {
		struct blk_mq_hw_ctx *hctx = kzalloc(sizeof(*hctx), GFP_KERNEL);

		if (!hctx)
			goto fail;
		q->queue_hw_ctx[i] = hctx;
		hctx->queue = q;
		hctx->queue_num = i;
		hctx->tags = &set->tags[i];
		spin_lock_init(&hctx->lock);
		INIT_LIST_HEAD(&hctx->dispatch);
		INIT_WORK(&hctx->run_work, blk_mq_run_work_fn);
		timer_setup(&hctx->delay_timer, blk_mq_delay_fn);
		atomic_set(&hctx->nr_in_flight, 0);
		if (set->ops->init_hctx && set->ops->init_hctx(hctx, set->driver_data, i))
			goto fail;
	}
	/* CPU c feeds hardware queue c % nr: every queue gets CPUs, evenly. */
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct blk_mq_ctx *ctx = &q->queue_ctx[cpu];

		spin_lock_init(&ctx->lock);
		INIT_LIST_HEAD(&ctx->rq_list);
		ctx->cpu = cpu;
		ctx->queue = q;
		ctx->hctx = q->queue_hw_ctx[cpu % nr];
		ctx->hctx->cpumask |= 1ULL << cpu;
	}
	list_add_tail(&q->tag_set_list, &set->tag_list);
	return 0;
fail:
	blk_mq_release_queue(q);
	return -ENOMEM;
}

void blk_mq_release_queue(struct request_queue *q)
{
	if (q->queue_hw_ctx) {
		for (unsigned int i = 0; i < q->nr_hw_queues; i++) {
			struct blk_mq_hw_ctx *hctx = q->queue_hw_ctx[i];

			if (!hctx)
				continue;
			del_timer_sync(&hctx->delay_timer);
			flush_work(&hctx->run_work);
			kfree(hctx);
		}
	}
	if (q->tag_set && q->tag_set_list.next)
		list_del(&q->tag_set_list);
	kfree(q->queue_hw_ctx);
	kfree(q->queue_ctx);
	q->queue_hw_ctx = NULL;
	q->queue_ctx = NULL;
}

/* --- dispatch ------------------------------------------------------------ */

static bool hctx_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;

	if (!list_empty(&hctx->dispatch))
		return true;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if ((hctx->cpumask & (1ULL << cpu)) && !list_empty(&q->queue_ctx[cpu].rq_list))
			return true;
	return false;
}

/* Take everything waiting for hctx: first the leftovers, then each CPU's. */
static void hctx_collect(struct blk_mq_hw_ctx *hctx, struct list_head *list)
{
	struct request_queue *q = hctx->queue;
	unsigned long flags;

	spin_lock_irqsave(&hctx->lock, flags);
	list_splice_tail_init(&hctx->dispatch, list);
	spin_unlock_irqrestore(&hctx->lock, flags);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct blk_mq_ctx *ctx = &q->queue_ctx[cpu];

		if (!(hctx->cpumask & (1ULL << cpu)) || list_empty(&ctx->rq_list))
			continue;
		spin_lock_irqsave(&ctx->lock, flags);
		list_splice_tail_init(&ctx->rq_list, list);
		spin_unlock_irqrestore(&ctx->lock, flags);
	}
}

/* The driver is out of room: keep the rest and arrange to come back. */
static void hctx_requeue(struct blk_mq_hw_ctx *hctx, struct list_head *list,
			 blk_status_t ret)
{
	unsigned long flags;

	spin_lock_irqsave(&hctx->lock, flags);
	list_splice_init(list, &hctx->dispatch);
	spin_unlock_irqrestore(&hctx->lock, flags);
	hctx->busy++;
	set_bit(BLK_MQ_S_RESTART, &hctx->state);
	/*
	 * A completion between the driver's "busy" and RESTART being set
	 * would not have rerun us: with nothing in flight, nothing will, so
	 * come back on a timer instead (always, for a memory shortage).
	 */
	smp_mb();
	if (ret == BLK_STS_RESOURCE || atomic_read(&hctx->nr_in_flight) == 0)
		mod_timer(&hctx->delay_timer, ktime_get_ns() + BLK_MQ_RESOURCE_DELAY_NS);
}

static void blk_mq_dispatch(struct blk_mq_hw_ctx *hctx)
{
	const struct blk_mq_ops *ops = hctx->queue->mq_ops;
	LIST_HEAD(list);
	bool need_commit = false;

	hctx_collect(hctx, &list);
	while (!list_empty(&list)) {
		struct request *rq = list_first_entry(&list, struct request, queuelist);
		struct blk_mq_queue_data bd;
		blk_status_t ret;

		list_del_init(&rq->queuelist);
		bd.rq = rq;
		bd.last = list_empty(&list);
		ret = ops->queue_rq(hctx, &bd);
		if (ret == BLK_STS_OK) {
			hctx->dispatched++;
			need_commit = !bd.last;
			continue;
		}
		if (ret == BLK_STS_RESOURCE || ret == BLK_STS_DEV_RESOURCE) {
			/* Not taken after all: it is not in flight. */
			if (rq->state == MQ_RQ_IN_FLIGHT) {
				rq->state = MQ_RQ_IDLE;
				atomic_dec(&hctx->nr_in_flight);
			}
			list_add(&rq->queuelist, &list);
			if (need_commit && ops->commit_rqs)
				ops->commit_rqs(hctx);
			hctx_requeue(hctx, &list, ret);
			return;
		}
		blk_mq_end_request(rq, ret);
		need_commit = false;
	}
	if (need_commit && ops->commit_rqs)
		ops->commit_rqs(hctx);
}

void blk_mq_run_hw_queue(struct blk_mq_hw_ctx *hctx, bool async)
{
	if (async || in_interrupt() || !scheduler_running) {
		queue_work(kblockd_workqueue, &hctx->run_work);
		return;
	}
	for (;;) {
		if (test_bit(BLK_MQ_S_STOPPED, &hctx->state))
			return;
		/* Our caller's insert must be visible to a runner that holds the bit. */
		smp_mb();
		if (test_and_set_bit_lock(BLK_MQ_S_RUNNING, &hctx->state))
			return; /* that runner looks again after it lets go */
		blk_mq_dispatch(hctx);
		clear_bit_unlock(BLK_MQ_S_RUNNING, &hctx->state);
		smp_mb();
		if (test_bit(BLK_MQ_S_RESTART, &hctx->state) || !hctx_has_work(hctx))
			return;
	}
}

void blk_mq_run_hw_queues(struct request_queue *q, bool async)
{
	for (unsigned int i = 0; i < q->nr_hw_queues; i++)
		blk_mq_run_hw_queue(q->queue_hw_ctx[i], async);
}

void blk_mq_stop_hw_queue(struct blk_mq_hw_ctx *hctx)
{
	set_bit(BLK_MQ_S_STOPPED, &hctx->state);
}

void blk_mq_start_stopped_hw_queues(struct request_queue *q, bool async)
{
	for (unsigned int i = 0; i < q->nr_hw_queues; i++) {
		struct blk_mq_hw_ctx *hctx = q->queue_hw_ctx[i];

		if (test_and_clear_bit(BLK_MQ_S_STOPPED, &hctx->state))
			blk_mq_run_hw_queue(hctx, async);
	}
}

void blk_mq_quiesce_wait(struct request_queue *q)
{
	for (unsigned int i = 0; i < q->nr_hw_queues; i++) {
		struct blk_mq_hw_ctx *hctx = q->queue_hw_ctx[i];

		/* not the tags in use: a tag is given back before its
		 * request's freeing is over (see blk_mq_free_request()) */
		while (atomic_read(&q->q_usage_counter) || hctx_has_work(hctx))
			msleep(1);
		flush_work(&hctx->run_work);
	}
}

/* --- requests ------------------------------------------------------------ */

static struct request *blk_mq_get_request(struct request_queue *q, struct bio *bio,
					  struct blk_plug *plug)
{
	struct blk_mq_ctx *ctx;
	struct blk_mq_hw_ctx *hctx;
	struct request *rq;
	int tag;

	for (;;) {
		ctx = &q->queue_ctx[smp_processor_id()];
		hctx = ctx->hctx;
		tag = blk_mq_get_tag_nowait(hctx->tags);
		if (tag >= 0)
			break;
		if ((bio->bi_opf & REQ_NOWAIT) || in_interrupt())
			return NULL;
		/* Our own plugged requests hold tags: send them before sleeping. */
		if (plug)
			blk_mq_flush_plug_list(plug);
		wait_event(hctx->tags->wait,
			   (unsigned int)atomic_read(&hctx->tags->active) < hctx->tags->nr_tags);
	}
	atomic_inc(&q->q_usage_counter);
	rq = hctx->tags->static_rqs[tag];
	rq->q = q;
	rq->mq_ctx = ctx;
	rq->mq_hctx = hctx;
	rq->state = MQ_RQ_IDLE;
	rq->done_next = NULL;
	rq->start_time_ns = 0;
	atomic64_inc(&q->nr_requests);
	return rq;
}

static void blk_mq_bio_to_request(struct request *rq, struct bio *bio, unsigned int nr_segs)
{
	rq->cmd_flags = bio->bi_opf;
	rq->bio = rq->biotail = bio;
	bio->bi_next = NULL;
	rq->__sector = bio->bi_iter.bi_sector;
	rq->__data_len = bio->bi_iter.bi_size;
	rq->nr_phys_segments = nr_segs;
}

static void blk_mq_insert_request(struct request *rq)
{
	struct blk_mq_ctx *ctx = rq->mq_ctx;
	unsigned long flags;

	spin_lock_irqsave(&ctx->lock, flags);
	list_add_tail(&rq->queuelist, &ctx->rq_list);
	spin_unlock_irqrestore(&ctx->lock, flags);
	rq->mq_hctx->queued++;
}

static bool plug_merge(struct blk_plug *plug, struct request_queue *q, struct bio *bio,
		       unsigned int nr_segs)
{
	struct request *rq;

	if (!plug || list_empty(&plug->mq_list))
		return false;
	rq = list_last_entry(&plug->mq_list, struct request, queuelist);
	if (rq->q != q || !blk_rq_merge_ok(rq, bio) ||
	    !blk_rq_back_merge_fits(rq, bio, nr_segs, &q->limits))
		return false;
	blk_rq_back_merge(rq, bio, nr_segs);
	return true;
}

/* A request of this CPU's software queue that bio continues. */
static bool ctx_merge(struct request_queue *q, struct bio *bio, unsigned int nr_segs)
{
	struct blk_mq_ctx *ctx = &q->queue_ctx[smp_processor_id()];
	struct request *rq;
	unsigned long flags;
	bool merged = false;

	if (list_empty(&ctx->rq_list))
		return false;
	spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(rq, &ctx->rq_list, queuelist) {
		if (blk_rq_merge_ok(rq, bio) &&
		    blk_rq_back_merge_fits(rq, bio, nr_segs, &q->limits)) {
			blk_rq_back_merge(rq, bio, nr_segs);
			merged = true;
			break;
		}
	}
	spin_unlock_irqrestore(&ctx->lock, flags);
	return merged;
}

/* bio fits the queue's limits (blk-core.c split it) and nr_segs is its count. */
void blk_mq_submit_bio_segs(struct bio *bio, unsigned int nr_segs)
{
	struct request_queue *q = bdev_get_queue(bio->bi_bdev);
	struct blk_plug *plug = current->plug;
	struct request *rq;

	if (plug_merge(plug, q, bio, nr_segs) || ctx_merge(q, bio, nr_segs)) {
		atomic64_inc(&q->nr_merges);
		return;
	}
	rq = blk_mq_get_request(q, bio, plug);
	if (!rq) {
		bio->bi_status = BLK_STS_AGAIN;
		bio_endio(bio);
		return;
	}
	blk_mq_bio_to_request(rq, bio, nr_segs);
	if (plug) {
		list_add_tail(&rq->queuelist, &plug->mq_list);
		if (++plug->rq_count >= BLK_MAX_REQUEST_COUNT)
			blk_mq_flush_plug_list(plug);
		return;
	}
	blk_mq_insert_request(rq);
	blk_mq_run_hw_queue(rq->mq_hctx, false);
}

void blk_mq_flush_plug_list(struct blk_plug *plug)
{
	struct blk_mq_hw_ctx *run[8];
	unsigned int nr_run = 0;
	bool overflow = false;
	struct request *rq, *n;
	struct request_queue *last_q = NULL;

	list_for_each_entry_safe(rq, n, &plug->mq_list, queuelist) {
		unsigned int i;

		list_del_init(&rq->queuelist);
		blk_mq_insert_request(rq);
		last_q = rq->q;
		for (i = 0; i < nr_run && run[i] != rq->mq_hctx; i++)
			;
		if (i == nr_run) {
			if (nr_run < ARRAY_SIZE(run))
				run[nr_run++] = rq->mq_hctx;
			else
				overflow = true;
		}
	}
	plug->rq_count = 0;
	for (unsigned int i = 0; i < nr_run; i++)
		blk_mq_run_hw_queue(run[i], false);
	if (overflow)
		blk_mq_run_hw_queues(last_q, false);
}

void blk_mq_start_request(struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->mq_hctx;
	unsigned int n;

	rq->state = MQ_RQ_IN_FLIGHT;
	n = (unsigned int)atomic_inc_return(&hctx->nr_in_flight);
	if (n > hctx->max_in_flight)
		hctx->max_in_flight = n;
}

bool blk_update_request(struct request *rq, blk_status_t status, unsigned int nr_bytes)
{
	/* A request without data (a flush) is done in one go. */
	if (!blk_rq_bytes(rq)) {
		while (rq->bio) {
			struct bio *bio = rq->bio;

			rq->bio = bio->bi_next;
			bio->bi_next = NULL;
			if (status)
				bio->bi_status = status;
			bio_endio(bio);
		}
		return false;
	}
	while (rq->bio && nr_bytes) {
		struct bio *bio = rq->bio;
		unsigned int bytes = MIN(bio->bi_iter.bi_size, nr_bytes);

		if (status)
			bio->bi_status = status;
		bio_advance(bio, bytes);
		nr_bytes -= bytes;
		rq->__data_len -= bytes;
		rq->__sector += bytes >> SECTOR_SHIFT;
		if (!bio->bi_iter.bi_size) {
			rq->bio = bio->bi_next;
			bio->bi_next = NULL;
			bio_endio(bio);
		}
	}
	if (!rq->bio) {
		rq->__data_len = 0;
		return false;
	}
	return true;
}

static void blk_mq_free_request(struct request *rq)
{
	struct blk_mq_hw_ctx *hctx = rq->mq_hctx;
	struct request_queue *q = rq->q;

	if (rq->state == MQ_RQ_IN_FLIGHT)
		atomic_dec(&hctx->nr_in_flight);
	rq->state = MQ_RQ_IDLE;
	rq->bio = rq->biotail = NULL;
	/* rq may be another submitter's from here on */
	blk_mq_put_tag(hctx->tags, (unsigned int)rq->tag);
	/* The driver was full: it has room now. */
	if (test_bit(BLK_MQ_S_RESTART, &hctx->state) &&
	    test_and_clear_bit(BLK_MQ_S_RESTART, &hctx->state))
		blk_mq_run_hw_queue(hctx, true);
	/* last: nothing of the queue is touched after it */
	atomic_dec(&q->q_usage_counter);
}

void blk_mq_end_request(struct request *rq, blk_status_t status)
{
	if (blk_update_request(rq, status, blk_rq_bytes(rq)))
		pr_err("blk-mq: request tag %d ended with bytes left\n", rq->tag);
	blk_mq_free_request(rq);
}

void blk_mq_complete_request(struct request *rq)
{
	unsigned long flags = arch_irq_save();
	unsigned int cpu = smp_processor_id();

	rq->done_next = NULL;
	if (blk_cpu_done[cpu].tail)
		blk_cpu_done[cpu].tail->done_next = rq;
	else
		blk_cpu_done[cpu].head = rq;
	blk_cpu_done[cpu].tail = rq;
	raise_softirq(BLOCK_SOFTIRQ);
	arch_irq_restore(flags);
}

/* BLOCK_SOFTIRQ: interrupts off, on the CPU that took the interrupt. */
static void blk_done_softirq(void)
{
	unsigned int cpu = smp_processor_id();
	struct request *rq = blk_cpu_done[cpu].head;

	blk_cpu_done[cpu].head = blk_cpu_done[cpu].tail = NULL;
	while (rq) {
		struct request *next = rq->done_next;

		rq->q->mq_ops->complete(rq);
		rq = next;
	}
}

void blk_mq_init(void)
{
	kblockd_workqueue = alloc_workqueue("kblockd", 2);
	open_softirq(BLOCK_SOFTIRQ, blk_done_softirq);
}
