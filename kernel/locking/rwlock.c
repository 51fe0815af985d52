// SPDX-License-Identifier: MIT
/*
 * rwlock_t, after Linux's queued rwlock. cnts holds the reader count
 * (in units of READER) and two writer bits:
 *   WRITER_LOCKED  a writer holds the lock;
 *   WRITER_WAITING a writer has the queue and waits for readers to drain.
 * A reader adds READER; if no writer bit was set it is in. Otherwise it
 * takes back its count and joins the queue (the ticket lock `wait`), so
 * readers arriving after a writer wait behind it: no writer starvation.
 * A writer takes the queue, announces itself, and waits until it alone
 * remains.
 */
#include <pagoda/atomic.h>
#include <pagoda/rwlock.h>
#include "irqsave.h"

#define WRITER_LOCKED 0x0ffu
#define WRITER_WAITING 0x100u
#define WRITER_MASK 0x1ffu
#define READER 0x200u

static inline u32 cnts_load(rwlock_t *l)
{
	return smp_load_acquire(&l->cnts);
}

static void read_lock_slow(rwlock_t *l)
{
	__atomic_fetch_sub(&l->cnts, READER, __ATOMIC_RELAXED);
	arch_spin_lock(&l->wait);
	__atomic_fetch_add(&l->cnts, READER, __ATOMIC_ACQUIRE);
	/* A writer may still hold it; only the LOCKED bit keeps us out now. */
	while (cnts_load(l) & WRITER_LOCKED)
		arch_cpu_relax();
	arch_spin_unlock(&l->wait);
}

static void do_read_lock(rwlock_t *l)
{
	u32 c;

	lock_acquire(LOCK_CLASS(l, LOCK_RW), l, true);
	c = __atomic_fetch_add(&l->cnts, READER, __ATOMIC_ACQUIRE);
	if (likely(!(c & WRITER_MASK))) {
		lock_acquired(LOCK_CLASS(l, LOCK_RW), l, true, false, 0);
		return;
	}
	u64 t0 = arch_cycles();

	read_lock_slow(l);
	lock_acquired(LOCK_CLASS(l, LOCK_RW), l, true, true, arch_cycles() - t0);
}

static void do_write_lock(rwlock_t *l)
{
	u32 zero = 0;
	u64 t0;

	lock_acquire(LOCK_CLASS(l, LOCK_RW), l, false);
	if (likely(__atomic_compare_exchange_n(&l->cnts, &zero, WRITER_LOCKED, false,
					       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))) {
		lock_acquired(LOCK_CLASS(l, LOCK_RW), l, false, false, 0);
		return;
	}
	t0 = arch_cycles();
	arch_spin_lock(&l->wait);
	__atomic_fetch_or(&l->cnts, WRITER_WAITING, __ATOMIC_RELAXED);
	for (;;) {
		u32 expect = WRITER_WAITING;

		if (__atomic_compare_exchange_n(&l->cnts, &expect, WRITER_LOCKED, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		arch_cpu_relax();
	}
	arch_spin_unlock(&l->wait);
	lock_acquired(LOCK_CLASS(l, LOCK_RW), l, false, true, arch_cycles() - t0);
}

void read_lock(rwlock_t *l)
{
	preempt_disable();
	do_read_lock(l);
}

static inline void do_read_unlock(rwlock_t *l)
{
	lock_release(LOCK_CLASS(l, LOCK_RW), l);
	__atomic_fetch_sub(&l->cnts, READER, __ATOMIC_RELEASE);
}

static inline void do_write_unlock(rwlock_t *l)
{
	lock_release(LOCK_CLASS(l, LOCK_RW), l);
	/* Only the LOCKED byte: a waiting writer's bit is not ours to clear. */
	__atomic_fetch_and(&l->cnts, ~WRITER_LOCKED, __ATOMIC_RELEASE);
}

void read_unlock(rwlock_t *l)
{
	do_read_unlock(l);
	preempt_enable();
}

void write_lock(rwlock_t *l)
{
	preempt_disable();
	do_write_lock(l);
}

void write_unlock(rwlock_t *l)
{
	do_write_unlock(l);
	preempt_enable();
}

bool read_trylock(rwlock_t *l)
{
	u32 c;

	preempt_disable();
	c = cnts_load(l);
	if (!(c & WRITER_MASK) &&
	    __atomic_compare_exchange_n(&l->cnts, &c, c + READER, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		lock_acquired(LOCK_CLASS(l, LOCK_RW), l, true, false, 0);
		return true;
	}
	preempt_enable();
	return false;
}

bool write_trylock(rwlock_t *l)
{
	u32 zero = 0;

	preempt_disable();
	if (__atomic_compare_exchange_n(&l->cnts, &zero, WRITER_LOCKED, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		lock_acquired(LOCK_CLASS(l, LOCK_RW), l, false, false, 0);
		return true;
	}
	preempt_enable();
	return false;
}

unsigned long _read_lock_irqsave(rwlock_t *l)
{
	unsigned long flags = irqsave_preempt_disable();

	do_read_lock(l);
	return flags;
}

unsigned long _write_lock_irqsave(rwlock_t *l)
{
	unsigned long flags = irqsave_preempt_disable();

	do_write_lock(l);
	return flags;
}

void read_unlock_irqrestore(rwlock_t *l, unsigned long flags)
{
	do_read_unlock(l);
	irqrestore_preempt_enable(flags);
}

void write_unlock_irqrestore(rwlock_t *l, unsigned long flags)
{
	do_write_unlock(l);
	irqrestore_preempt_enable(flags);
}
