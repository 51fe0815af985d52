/* SPDX-License-Identifier: MIT */
/*
 * Spinlocks: a ticket lock, fair in arrival order, written with the
 * compiler's atomics so the same code serves x86-64, arm64 and the host
 * test build. Each CPU takes a ticket and waits until the "now serving"
 * counter reaches it; unlock serves the next ticket.
 *
 * The _irqsave variants also keep local interrupts off while held, for
 * locks an interrupt handler may take. (The locking issue grows this file
 * with statistics and a lock validator; the interface stays.)
 */
#ifndef PAGODA_SPINLOCK_H
#define PAGODA_SPINLOCK_H

#include <pagoda/arch.h>
#include <pagoda/types.h>

typedef struct spinlock {
	u16 owner; /* ticket now being served */
	u16 next;  /* next ticket to hand out */
} spinlock_t;

#define SPINLOCK_INIT { 0, 0 }
#define DEFINE_SPINLOCK(name) spinlock_t name = SPINLOCK_INIT

static inline void spin_lock_init(spinlock_t *l)
{
	l->owner = 0;
	l->next = 0;
}

static inline void spin_lock(spinlock_t *l)
{
	u16 me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);

	/* Acquire: nothing in the critical section moves above this load. */
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		arch_cpu_relax();
}

static inline bool spin_trylock(spinlock_t *l)
{
	u16 owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	u16 expected = owner;

	/* Only when nobody holds or waits: next == owner. */
	return __atomic_compare_exchange_n(&l->next, &expected, (u16)(owner + 1),
					   false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline void spin_unlock(spinlock_t *l)
{
	/* Release: the critical section's stores are visible first. */
	__atomic_store_n(&l->owner, (u16)(l->owner + 1), __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&l->next, __ATOMIC_RELAXED);
}

#define spin_lock_irqsave(l, flags)        \
	do {                               \
		(flags) = arch_irq_save(); \
		spin_lock(l);              \
	} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	spin_unlock(l);
	arch_irq_restore(flags);
}

#endif
