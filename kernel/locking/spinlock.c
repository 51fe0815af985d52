// SPDX-License-Identifier: MIT
/*
 * spinlock_t: the ticket lock of pagoda/spinlock.h with preemption off
 * while held, plus the lockdep check before waiting and the statistics
 * after. A lock is "contended" when it could not be taken at once (the
 * trylock found it held or waited for); the wait is measured only then, so
 * the uncontended path reads the clock once (for the hold time). Both paths
 * go through the arch_spin_*() layer, so this is whatever lock that layer
 * is (the locks lab, docs/labs/locks.md, swaps in its own).
 */
#include <pagoda/atomic.h>
#include <pagoda/spinlock.h>
#include "irqsave.h"

static inline void do_lock(spinlock_t *l)
{
	u64 t0;

	lock_acquire(LOCK_CLASS(l, LOCK_SPIN), l, false);
	if (likely(arch_spin_trylock(&l->raw))) {
		lock_acquired(LOCK_CLASS(l, LOCK_SPIN), l, false, false, 0);
		return;
	}
	t0 = arch_cycles();
	arch_spin_lock(&l->raw);
	lock_acquired(LOCK_CLASS(l, LOCK_SPIN), l, false, true, arch_cycles() - t0);
}

void spin_lock(spinlock_t *l)
{
	preempt_disable();
	do_lock(l);
}

bool spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (!arch_spin_trylock(&l->raw)) {
		preempt_enable();
		return false;
	}
	lock_acquired(LOCK_CLASS(l, LOCK_SPIN), l, false, false, 0);
	return true;
}

static inline void do_unlock(spinlock_t *l)
{
	lock_release(LOCK_CLASS(l, LOCK_SPIN), l);
	arch_spin_unlock(&l->raw);
}

void spin_unlock(spinlock_t *l)
{
	do_unlock(l);
	preempt_enable();
}

void spin_lock_irq(spinlock_t *l)
{
	arch_irq_disable();
	preempt_disable();
	do_lock(l);
}

void spin_unlock_irq(spinlock_t *l)
{
	do_unlock(l);
	arch_irq_enable();
	preempt_enable();
}

unsigned long _spin_lock_irqsave(spinlock_t *l)
{
	unsigned long flags = irqsave_preempt_disable();

	do_lock(l);
	return flags;
}

void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	do_unlock(l);
	irqrestore_preempt_enable(flags);
}
