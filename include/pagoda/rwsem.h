/* SPDX-License-Identifier: MIT */
/*
 * Read-write semaphores: many readers or one writer; waiters sleep. Fair:
 * once anyone waits, new readers queue behind it, so a writer is never
 * starved by a stream of readers. A writer's release lets the next writer
 * or every reader at the head of the queue in at once.
 */
#ifndef PAGODA_RWSEM_H
#define PAGODA_RWSEM_H

#include <pagoda/list.h>
#include <pagoda/spinlock.h>

struct rw_semaphore {
	long count;            /* readers inside, and writer and waiters flags (rwsem.c) */
	spinlock_t wait_lock;  /* protects waiters; count changes atomically */
	struct list_head waiters;
	struct lock_class *class;
	const char *name;
};

#define __RWSEM_INITIALIZER(sname)                                          \
	{ 0, __SPIN_LOCK_UNLOCKED(sname.wait_lock), LIST_HEAD_INIT(sname.waiters), \
	  NULL, #sname }
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)

void __init_rwsem(struct rw_semaphore *s, struct lock_class *c);
#define init_rwsem(s) __init_rwsem(s, LOCK_CLASS_HERE(#s, LOCK_RWSEM))

void down_read(struct rw_semaphore *s);
bool down_read_trylock(struct rw_semaphore *s);
void up_read(struct rw_semaphore *s);
void down_write(struct rw_semaphore *s);
bool down_write_trylock(struct rw_semaphore *s);
void up_write(struct rw_semaphore *s);
/* Turn a held write lock into a read lock, letting queued readers in. */
void downgrade_write(struct rw_semaphore *s);

#endif
