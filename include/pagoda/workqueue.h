/* SPDX-License-Identifier: MIT */
/*
 * Workqueues: run a function later, in a kernel thread, where it may
 * sleep (unlike a timer or an interrupt handler). A work item is queued at
 * most once at a time; queueing it again while pending does nothing.
 *
 *	INIT_WORK(&w, grow_pool);
 *	queue_work(system_wq, &w);    (from anywhere, interrupts included)
 *	flush_work(&w);               (wait until it has run)
 *
 * Each workqueue has its own worker threads taking items in FIFO order.
 * system_wq's items may wait for one another: it starts more workers when
 * its idle ones run out (kernel/workqueue.c).
 */
#ifndef PAGODA_WORKQUEUE_H
#define PAGODA_WORKQUEUE_H

#include <pagoda/list.h>
#include <pagoda/types.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *w);

struct work_struct {
	work_func_t func;
	struct list_head entry;
	unsigned long pending;   /* bit 0: queued and not yet started */
	struct workqueue_struct *wq;
	u64 seq;                 /* queue order, for flush_work */
};

#define INIT_WORK(w, fn)                             \
	do {                                         \
		(w)->func = (fn);                    \
		INIT_LIST_HEAD(&(w)->entry);         \
		(w)->pending = 0;                    \
		(w)->wq = NULL;                      \
	} while (0)

struct workqueue_struct;
extern struct workqueue_struct *system_wq;

/* A workqueue with nr_workers threads (0: one per online CPU, more on demand). */
struct workqueue_struct *alloc_workqueue(const char *name, unsigned int nr_workers);
/* Flush, stop the workers, free. */
void destroy_workqueue(struct workqueue_struct *wq);
bool queue_work(struct workqueue_struct *wq, struct work_struct *w);
static inline bool schedule_work(struct work_struct *w) { return queue_work(system_wq, w); }
/* Wait until w, if queued, has run; true if it had to wait. */
bool flush_work(struct work_struct *w);
/* Wait until everything queued before this call has run. */
void flush_workqueue(struct workqueue_struct *wq);
/* Workers wq has now (a growing queue's count changes). */
unsigned int workqueue_nr_workers(struct workqueue_struct *wq);
void workqueue_init(void);

#endif
