/* SPDX-License-Identifier: MIT */
/*
 * struct task: one kernel thread. Kept apart from pagoda/sched.h (the
 * scheduler's interface) so that low-level headers (preempt.h, spinlock.h)
 * can see it without pulling in the rest.
 */
#ifndef PAGODA_TASK_H
#define PAGODA_TASK_H

#include <pagoda/list.h>
#include <pagoda/lockdep.h>
#include <pagoda/types.h>

struct blk_plug;
struct mm_struct;

enum task_state {
	TASK_RUNNING = 0,         /* running or on a run queue */
	TASK_INTERRUPTIBLE = 1,   /* sleeping (no signals yet: same as below) */
	TASK_UNINTERRUPTIBLE = 2, /* sleeping until wake_up_process() */
	TASK_NEW = 4,             /* created, not yet woken */
	TASK_DEAD = 8,            /* exited; its stack is still in use */
};

#define TASK_COMM_LEN 16
#define JOIN_WAKING 1UL  /* exiting: waking the joiner */
#define JOIN_EXITED 2UL  /* off its stack for good: may be freed */

struct arch_user_state;
struct thread;
struct pt_regs;

struct task {
	unsigned long sp;     /* saved by arch_context_switch(); keep first */
	long state;           /* enum task_state; changed by the task or a waker */
	int preempt_count;
	unsigned int cpu;     /* run queue it is on, or last ran on */
	bool on_rq;           /* queued on cpu's run queue (not counting running) */
	bool is_idle;
	u64 cpus_allowed;     /* affinity: bit n = may run on CPU n */
	int nice;             /* -20 .. 19, as in Linux */
	u32 weight;           /* from nice: 1024 at 0, x1.25 per step */
	u64 vruntime;         /* weighted run time, ns: the scheduler's key */
	u64 exec_start;       /* arch_cycles() when it last got the CPU */
	u64 sum_exec_ns;      /* total run time */
	u64 nr_switches;
	struct list_head run_node; /* on rq->queue, sorted by vruntime */
	struct list_head tasks;    /* on the list of all tasks, for ps */
	int pid;
	char name[TASK_COMM_LEN];
	void *stack;
	size_t stack_size;
	int (*fn)(void *arg);
	void *arg;
	int exit_code;
	struct mm_struct *mm; /* a user address space, or NULL: a kernel thread */
	/* A user task's FP/SIMD and thread pointer while it is off the CPU (arch.h). */
	struct arch_user_state *ustate;
	/* A user task's own side as a thread of its process (pagoda/process.h), or NULL. */
	struct thread *user_thread;
	/* Trapping after each user instruction (arch_user_single_step()). */
	bool user_step;
	/* The frame its latest system call saved (fork copies it). */
	struct pt_regs *uregs;
	/* 0, the task waiting in kthread_join(), or JOIN_EXITED once t is off its stack */
	unsigned long join_state;
	/* locks held, for lockdep and hold times */
	int lockdep_depth;
	struct held_lock held_locks[MAX_LOCK_DEPTH];
	/* The freezer (kernel/power/freezer.c): may be frozen, and is. */
	bool freezable;
	bool frozen;
	/* block requests being collected, between blk_start/finish_plug() */
	struct blk_plug *plug;
};

#endif
