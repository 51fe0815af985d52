/* SPDX-License-Identifier: MIT */
/*
 * Wait queues: a list of sleeping tasks, each waiting for some condition.
 *
 *	wait_event(wq, cond);        sleep until cond is true
 *	... make cond true ...; wake_up(&wq);
 *
 * wait_event() queues the task and publishes TASK_UNINTERRUPTIBLE before
 * testing cond, so a wake_up() between the test and the sleep is not lost.
 */
#ifndef PAGODA_WAIT_H
#define PAGODA_WAIT_H

#include <pagoda/atomic.h>
#include <pagoda/list.h>
#include <pagoda/sched.h>
#include <pagoda/spinlock.h>

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

struct wait_queue_entry {
	struct task *task;
	bool exclusive; /* wake_up() wakes one exclusive waiter */
	struct list_head entry;
};

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) \
	{ __SPIN_LOCK_UNLOCKED(name.lock), LIST_HEAD_INIT(name.head) }
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

#define init_waitqueue_head(wq)                                       \
	do {                                                          \
		__spin_lock_init(&(wq)->lock,                         \
				 LOCK_CLASS_HERE(#wq "->lock", LOCK_SPIN)); \
		INIT_LIST_HEAD(&(wq)->head);                          \
	} while (0)

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, long state);
void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w,
			       long state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);
/* Wake every non-exclusive waiter and nr exclusive ones (0: all). */
void __wake_up(struct wait_queue_head *wq, int nr);
#define wake_up(wq) __wake_up(wq, 1)
#define wake_up_all(wq) __wake_up(wq, 0)
/* The same with wq->lock already held. */
void __wake_up_locked(struct wait_queue_head *wq, int nr);
/*
 * Drop *count and wake every waiter, in one hold of wq->lock. A waiter
 * ends its wait_event() through that lock too (finish_wait()), so once it
 * has seen the count fall, nothing here touches wq again and it may free
 * both: an I/O tracker on its stack, a device being removed. Dropping the
 * count and then calling wake_up_all() leaves a window in which a waker
 * held up (an interrupt, a virtual CPU the host descheduled) would wake a
 * queue in freed memory.
 */
void atomic_dec_wake_up_all(atomic_t *count, struct wait_queue_head *wq);

#define wait_event(wq, cond)                                                 \
	do {                                                                 \
		struct wait_queue_entry __w = { .task = current };           \
		might_sleep();                                               \
		for (;;) {                                                   \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE);  \
			if (cond)                                            \
				break;                                       \
			schedule();                                          \
		}                                                            \
		finish_wait(&(wq), &__w);                                    \
	} while (0)

/* Like wait_event, at most ns nanoseconds: true if cond, false on timeout. */
#define wait_event_timeout(wq, cond, ns)                                     \
	({                                                                   \
		struct wait_queue_entry __w = { .task = current };           \
		u64 __left = (ns);                                           \
		bool __ok;                                                   \
		might_sleep();                                               \
		for (;;) {                                                   \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE);  \
			if ((__ok = (cond)) || !__left)                      \
				break;                                       \
			__left = schedule_timeout(__left);                   \
		}                                                            \
		finish_wait(&(wq), &__w);                                    \
		__ok;                                                        \
	})

#endif
