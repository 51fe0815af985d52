/* SPDX-License-Identifier: MIT */
/* The scheduler's private parts, shared by the files of kernel/sched/. */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include <pagoda/sched.h>
#include <pagoda/spinlock.h>

/* One CPU's run queue. */
struct rq {
	arch_spinlock_t lock;
	struct list_head queue;   /* runnable, not running; by vruntime */
	unsigned int nr_queued;
	struct task *curr;
	struct task *idle;
	struct task *prev;        /* the task just switched away from */
	struct task *push;        /* prev, runnable but not allowed here: to another CPU */
	u64 min_vruntime;         /* never decreases; where newcomers start */
	unsigned int ticks;
} __aligned(64);

extern struct rq runqueues[NR_CPUS];

static inline struct rq *this_rq(void)
{
	return &runqueues[smp_processor_id()];
}

/* Thread memory (kernel/sched/thread.c). */
struct task *task_alloc(void);
void task_free(struct task *t);
void task_list_add(struct task *t);
/* After a context switch: unlock the run queue, handle a dead predecessor. */
void finish_task_switch(void);
u32 nice_to_weight(int nice);

#endif
