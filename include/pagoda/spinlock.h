/* SPDX-License-Identifier: MIT */
/*
 * Spinlocks, in two layers.
 *
 * arch_spinlock_t is the bare ticket lock: fair in arrival order, written
 * with the compiler's atomics so the same code serves x86-64 and arm64.
 * Each CPU takes a ticket (next++) and waits until "now serving" (owner)
 * reaches it; unlock serves the next ticket. It does nothing else, which
 * is what the scheduler, printk and lockdep itself need.
 *
 * spinlock_t is what the rest of the kernel uses: the ticket lock plus
 * preemption disabled while held, a lock class for lock statistics and the
 * lock validator (pagoda/lockdep.h). The _irq/_irqsave variants also keep
 * local interrupts off, for locks an interrupt handler may take.
 *
 *	static DEFINE_SPINLOCK(list_lock);
 *	spin_lock_init(&zone->lock);          (class "&zone->lock")
 *	spin_lock_irqsave(&zone->lock, flags); ... spin_unlock_irqrestore(...)
 */
#ifndef PAGODA_SPINLOCK_H
#define PAGODA_SPINLOCK_H

#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/lockdep.h>
#include <pagoda/preempt.h>
#include <pagoda/types.h>

typedef struct {
	u16 owner; /* ticket now being served */
	u16 next;  /* next ticket to hand out */
} arch_spinlock_t;

#define ARCH_SPINLOCK_INIT { 0, 0 }

static inline void arch_spin_lock_init(arch_spinlock_t *l)
{
	l->owner = 0;
	l->next = 0;
}

static inline void arch_spin_lock(arch_spinlock_t *l)
{
	u16 me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);

	/* Acquire: nothing in the critical section moves above this load. */
	while (smp_load_acquire(&l->owner) != me)
		arch_cpu_relax();
}

static inline bool arch_spin_trylock(arch_spinlock_t *l)
{
	u16 owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	u16 expected = owner;

	/* Only when nobody holds or waits: next == owner. */
	return __atomic_compare_exchange_n(&l->next, &expected, (u16)(owner + 1),
					   false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline void arch_spin_unlock(arch_spinlock_t *l)
{
	/* Release: the critical section's stores are visible first. */
	smp_store_release(&l->owner, (u16)(l->owner + 1));
}

static inline bool arch_spin_is_locked(arch_spinlock_t *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&l->next, __ATOMIC_RELAXED);
}

typedef struct spinlock {
	arch_spinlock_t raw;
	struct lock_class *class; /* set by spin_lock_init, or made at first use */
	const char *name;         /* for a static lock's class */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(lname) { ARCH_SPINLOCK_INIT, NULL, #lname }
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)
/* An initializer without a name (statistics lumped as "unnamed"). */
#define SPINLOCK_INIT { ARCH_SPINLOCK_INIT, NULL, NULL }

static inline void __spin_lock_init(spinlock_t *l, struct lock_class *c)
{
	arch_spin_lock_init(&l->raw);
	l->class = c;
	l->name = c->name;
}
#define spin_lock_init(l) __spin_lock_init(l, LOCK_CLASS_HERE(#l, LOCK_SPIN))

void spin_lock(spinlock_t *l);
/* At boot, after the command line: spinlock_t waits ticket or test-and-set (spinlock.c). */
void spinlock_mode_init(void);
bool spin_trylock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
void spin_lock_irq(spinlock_t *l);
void spin_unlock_irq(spinlock_t *l);
unsigned long _spin_lock_irqsave(spinlock_t *l);
void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags);

#define spin_lock_irqsave(l, flags) ((flags) = _spin_lock_irqsave(l))

static inline bool spin_is_locked(spinlock_t *l)
{
	return arch_spin_is_locked(&l->raw);
}

#endif
