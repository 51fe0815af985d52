/* SPDX-License-Identifier: MIT */
/*
 * Preemption control. The scheduler may switch tasks at the end of any
 * interrupt (preemptive), except while the running task's preempt_count is
 * non-zero: holding a spinlock, or inside preempt_disable()/preempt_enable().
 * The count lives in the task (as on arm64 Linux), so reading and changing
 * it never races with a move to another CPU.
 */
#ifndef PAGODA_PREEMPT_H
#define PAGODA_PREEMPT_H

#include <pagoda/arch.h>
#include <pagoda/task.h>

#define current arch_current()

static inline int preempt_count(void)
{
	return current->preempt_count;
}

static inline void preempt_disable(void)
{
	current->preempt_count++;
	__asm__ volatile("" ::: "memory");
}

/* The switch the scheduler asked for while preemption was off. */
void preempt_schedule(void);
bool need_resched(void);

static inline void preempt_enable_no_resched(void)
{
	__asm__ volatile("" ::: "memory");
	current->preempt_count--;
}

static inline void preempt_enable(void)
{
	preempt_enable_no_resched();
	if (unlikely(current->preempt_count == 0 && need_resched()))
		preempt_schedule();
}

#endif
