/* SPDX-License-Identifier: MIT */
/*
 * Lists that readers walk without a lock while one writer at a time (under
 * the writer's own lock) adds and removes entries, as in Linux's
 * include/linux/rculist.h, with the smallest grace period that is correct
 * here:
 *
 *   - A reader walks with list_for_each_entry_rcu() with interrupts off
 *     (arch_irq_save()), and must not keep a pointer to an entry after it
 *     turns them back on. (Linux calls such a section RCU-sched.)
 *   - A writer publishes an entry with list_add_tail_rcu() only once the
 *     entry is fully built: the release store orders its contents before
 *     the pointer that makes it reachable.
 *   - list_del_rcu() unlinks an entry but leaves its next pointer alone, so
 *     a reader standing on it walks on to the rest of the list. The entry
 *     may be freed only after synchronize_rcu() returns.
 *   - synchronize_rcu() (kernel/rcu.c) returns once every CPU has taken an
 *     interrupt: each walk that began before the call has ended by then.
 *     It sends IPIs and waits for them, so it may not be called with
 *     interrupts off.
 */
#ifndef PAGODA_RCULIST_H
#define PAGODA_RCULIST_H

#include <pagoda/atomic.h>
#include <pagoda/list.h>

void synchronize_rcu(void);

/* Add n at the end of head, visible to readers only once n is built. */
static inline void list_add_tail_rcu(struct list_head *n, struct list_head *head)
{
	struct list_head *prev = head->prev;

	n->next = head;
	n->prev = prev;
	smp_store_release(&prev->next, n);
	head->prev = n;
}

/* Unlink e; e->next still leads readers on. Free e after synchronize_rcu(). */
static inline void list_del_rcu(struct list_head *e)
{
	WRITE_ONCE(e->prev->next, e->next);
	e->next->prev = e->prev;
}

#define list_for_each_entry_rcu(pos, head, member)                            \
	for (struct list_head *__n = smp_load_acquire(&(head)->next);        \
	     __n != (head) && ((pos) = list_entry(__n, __typeof__(*(pos)), member), 1); \
	     __n = smp_load_acquire(&__n->next))

#endif
