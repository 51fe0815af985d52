// SPDX-License-Identifier: MIT
/*
 * kcopyd (Linux: drivers/md/dm-kcopyd.c), reduced to its promise: a copy
 * job is queued and returns at once; a worker thread reads the source
 * into a buffer, writes every destination, and calls the job's notify
 * function from that thread, where it may sleep and submit I/O (which a
 * bio's completion may not). Linux pipelines jobs through page lists and
 * dm-io; here each worker does one job at a time with synchronous I/O,
 * and parallelism comes from KCOPYD_WORKERS workers.
 */
#include <pagoda/atomic.h>
#include <pagoda/mutex.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/wait.h>
#include <pagoda/workqueue.h>

#include "dm-kcopyd.h"

#define KCOPYD_MAX_DESTS 4
/* Each worker copies synchronously: this many copies in flight at most. */
#define KCOPYD_WORKERS 8

struct dm_kcopyd_client {
	atomic_t nr_jobs;
	struct wait_queue_head destroyq;
};

struct kcopyd_job {
	struct work_struct work;
	struct dm_kcopyd_client *kc;
	struct dm_io_region source;
	struct dm_io_region dests[KCOPYD_MAX_DESTS];
	unsigned int num_dests;
	int read_err;
	unsigned long write_err;
	dm_kcopyd_notify_fn fn;
	void *context;
};

static struct workqueue_struct *kcopyd_wq;
static DEFINE_MUTEX(kcopyd_wq_lock);

static void run_job(struct work_struct *w)
{
	struct kcopyd_job *job = container_of(w, struct kcopyd_job, work);
	struct dm_kcopyd_client *kc = job->kc;

	{
		size_t len = job->source.count << SECTOR_SHIFT;
		void *buf = kmalloc(len, GFP_KERNEL);

		if (!buf || blkdev_rw(job->source.bdev, REQ_OP_READ, job->source.sector, buf, len)) {
			job->read_err = 1;
		} else {
			for (unsigned int i = 0; i < job->num_dests; i++)
				if (blkdev_rw(job->dests[i].bdev, REQ_OP_WRITE, job->dests[i].sector,
					      buf, len))
					job->write_err |= 1UL << i;
		}
		kfree(buf);
	}
	job->fn(job->read_err, job->write_err, job->context);
	kfree(job);
	/* The client may be destroyed the moment the count reaches 0. */
	atomic_dec_wake_up_all(&kc->nr_jobs, &kc->destroyq);
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

static void queue_job(struct kcopyd_job *job)
{
	atomic_inc(&job->kc->nr_jobs);
	INIT_WORK(&job->work, run_job);
	queue_work(kcopyd_wq, &job->work);
}

int dm_kcopyd_copy(struct dm_kcopyd_client *kc, struct dm_io_region *from,
		   unsigned int num_dests, struct dm_io_region *dests, unsigned int flags,
		   dm_kcopyd_notify_fn fn, void *context)
{
	struct kcopyd_job *job;

	if (num_dests > KCOPYD_MAX_DESTS)
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
	queue_job(job);
	return 0;
}
