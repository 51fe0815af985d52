/* SPDX-License-Identifier: MIT */
/*
 * Bit spinlocks: one bit of a word used as a lock, when a lock per object
 * would cost too much memory (one per hash bucket: see list_bl.h). Not
 * fair, no statistics, no lockdep: the price of taking no space.
 * Preemption is off while held, as for any spinlock.
 */
#ifndef PAGODA_BIT_SPINLOCK_H
#define PAGODA_BIT_SPINLOCK_H

#include <pagoda/bitops.h>
#include <pagoda/preempt.h>

static inline void bit_spin_lock(unsigned int bitnum, unsigned long *addr)
{
	preempt_disable();
	while (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		/* Spin on a plain read: no cache-line ping-pong while held. */
		while (test_bit(bitnum, addr))
			arch_cpu_relax();
	}
}

static inline bool bit_spin_trylock(unsigned int bitnum, unsigned long *addr)
{
	preempt_disable();
	if (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		preempt_enable();
		return false;
	}
	return true;
}

static inline void bit_spin_unlock(unsigned int bitnum, unsigned long *addr)
{
	clear_bit_unlock(bitnum, addr);
	preempt_enable();
}

static inline bool bit_spin_is_locked(unsigned int bitnum, unsigned long *addr)
{
	return test_bit(bitnum, addr);
}

#endif
