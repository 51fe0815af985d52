// SPDX-License-Identifier: MIT
/*
 * Workqueues: a FIFO of work items and worker threads that run them.
 *
 * queue_work() may be called from anywhere (interrupt handlers too): it
 * sets the item's pending bit (a second queueing while pending is a no-op,
 * as in Linux), appends it and wakes a worker. Each item gets a sequence
 * number; a flush waits until the workers have finished every item up to
 * the number it saw, so flushing never waits for work queued after it.
 */
#include <pagoda/bitops.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/wait.h>
#include <pagoda/workqueue.h>

#define MAX_WORKERS 8

struct worker_arg {
	struct workqueue_struct *wq;
	unsigned int index;
};

struct workqueue_struct {
	const char *name;
	spinlock_t lock;
	struct list_head items;
	u64 queued_seq;        /* last sequence number handed out */
	u64 done_seq;          /* every item up to this one has finished */
	u64 running[MAX_WORKERS]; /* seq each worker is running, 0 if none */
	struct wait_queue_head more_work;
	struct wait_queue_head flushed;
	unsigned int nr_workers;
	bool stopping;
	struct task *workers[MAX_WORKERS];
	struct worker_arg args[MAX_WORKERS];
};

struct workqueue_struct *system_wq;


/* Done up to the oldest item still queued or running. */
static void update_done(struct workqueue_struct *wq)
{
	u64 oldest = wq->queued_seq + 1;

	if (!list_empty(&wq->items))
		oldest = list_first_entry(&wq->items, struct work_struct, entry)->seq;
	for (unsigned int i = 0; i < wq->nr_workers; i++)
		if (wq->running[i] && wq->running[i] < oldest)
			oldest = wq->running[i];
	wq->done_seq = oldest - 1;
}


static int worker_thread(void *arg)
{
	struct worker_arg *wa = arg;
	struct workqueue_struct *wq = wa->wq;
	unsigned long flags;

	for (;;) {
		struct work_struct *w;

		wait_event(wq->more_work, !list_empty(&wq->items) || READ_ONCE(wq->stopping));
		spin_lock_irqsave(&wq->lock, flags);
		if (list_empty(&wq->items)) {
			bool stop = wq->stopping;

			spin_unlock_irqrestore(&wq->lock, flags);
			if (stop)
				return 0;
			continue;
		}
		w = list_first_entry(&wq->items, struct work_struct, entry);
		list_del_init(&w->entry);
		wq->running[wa->index] = w->seq;
		/* Clear before running: the function may queue itself again. */
		clear_bit_unlock(0, &w->pending);
		spin_unlock_irqrestore(&wq->lock, flags);

		w->func(w);

		spin_lock_irqsave(&wq->lock, flags);
		wq->running[wa->index] = 0;
		update_done(wq);
		spin_unlock_irqrestore(&wq->lock, flags);
		wake_up_all(&wq->flushed);
	}
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	unsigned long flags;

	if (test_and_set_bit_lock(0, &w->pending))
		return false;
	spin_lock_irqsave(&wq->lock, flags);
	w->wq = wq;
	w->seq = ++wq->queued_seq;
	list_add_tail(&w->entry, &wq->items);
	spin_unlock_irqrestore(&wq->lock, flags);
	wake_up(&wq->more_work);
	return true;
}

static bool seq_done(struct workqueue_struct *wq, u64 seq)
{
	unsigned long flags;
	bool done;

	spin_lock_irqsave(&wq->lock, flags);
	done = wq->done_seq >= seq;
	spin_unlock_irqrestore(&wq->lock, flags);
	return done;
}

void flush_workqueue(struct workqueue_struct *wq)
{
	u64 seq;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	seq = wq->queued_seq;
	spin_unlock_irqrestore(&wq->lock, flags);
	wait_event(wq->flushed, seq_done(wq, seq));
}

bool flush_work(struct work_struct *w)
{
	struct workqueue_struct *wq = READ_ONCE(w->wq);
	u64 seq = READ_ONCE(w->seq);

	if (!wq || seq_done(wq, seq))
		return false;
	wait_event(wq->flushed, seq_done(wq, seq));
	return true;
}

struct workqueue_struct *alloc_workqueue(const char *name, unsigned int nr_workers)
{
	struct workqueue_struct *wq = kzalloc(sizeof(*wq), GFP_KERNEL);

	if (!wq)
		return NULL;
	wq->name = name;
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->items);
	init_waitqueue_head(&wq->more_work);
	init_waitqueue_head(&wq->flushed);
	/*
	 * nr_workers 0: one worker per online CPU, bound to it and named after
	 * it ("events/1" runs on CPU 1), as readers of Linux's per-CPU kworkers
	 * expect. Otherwise a pool that runs anywhere, named "name/uN" (Linux
	 * marks unbound workers with the u as well).
	 */
	if (!nr_workers) {
		unsigned int cpu;

		for_each_online_cpu(cpu) {
			struct worker_arg *wa = &wq->args[wq->nr_workers];
			struct task *w;

			if (wq->nr_workers == MAX_WORKERS)
				break;
			*wa = (struct worker_arg){ wq, wq->nr_workers };
			w = kthread_create(worker_thread, wa, "%s/%u", name, cpu);
			if (!w)
				break;
			set_cpus_allowed(w, 1ULL << cpu);
			wq->workers[wq->nr_workers++] = w;
		}
	} else {
		nr_workers = MIN(nr_workers, (unsigned int)MAX_WORKERS);
		for (unsigned int i = 0; i < nr_workers; i++) {
			struct worker_arg *wa = &wq->args[i];

			*wa = (struct worker_arg){ wq, i };
			wq->workers[i] = kthread_create(worker_thread, wa, "%s/u%u", name, i);
			if (!wq->workers[i])
				break;
			wq->nr_workers++;
		}
	}
	for (unsigned int i = 0; i < wq->nr_workers; i++)
		wake_up_process(wq->workers[i]);
	if (!wq->nr_workers) {
		destroy_workqueue(wq);
		return NULL;
	}
	return wq;
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	unsigned long flags;

	flush_workqueue(wq);
	spin_lock_irqsave(&wq->lock, flags);
	wq->stopping = true;
	spin_unlock_irqrestore(&wq->lock, flags);
	wake_up_all(&wq->more_work);
	for (unsigned int i = 0; i < wq->nr_workers; i++)
		kthread_join(wq->workers[i]);
	kfree(wq);
}

void workqueue_init(void)
{
	system_wq = alloc_workqueue("events", 0);
	if (!system_wq)
		pr_err("workqueue: cannot create the system workqueue\n");
}
