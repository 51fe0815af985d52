/* SPDX-License-Identifier: MIT */
/*
 * Lock classes, lock statistics and a small lock validator (lockdep).
 *
 * Every lock belongs to a class: the place that initialized it (a
 * spin_lock_init(&zone->lock) call site, a DEFINE_MUTEX(name)). All
 * zone locks share one class, as in Linux, so the statistics and the
 * ordering rules are about kinds of locks, not single objects.
 *
 * lockstat (parameter lockstat=, on by default): per class, how many
 * acquisitions, how many had to wait (contentions), total and longest wait
 * and hold time. The shell's `lockstat` prints them, `lockstat reset`
 * clears them.
 *
 * lockdep (parameter lockdep=, off by default, on in `make test`):
 *   - lock order: when a task takes B while holding A, the edge A -> B is
 *     recorded; if B -> ... -> A is already known, the two orders can
 *     deadlock against each other, and it says so with both chains;
 *   - sleeping in atomic context: might_sleep() (in mutex_lock, msleep...)
 *     complains when called with a spinlock held, interrupts off or from an
 *     interrupt handler.
 * A report is printed and counted; the kernel goes on.
 */
#ifndef PAGODA_LOCKDEP_H
#define PAGODA_LOCKDEP_H

#include <pagoda/types.h>

enum lock_kind {
	LOCK_SPIN, LOCK_RW, LOCK_MUTEX, LOCK_RWSEM, LOCK_KINDS
};

struct lock_class {
	const char *name;
	u8 kind;          /* enum lock_kind */
	u16 id;           /* 0 until registered at first use */
	/* lockstat, updated with relaxed atomics */
	u64 acquisitions, contentions;
	u64 wait_ns, wait_max_ns;
	u64 hold_ns, hold_max_ns;
};

/* One lock a task holds, with when it got it (for hold times). */
struct held_lock {
	struct lock_class *class;
	const void *lock;
	u64 acquired_at; /* arch_cycles() */
	bool read;
};
#define MAX_LOCK_DEPTH 24

/* A static class for a lock initialized at this call site. */
#define LOCK_CLASS_HERE(lname, lkind)                                        \
	({                                                                   \
		static struct lock_class __lc = { .name = lname, .kind = lkind }; \
		&__lc;                                                       \
	})
/*
 * A statically defined lock (DEFINE_SPINLOCK...) carries only its name; its
 * class is made at first use, one per lock, keyed by the lock's own class
 * slot (Linux keys static locks by address too). Never define one on the
 * stack: each would take a class; use spin_lock_init() there.
 */
struct lock_class *lock_class_static(struct lock_class **slot, const char *name, u8 kind);
#define LOCK_CLASS(l, kind) \
	(likely((l)->class) ? (l)->class : lock_class_static(&(l)->class, (l)->name, kind))

extern bool lockdep_enabled, lockstat_enabled;

/* Before waiting for a lock: check the order against the locks held. */
void lock_acquire(struct lock_class *c, const void *lock, bool read);
/* Got it: note it held; contended says it had to wait wait_cycles. */
void lock_acquired(struct lock_class *c, const void *lock, bool read,
		   bool contended, u64 wait_cycles);
void lock_release(struct lock_class *c, const void *lock);

/* Complain (once per site) when the caller may not sleep. */
void __might_sleep(const char *file, int line);
#define might_sleep() __might_sleep(__FILE__, __LINE__)

/* Reports so far, for the tests. */
struct lockdep_counts {
	unsigned long inversions, sleep_in_atomic, sched_while_atomic;
};
extern struct lockdep_counts lockdep_counts;
/* Registered classes, for lockstat and the tests. */
unsigned int lock_class_count(void);
struct lock_class *lock_class_get(unsigned int i);
void lockstat_reset(void);
/* Print the locks the current task holds. */
void lockdep_print_held(void);
/* Forget every recorded order (tests that stage inversions clean up). */
void lockdep_forget_class(struct lock_class *c);

#endif
