/* SPDX-License-Identifier: MIT */
/*
 * Spinning reader-writer locks (rwlock_t): many readers or one writer, for
 * short sections that mostly read. Built like Linux's queued rwlock: one
 * word counts readers and holds writer bits, and a ticket lock queues
 * whoever must wait, so a writer that arrives is not starved by new readers
 * (they queue behind it) and waiting is fair.
 */
#ifndef PAGODA_RWLOCK_H
#define PAGODA_RWLOCK_H

#include <pagoda/spinlock.h>

typedef struct {
	u32 cnts;              /* readers << 9 | writer bits */
	arch_spinlock_t wait;  /* the queue of waiters */
	struct lock_class *class;
	const char *name;
} rwlock_t;

#define __RW_LOCK_UNLOCKED(lname) { 0, ARCH_SPINLOCK_INIT, NULL, #lname }
#define DEFINE_RWLOCK(name) rwlock_t name = __RW_LOCK_UNLOCKED(name)

static inline void __rwlock_init(rwlock_t *l, struct lock_class *c)
{
	l->cnts = 0;
	arch_spin_lock_init(&l->wait);
	l->class = c;
	l->name = c->name;
}
#define rwlock_init(l) __rwlock_init(l, LOCK_CLASS_HERE(#l, LOCK_RW))

void read_lock(rwlock_t *l);
void read_unlock(rwlock_t *l);
void write_lock(rwlock_t *l);
void write_unlock(rwlock_t *l);
bool read_trylock(rwlock_t *l);
bool write_trylock(rwlock_t *l);
unsigned long _read_lock_irqsave(rwlock_t *l);
unsigned long _write_lock_irqsave(rwlock_t *l);
void read_unlock_irqrestore(rwlock_t *l, unsigned long flags);
void write_unlock_irqrestore(rwlock_t *l, unsigned long flags);
#define read_lock_irqsave(l, f) ((f) = _read_lock_irqsave(l))
#define write_lock_irqsave(l, f) ((f) = _write_lock_irqsave(l))

#endif
