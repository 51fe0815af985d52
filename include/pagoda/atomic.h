/* SPDX-License-Identifier: MIT */
/*
 * Atomics and memory barriers with Linux's names, built on the compiler's
 * __atomic builtins so one file serves x86-64 and arm64.
 *
 * The two memory models differ, and these names hide the difference:
 *   x86-64 (TSO): loads are not reordered with loads, stores not with
 *     stores, and a load may pass an earlier store to a different address.
 *     So smp_rmb()/smp_wmb() compile to nothing (a compiler barrier), only
 *     smp_mb() needs an instruction (mfence or a locked op), and every
 *     atomic read-modify-write (lock xadd, lock cmpxchg) is a full barrier.
 *   arm64 (weakly ordered): any two accesses to different addresses may be
 *     seen out of order by another CPU. Barriers are real instructions
 *     (dmb ish, dmb ishld), acquire/release are ldar/stlr, and a relaxed
 *     atomic orders nothing.
 *
 * Linux's rule, kept here: operations that return a value (atomic_*_return,
 * atomic_fetch_*, atomic_cmpxchg, atomic_xchg, *_and_test) are fully
 * ordered; those that return nothing (atomic_inc, atomic_add...) and
 * atomic_read/atomic_set order nothing. Pair smp_wmb() on the writer with
 * smp_rmb() on the reader, or better, smp_store_release() with
 * smp_load_acquire(). docs/locking.md tells the longer story.
 */
#ifndef PAGODA_ATOMIC_H
#define PAGODA_ATOMIC_H

#include <pagoda/types.h>

/* The compiler may not move memory accesses across this; the CPU may. */
#define barrier() __asm__ volatile("" ::: "memory")
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
/* Earlier loads before later loads (acquire fence: x86 nothing, arm64 dmb ishld). */
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
/* Earlier stores before later stores (release fence: x86 nothing, arm64 dmb ish). */
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

/* Generic full-barrier exchange on any scalar or pointer. */
#define xchg(p, v) __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)
#define cmpxchg(p, old, new)                                                  \
	({                                                                    \
		__typeof__(*(p)) __old = (old);                               \
		__atomic_compare_exchange_n(p, &__old, new, false,            \
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED); \
		__old;                                                        \
	})

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
#define ATOMIC_INIT(i) { (i) }
#define ATOMIC64_INIT(i) { (i) }

#define __ATOMIC_OPS(pfx, T, t)                                               \
static inline t pfx##_read(const T *v) { return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); } \
static inline void pfx##_set(T *v, t i) { __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); } \
static inline void pfx##_add(t i, T *v) { __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); } \
static inline void pfx##_sub(t i, T *v) { __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); } \
static inline void pfx##_inc(T *v) { pfx##_add(1, v); }                      \
static inline void pfx##_dec(T *v) { pfx##_sub(1, v); }                      \
static inline t pfx##_add_return(t i, T *v) { return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_sub_return(t i, T *v) { return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_fetch_add(t i, T *v) { return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_fetch_sub(t i, T *v) { return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_inc_return(T *v) { return pfx##_add_return(1, v); }    \
static inline t pfx##_dec_return(T *v) { return pfx##_sub_return(1, v); }   \
static inline bool pfx##_inc_and_test(T *v) { return pfx##_add_return(1, v) == 0; } \
static inline bool pfx##_dec_and_test(T *v) { return pfx##_sub_return(1, v) == 0; } \
static inline t pfx##_xchg(T *v, t i) { return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_cmpxchg(T *v, t old, t new)                            \
{                                                                             \
	__atomic_compare_exchange_n(&v->counter, &old, new, false,            \
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);      \
	return old;                                                           \
}                                                                             \
/* On failure *old gets the value seen, ready for the next try. */           \
static inline bool pfx##_try_cmpxchg(T *v, t *old, t new)                    \
{                                                                             \
	return __atomic_compare_exchange_n(&v->counter, old, new, false,      \
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED); \
}

__ATOMIC_OPS(atomic, atomic_t, int)
__ATOMIC_OPS(atomic64, atomic64_t, s64)
#undef __ATOMIC_OPS

#endif
