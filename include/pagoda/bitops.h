/* SPDX-License-Identifier: MIT */
/*
 * Atomic bit operations on an array of unsigned long, Linux's names.
 * set_bit/clear_bit order nothing; test_and_set_bit is fully ordered;
 * the _lock/_unlock forms have acquire/release order for bit locks.
 */
#ifndef PAGODA_BITOPS_H
#define PAGODA_BITOPS_H

#include <pagoda/types.h>

#define BITS_PER_LONG 64
#define BIT(n) (1UL << (n))
#define BIT_WORD(n) ((n) / BITS_PER_LONG)
#define BIT_MASK(n) (1UL << ((n) % BITS_PER_LONG))

static inline void set_bit(unsigned int n, volatile unsigned long *a)
{
	__atomic_fetch_or(&a[BIT_WORD(n)], BIT_MASK(n), __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned int n, volatile unsigned long *a)
{
	__atomic_fetch_and(&a[BIT_WORD(n)], ~BIT_MASK(n), __ATOMIC_RELAXED);
}

static inline bool test_bit(unsigned int n, const volatile unsigned long *a)
{
	return __atomic_load_n(&a[BIT_WORD(n)], __ATOMIC_RELAXED) & BIT_MASK(n);
}

static inline bool test_and_set_bit(unsigned int n, volatile unsigned long *a)
{
	return __atomic_fetch_or(&a[BIT_WORD(n)], BIT_MASK(n), __ATOMIC_SEQ_CST) &
	       BIT_MASK(n);
}

static inline bool test_and_clear_bit(unsigned int n, volatile unsigned long *a)
{
	return __atomic_fetch_and(&a[BIT_WORD(n)], ~BIT_MASK(n), __ATOMIC_SEQ_CST) &
	       BIT_MASK(n);
}

static inline bool test_and_set_bit_lock(unsigned int n, volatile unsigned long *a)
{
	return __atomic_fetch_or(&a[BIT_WORD(n)], BIT_MASK(n), __ATOMIC_ACQUIRE) &
	       BIT_MASK(n);
}

static inline void clear_bit_unlock(unsigned int n, volatile unsigned long *a)
{
	__atomic_fetch_and(&a[BIT_WORD(n)], ~BIT_MASK(n), __ATOMIC_RELEASE);
}

#endif
