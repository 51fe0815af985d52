// SPDX-License-Identifier: MIT
/*
 * kcopyd (Linux: drivers/md/dm-kcopyd.c): copy a range of sectors from one
 * device to up to four others in the background. A copy job is queued and
 * returns at once; its I/O is asynchronous, as Linux's dm-io makes it: a
 * kcopyd worker submits the read and returns, the read's completion (an
 * interrupt) hands the job back to a worker, which submits the writes,
 * whose completion hands it back once more for the notify function. So a
 * worker never waits on a disk, however many copies are in flight, and
 * the notify function runs in a kcopyd thread, where it may sleep and
 * submit I/O (the snapshot commits its exceptions there), which a bio's
 * completion may not.
 *
 * The job's stages:
 *
 *	dm_kcopyd_copy --> [worker] submit read --> read done (irq)
 *	   --> [worker] submit the writes --> last write done (irq)
 *	   --> [worker] notify fn(read_err, write_err) and free
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/bio.h>
#include <pagoda/mutex.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/wait.h>
#include <pagoda/workqueue.h>

#include "dm-kcopyd.h"
#include "dm-trace.h"

#define KCOPYD_MAX_DESTS 4
/*
 * Threads that run the stages. A stage only submits I/O or calls a notify
 * function, so this bounds the notify functions running at once (commits
 * waiting for each other), not the copies in flight.
 */
#define KCOPYD_WORKERS 4

struct dm_kcopyd_client {
	atomic_t nr_jobs;
	struct wait_queue_head destroyq;
};

enum kcopyd_stage { STAGE_READ, STAGE_WRITE, STAGE_NOTIFY };

struct kcopyd_job;

/* What a bio's completion needs: its job and which region it was for. */
struct kcopyd_region_io {
	struct kcopyd_job *job;
	unsigned int index;	/* 0: the source; 1 + i: dests[i] */
};

struct kcopyd_job {
	struct work_struct work;
	struct dm_kcopyd_client *kc;
	enum kcopyd_stage stage;
	struct dm_io_region source;
	struct dm_io_region dests[KCOPYD_MAX_DESTS];
	unsigned int num_dests;
	void *buf;
	/* bios of the current stage not yet completed, plus one while submitting */
	atomic_t io_pending;
	int read_err;
	unsigned long write_err;	/* bit i: dests[i] failed (set from irqs) */
	struct kcopyd_region_io rio[1 + KCOPYD_MAX_DESTS];
	dm_kcopyd_notify_fn fn;
	void *context;
	u64 stamp;		/* arch_cycles() at the last stage boundary (dm-trace.h) */
};

static struct workqueue_struct *kcopyd_wq;
static DEFINE_MUTEX(kcopyd_wq_lock);

static void next_stage(struct kcopyd_job *job, enum kcopyd_stage stage)
{
	job->stage = stage;
	/* From an interrupt too; the item is not queued (its last run has begun). */
	queue_work(kcopyd_wq, &job->work);
}

/* The stage's I/O is all done: on to the next stage, in a worker. */
static void stage_io_done(struct kcopyd_job *job)
{
	if (!atomic_dec_and_test(&job->io_pending))
		return;
	job->stamp = dm_trace_step(job->stage == STAGE_READ ? DM_TRACE_KCOPYD_READ :
				   DM_TRACE_KCOPYD_WRITE, job->stamp);
	if (job->stage == STAGE_READ && !job->read_err && job->num_dests)
		next_stage(job, STAGE_WRITE);
	else
		next_stage(job, STAGE_NOTIFY);
}

static void region_endio(struct bio *bio)
{
	struct kcopyd_region_io *rio = bio->bi_private;
	struct kcopyd_job *job = rio->job;

	if (bio->bi_status) {
		if (rio->index == 0)
			WRITE_ONCE(job->read_err, 1);
		else
			__atomic_fetch_or(&job->write_err, 1UL << (rio->index - 1),
					  __ATOMIC_RELAXED);
	}
	bio_put(bio);
	stage_io_done(job);
}

/* Submit the bios that move job->buf to or from region index; never waits. */
static void submit_region(struct kcopyd_job *job, unsigned int index, blk_opf_t opf)
{
	struct dm_io_region *r = index ? &job->dests[index - 1] : &job->source;
	size_t len = r->count << SECTOR_SHIFT;
	sector_t sector = r->sector;
	char *p = job->buf;

	job->rio[index] = (struct kcopyd_region_io){ job, index };
	while (len) {
		size_t room = (size_t)BIO_MAX_VECS * PAGE_SIZE - ((uptr)p & (PAGE_SIZE - 1));
		unsigned int n = (unsigned int)MIN(len, room);
		struct bio *bio = bio_alloc(r->bdev, DIV_ROUND_UP(((uptr)p & (PAGE_SIZE - 1)) + n,
							   PAGE_SIZE), opf, GFP_KERNEL);

		if (!bio) {
			/* What was submitted completes; the rest counts as failed. */
			if (index == 0)
				job->read_err = 1;
			else
				__atomic_fetch_or(&job->write_err, 1UL << (index - 1),
						  __ATOMIC_RELAXED);
			return;
		}
		bio->bi_iter.bi_sector = sector;
		bio_add_virt(bio, p, n);
		bio->bi_end_io = region_endio;
		bio->bi_private = &job->rio[index];
		atomic_inc(&job->io_pending);
		submit_bio(bio);
		p += n;
		len -= n;
		sector += n >> SECTOR_SHIFT;
	}
}

static void run_stage(struct work_struct *w)
{
	struct kcopyd_job *job = container_of(w, struct kcopyd_job, work);
	struct dm_kcopyd_client *kc = job->kc;

	switch (job->stage) {
	case STAGE_READ:
		job->stamp = dm_trace_step(DM_TRACE_KCOPYD_QUEUE, job->stamp);
		job->buf = kmalloc(job->source.count << SECTOR_SHIFT, GFP_KERNEL);
		if (!job->buf) {
			job->read_err = 1;
			next_stage(job, STAGE_NOTIFY);
			return;
		}
		/* The extra count keeps the stage from ending while bios are submitted. */
		atomic_set(&job->io_pending, 1);
		submit_region(job, 0, REQ_OP_READ);
		stage_io_done(job);
		return;
	case STAGE_WRITE:
		job->stamp = dm_trace_step(DM_TRACE_KCOPYD_HANDOFF, job->stamp);
		atomic_set(&job->io_pending, 1);
		for (unsigned int i = 0; i < job->num_dests; i++)
			submit_region(job, 1 + i, REQ_OP_WRITE);
		stage_io_done(job);
		return;
	case STAGE_NOTIFY:
		dm_trace_step(DM_TRACE_KCOPYD_NOTIFY, job->stamp);
		kfree(job->buf);
		job->fn(job->read_err, job->write_err, job->context);
		kfree(job);
		/* The client may be destroyed the moment the count reaches 0. */
		atomic_dec_wake_up_all(&kc->nr_jobs, &kc->destroyq);
		return;
	}
}

struct dm_kcopyd_client *dm_kcopyd_client_create(void)
{
	struct dm_kcopyd_client *kc;

	mutex_lock(&kcopyd_wq_lock);
	if (!kcopyd_wq)
		kcopyd_wq = alloc_workqueue("kcopyd", KCOPYD_WORKERS);
	mutex_unlock(&kcopyd_wq_lock);
	if (!kcopyd_wq)
		return NULL;
	kc = kzalloc(sizeof(*kc), GFP_KERNEL);
	if (!kc)
		return NULL;
	atomic_set(&kc->nr_jobs, 0);
	init_waitqueue_head(&kc->destroyq);
	return kc;
}

void dm_kcopyd_client_destroy(struct dm_kcopyd_client *kc)
{
	wait_event(kc->destroyq, atomic_read(&kc->nr_jobs) == 0);
	kfree(kc);
}

int dm_kcopyd_copy(struct dm_kcopyd_client *kc, struct dm_io_region *from,
		   unsigned int num_dests, struct dm_io_region *dests, unsigned int flags,
		   dm_kcopyd_notify_fn fn, void *context)
{
	struct kcopyd_job *job;

	if (num_dests > KCOPYD_MAX_DESTS || !from->count)
		return -EINVAL;
	for (unsigned int i = 0; i < num_dests; i++)
		if (dests[i].count != from->count)
			return -EINVAL;
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	job->kc = kc;
	job->source = *from;
	memcpy(job->dests, dests, num_dests * sizeof(*dests));
	job->num_dests = num_dests;
	job->fn = fn;
	job->context = context;
	atomic_inc(&kc->nr_jobs);
	INIT_WORK(&job->work, run_stage);
	job->stage = STAGE_READ;
	job->stamp = arch_cycles();
	queue_work(kcopyd_wq, &job->work);
	return 0;
}
