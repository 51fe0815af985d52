/* SPDX-License-Identifier: MIT */
/*
 * What every _irqsave lock (spinlock.c, rwlock.c) does around its own take
 * and release. Interrupts are masked before preemption is turned off, so
 * no interrupt handler runs on this CPU while the lock is held; on release
 * they are restored before preemption is turned back on, the mirror image,
 * so the reschedule preempt_enable() may do runs with interrupts as the
 * caller had them, as Linux's spin_unlock_irqrestore().
 */
#ifndef KERNEL_LOCKING_IRQSAVE_H
#define KERNEL_LOCKING_IRQSAVE_H

#include <pagoda/arch.h>
#include <pagoda/preempt.h>

static inline unsigned long irqsave_preempt_disable(void)
{
	unsigned long flags = arch_irq_save();

	preempt_disable();
	return flags;
}

static inline void irqrestore_preempt_enable(unsigned long flags)
{
	arch_irq_restore(flags);
	preempt_enable();
}

#endif
