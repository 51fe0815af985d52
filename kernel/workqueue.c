// SPDX-License-Identifier: MIT
/*
 * Workqueues: a FIFO of work items and worker threads that run them.
 *
 * queue_work() may be called from anywhere (interrupt handlers too): it
 * sets the item's pending bit (a second queueing while pending is a no-op,
 * as in Linux), appends it and wakes a worker. Each item gets a sequence
 * number; a flush waits until the workers have finished every item up to
 * the number it saw, so flushing never waits for work queued after it.
 *
 * Two kinds of queue:
 *
 *  - A pool of a fixed size (alloc_workqueue(name, n), n > 0): at most n
 *    items run at once, which is what the caller asked for (kcopyd's
 *    copies in flight, an ordered queue with n = 1).
 *
 *  - The per-CPU kind (n = 0, system_wq): its items may sleep waiting for
 *    each other. A dm-snapshot commit sleeps in a worker until a FUA write
 *    completes, and that completion is itself a work item: with one worker
 *    per CPU and the other worker asleep on the commit's mutex, nothing
 *    was left to run it and the snapshot hung for good. Linux's answer is
 *    the concurrency-managed workqueue (kernel/workqueue.c, "cmwq"): the
 *    pool always keeps an idle worker in reserve, and the worker that
 *    takes the last idle place first starts another. The same rule here:
 *    a worker that leaves the idle set empty creates a new worker before
 *    it runs its item, so an item queued later always finds someone to
 *    run it, however many of the earlier ones sleep. The extra workers
 *    retire after WORKER_IDLE_NS idle; the per-CPU ones stay.
 */
#include <pagoda/bitops.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/time.h>
#include <pagoda/wait.h>
#include <pagoda/workqueue.h>

/* A fixed pool has at most this many workers. */
#define MAX_FIXED_WORKERS 8
/* A growing queue has at most this many: past it, items wait (and we say so). */
#define MAX_WORKERS 64
#define WORKER_IDLE_NS (10ULL * NSEC_PER_SEC)

enum worker_slot { SLOT_FREE, SLOT_STARTING, SLOT_LIVE, SLOT_RETIRED };

struct worker {
	struct workqueue_struct *wq;
	unsigned int index;
	bool extra;            /* started on demand: may retire when idle */
	enum worker_slot slot;
	u64 running;           /* seq of the item it runs, 0 if none */
	struct task *task;
	struct list_head sleep_entry; /* on wq->sleepers while it sleeps for an item */
};

struct workqueue_struct {
	const char *name;
	spinlock_t lock;
	struct list_head items;
	u64 queued_seq;        /* last sequence number handed out */
	u64 done_seq;          /* every item up to this one has finished */
	struct list_head sleepers; /* workers asleep for an item, the latest first */
	struct wait_queue_head flushed;
	unsigned int nr_flushers; /* tasks in flush_workqueue() or flush_work() */
	bool grows;            /* the per-CPU kind: keeps an idle worker in reserve */
	bool stopping;
	bool warned_full;
	unsigned int nr_idle;  /* workers waiting for an item */
	unsigned int nr_live;  /* workers started or starting, not retired */
	struct worker workers[MAX_WORKERS];
};

struct workqueue_struct *system_wq;

/* Done up to the oldest item still queued or running. */
static void update_done(struct workqueue_struct *wq)
{
	u64 oldest = wq->queued_seq + 1;

	if (!list_empty(&wq->items))
		oldest = list_first_entry(&wq->items, struct work_struct, entry)->seq;
	for (unsigned int i = 0; i < MAX_WORKERS; i++)
		if (wq->workers[i].running && wq->workers[i].running < oldest)
			oldest = wq->workers[i].running;
	wq->done_seq = oldest - 1;
}

static int worker_thread(void *arg);

/*
 * Start one more worker of wq, bound to cpu (or unbound if cpu < 0).
 * Process context. A slot a retired worker left is joined first: its
 * thread is gone or about to be, and join frees it.
 */
static bool create_worker(struct workqueue_struct *wq, int cpu, bool extra)
{
	struct worker *wk = NULL;
	struct task *old = NULL, *t;
	unsigned long flags;
	unsigned int limit = wq->grows ? MAX_WORKERS : MAX_FIXED_WORKERS;

	spin_lock_irqsave(&wq->lock, flags);
	for (unsigned int i = 0; i < limit && wq->nr_live < limit; i++) {
		if (wq->workers[i].slot == SLOT_FREE || wq->workers[i].slot == SLOT_RETIRED) {
			wk = &wq->workers[i];
			old = wk->slot == SLOT_RETIRED ? wk->task : NULL;
			wk->slot = SLOT_STARTING;
			wk->task = NULL;
			wq->nr_live++;
			break;
		}
	}
	if (!wk && wq->grows && !wq->warned_full) {
		wq->warned_full = true;
		pr_warn("workqueue %s: all %u workers busy; new items wait for one\n",
			wq->name, limit);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	if (!wk)
		return false;
	if (old)
		kthread_join(old);

	wk->wq = wq;
	wk->index = (unsigned int)(wk - wq->workers);
	wk->extra = extra;
	wk->running = 0;
	INIT_LIST_HEAD(&wk->sleep_entry);
	if (cpu >= 0)
		t = kthread_create(worker_thread, wk, "%s/%d", wq->name, cpu);
	else
		t = kthread_create(worker_thread, wk, "%s/u%u", wq->name, wk->index);
	spin_lock_irqsave(&wq->lock, flags);
	if (t) {
		wk->task = t;
		wk->slot = SLOT_LIVE;
		/* Counted idle from now, so that a queuer sees it is coming. */
		wq->nr_idle++;
	} else {
		wk->slot = SLOT_FREE;
		wq->nr_live--;
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	if (!t)
		return false;
	if (cpu >= 0)
		set_cpus_allowed(t, 1ULL << cpu);
	wake_up_process(t);
	return true;
}

/*
 * Sleep on wq->sleepers until an item is queued (or the queue stops);
 * called and returning with wq->lock held. queue_work() takes the first
 * sleeper off the list and wakes it alone, as a Linux pool wakes its
 * first idle worker. A wait queue woke every idle worker for every item,
 * and all but one took wq->lock only to find the item gone; sampled with
 * gdb under SMP=4, three and four vCPUs at once were spinning on that
 * lock and the wait queue's from kcopyd's queue_work() and its workers.
 * The latest sleeper goes first, so the one woken is the one whose cache
 * is warm. False when an extra worker's idle time ran out with nothing
 * to do.
 */
static bool worker_sleep(struct worker *wk, struct workqueue_struct *wq, unsigned long *flags)
{
	u64 left = WORKER_IDLE_NS;

	while (list_empty(&wq->items) && !wq->stopping) {
		if (wk->extra && !left)
			return false;
		list_add(&wk->sleep_entry, &wq->sleepers);
		set_current_state(TASK_UNINTERRUPTIBLE);
		spin_unlock_irqrestore(&wq->lock, *flags);
		if (wk->extra)
			left = schedule_timeout(left);
		else
			schedule();
		spin_lock_irqsave(&wq->lock, *flags);
		list_del_init(&wk->sleep_entry); /* a timeout, or queue_work() took it off */
	}
	return true;
}

/* With wq->lock held: wake the latest sleeper, if any. */
static void wake_one_worker(struct workqueue_struct *wq)
{
	struct worker *wk;

	if (list_empty(&wq->sleepers))
		return;
	wk = list_first_entry(&wq->sleepers, struct worker, sleep_entry);
	list_del_init(&wk->sleep_entry);
	wake_up_process(wk->task);
}

static int worker_thread(void *arg)
{
	struct worker *wk = arg;
	struct workqueue_struct *wq = wk->wq;
	unsigned long flags;

	for (;;) {
		struct work_struct *w;
		bool more = false, waited, flushers;

		/* Idle (counted in nr_idle) from here until an item is taken. */
		spin_lock_irqsave(&wq->lock, flags);
		waited = worker_sleep(wk, wq, &flags);
		if (list_empty(&wq->items)) {
			/* Retire when stopping, or when idle long and someone else is idle too. */
			if (wq->stopping || (!waited && wq->nr_idle > 1)) {
				wq->nr_idle--;
				wq->nr_live--;
				wk->slot = SLOT_RETIRED;
				spin_unlock_irqrestore(&wq->lock, flags);
				return 0;
			}
			spin_unlock_irqrestore(&wq->lock, flags);
			continue;
		}
		w = list_first_entry(&wq->items, struct work_struct, entry);
		list_del_init(&w->entry);
		wk->running = w->seq;
		wq->nr_idle--;
		/* The reserve is gone: start the next worker before this item can sleep. */
		more = wq->grows && !wq->nr_idle;
		/* Clear before running: the function may queue itself again. */
		clear_bit_unlock(0, &w->pending);
		spin_unlock_irqrestore(&wq->lock, flags);

		if (more)
			create_worker(wq, -1, true);
		w->func(w);

		spin_lock_irqsave(&wq->lock, flags);
		wk->running = 0;
		wq->nr_idle++;
		update_done(wq);
		/* Read with done_seq, under the lock a flusher counts itself under. */
		flushers = wq->nr_flushers;
		spin_unlock_irqrestore(&wq->lock, flags);
		if (flushers)
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
	wake_one_worker(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
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

/* Wait until every item up to seq has finished; workers wake flushers only while one waits. */
static void wait_done(struct workqueue_struct *wq, u64 seq)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	wq->nr_flushers++;
	spin_unlock_irqrestore(&wq->lock, flags);
	wait_event(wq->flushed, seq_done(wq, seq));
	spin_lock_irqsave(&wq->lock, flags);
	wq->nr_flushers--;
	spin_unlock_irqrestore(&wq->lock, flags);
}

void flush_workqueue(struct workqueue_struct *wq)
{
	u64 seq;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	seq = wq->queued_seq;
	spin_unlock_irqrestore(&wq->lock, flags);
	wait_done(wq, seq);
}

bool flush_work(struct work_struct *w)
{
	struct workqueue_struct *wq = READ_ONCE(w->wq);
	u64 seq = READ_ONCE(w->seq);

	if (!wq || seq_done(wq, seq))
		return false;
	wait_done(wq, seq);
	return true;
}

unsigned int workqueue_nr_workers(struct workqueue_struct *wq)
{
	return READ_ONCE(wq->nr_live);
}

struct workqueue_struct *alloc_workqueue(const char *name, unsigned int nr_workers)
{
	struct workqueue_struct *wq = kzalloc(sizeof(*wq), GFP_KERNEL);

	if (!wq)
		return NULL;
	wq->name = name;
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->items);
	INIT_LIST_HEAD(&wq->sleepers);
	init_waitqueue_head(&wq->flushed);
	/*
	 * nr_workers 0: one worker per online CPU, bound to it and named after
	 * it ("events/1" runs on CPU 1), as readers of Linux's per-CPU kworkers
	 * expect, plus unbound extras on demand. Otherwise a pool that runs
	 * anywhere, named "name/uN" (Linux marks unbound workers with the u as
	 * well).
	 */
	if (!nr_workers) {
		unsigned int cpu;

		wq->grows = true;
		for_each_online_cpu(cpu)
			if (!create_worker(wq, (int)cpu, false))
				break;
	} else {
		nr_workers = MIN(nr_workers, (unsigned int)MAX_FIXED_WORKERS);
		for (unsigned int i = 0; i < nr_workers; i++)
			if (!create_worker(wq, -1, false))
				break;
	}
	if (!wq->nr_live) {
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
	while (!list_empty(&wq->sleepers))
		wake_one_worker(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
	/* Nothing is queued or running, so no worker is starting another. */
	for (unsigned int i = 0; i < MAX_WORKERS; i++)
		if (wq->workers[i].task)
			kthread_join(wq->workers[i].task);
	kfree(wq);
}

void workqueue_init(void)
{
	system_wq = alloc_workqueue("events", 0);
	if (!system_wq)
		pr_err("workqueue: cannot create the system workqueue\n");
}
