// SPDX-License-Identifier: MIT
/*
 * spinlock_t: the ticket lock of pagoda/spinlock.h (test-and-set on
 * virtual CPUs, below) with preemption off
 * while held, plus the lockdep check before waiting and the statistics
 * after. A lock is "contended" when it could not be taken at once (the
 * trylock found it held or waited for); the wait is measured only then, so
 * the uncontended path reads the clock once (for the hold time). Both paths
 * go through the arch_spin_*() layer, so this is whatever lock that layer
 * is (the locks lab, docs/labs/locks.md, swaps in its own).
 */
#include <pagoda/atomic.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/spinlock.h>
#include "irqsave.h"

/*
 * Under a hypervisor a waiter may stop being a CPU at any moment: the
 * host deschedules its thread. A ticket lock then serves the next ticket
 * to a waiter that is not running, and every later waiter spins until the
 * host runs it again, a whole host time slice per handoff. Linux's x86
 * guests without paravirtual spinlocks take their locks test-and-set
 * instead (virt_spin_lock(), arch/x86/include/asm/qspinlock.h): unfair,
 * but whoever is running when the lock is free takes it. So does
 * spinlock_t here, when spinlock=tas, or spinlock=auto (the default) on
 * CPUs the arch says are virtual (arch_cpus_virtual()). Measured with
 * bench dmsnap's origin rows under TCG on this project's 2-core hosts:
 * with 4 vCPUs (SMP=4) the ticket lock gave medians of 181 to 1,456
 * IOPS per cell and test-and-set 3,967 to 22,828 (docs/dm-snapshot.md).
 * The bare arch_spin_lock() stays the ticket lock, for the scheduler,
 * printk, lockdep and the locks lab, whose trylock both kinds share.
 */
static int spinlock_mode;
static const char *const spinlock_modes[] = { "auto", "ticket", "tas", NULL };
PARAM_ENUM("spinlock", spinlock_mode, spinlock_modes,
	   "spinlock_t's wait: ticket, tas (test-and-set), or auto: tas on virtual CPUs");
static bool spin_tas;

void spinlock_mode_init(void)
{
	spin_tas = spinlock_mode == 2 || (spinlock_mode == 0 && arch_cpus_virtual());
	pr_info("spinlock: %s%s\n", spin_tas ? "test-and-set" : "ticket",
		spinlock_mode ? "" : spin_tas ? " (auto: virtual CPUs)" : " (auto)");
}

/* Test and test-and-set: spin reading, so the line is not bounced between waiters. */
static void spin_tas_wait(arch_spinlock_t *l)
{
	do {
		while (arch_spin_is_locked(l))
			arch_cpu_relax();
	} while (!arch_spin_trylock(l));
}

static inline void do_lock(spinlock_t *l)
{
	u64 t0;

	lock_acquire(LOCK_CLASS(l, LOCK_SPIN), l, false);
	if (likely(arch_spin_trylock(&l->raw))) {
		lock_acquired(LOCK_CLASS(l, LOCK_SPIN), l, false, false, 0);
		return;
	}
	t0 = arch_cycles();
	if (spin_tas)
		spin_tas_wait(&l->raw);
	else
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
