/* SPDX-License-Identifier: MIT */
/*
 * Sleeping mutexes: one owner; others sleep (they do not spin) until it is
 * handed to them, first come first served. Use one when the critical
 * section may sleep or is long; never in an interrupt handler.
 * The owner must be the one to unlock.
 */
#ifndef PAGODA_MUTEX_H
#define PAGODA_MUTEX_H

#include <pagoda/list.h>
#include <pagoda/spinlock.h>

struct mutex {
	struct task *owner;    /* NULL when free; set by cmpxchg or hand-off */
	spinlock_t wait_lock;  /* protects waiters */
	struct list_head waiters;
	struct lock_class *class;
	const char *name;
};

#define __MUTEX_INITIALIZER(mname)                                            \
	{ NULL, __SPIN_LOCK_UNLOCKED(mname.wait_lock), LIST_HEAD_INIT(mname.waiters), \
	  NULL, #mname }
#define DEFINE_MUTEX(mname) struct mutex mname = __MUTEX_INITIALIZER(mname)

void __mutex_init(struct mutex *m, struct lock_class *c);
#define mutex_init(m) __mutex_init(m, LOCK_CLASS_HERE(#m, LOCK_MUTEX))

void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
void mutex_unlock(struct mutex *m);
static inline bool mutex_is_locked(struct mutex *m)
{
	return __atomic_load_n(&m->owner, __ATOMIC_RELAXED) != NULL;
}

#endif
