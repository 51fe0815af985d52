// SPDX-License-Identifier: MIT
/*
 * Read-write semaphores, kept simple: count and a FIFO of waiters, all
 * under wait_lock. A newcomer gets in only when nobody waits (fairness);
 * otherwise it queues. Release grants the lock to the head of the queue:
 * one writer, or every reader up to the next writer, setting each
 * waiter's granted flag before waking it (no barging, no lost wake-up).
 */
#include <pagoda/atomic.h>
#include <pagoda/rwsem.h>
#include <pagoda/sched.h>

struct rwsem_waiter {
	struct list_head list;
	struct task *task;
	bool write;
	bool granted;
};

void __init_rwsem(struct rw_semaphore *s, struct lock_class *c)
{
	s->count = 0;
	__spin_lock_init(&s->wait_lock, LOCK_CLASS_HERE("rwsem.wait_lock", LOCK_SPIN));
	INIT_LIST_HEAD(&s->waiters);
	s->class = c;
	s->name = c->name;
}

/* Hand the lock to whoever heads the queue. wait_lock held. */
static void grant(struct rw_semaphore *s)
{
	struct rwsem_waiter *w, *n;

	list_for_each_entry_safe(w, n, &s->waiters, list) {
		if (w->write) {
			if (s->count != 0)
				return;
			s->count = -1;
		} else {
			if (s->count < 0)
				return;
			s->count++;
		}
		list_del(&w->list);
		smp_store_release(&w->granted, true);
		wake_up_process(w->task);
		if (w->write)
			return;
	}
}

static void down_common(struct rw_semaphore *s, bool write)
{
	struct rwsem_waiter w = { .task = current, .write = write };
	unsigned long flags;
	u64 t0 = 0;
	bool contended = false;

	might_sleep();
	lock_acquire(LOCK_CLASS(s, LOCK_RWSEM), s, !write);
	spin_lock_irqsave(&s->wait_lock, flags);
	if (list_empty(&s->waiters) && (write ? s->count == 0 : s->count >= 0)) {
		s->count += write ? -1 : 1;
	} else {
		contended = true;
		t0 = arch_cycles();
		list_add_tail(&w.list, &s->waiters);
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (smp_load_acquire(&w.granted))
				break;
			spin_unlock_irqrestore(&s->wait_lock, flags);
			schedule();
			spin_lock_irqsave(&s->wait_lock, flags);
		}
		__set_current_state(TASK_RUNNING);
	}
	spin_unlock_irqrestore(&s->wait_lock, flags);
	lock_acquired(LOCK_CLASS(s, LOCK_RWSEM), s, !write, contended, contended ? arch_cycles() - t0 : 0);
}

static bool try_common(struct rw_semaphore *s, bool write)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&s->wait_lock, flags);
	ok = list_empty(&s->waiters) && (write ? s->count == 0 : s->count >= 0);
	if (ok)
		s->count += write ? -1 : 1;
	spin_unlock_irqrestore(&s->wait_lock, flags);
	if (ok)
		lock_acquired(LOCK_CLASS(s, LOCK_RWSEM), s, !write, false, 0);
	return ok;
}

void down_read(struct rw_semaphore *s) { down_common(s, false); }
void down_write(struct rw_semaphore *s) { down_common(s, true); }
bool down_read_trylock(struct rw_semaphore *s) { return try_common(s, false); }
bool down_write_trylock(struct rw_semaphore *s) { return try_common(s, true); }

void up_read(struct rw_semaphore *s)
{
	unsigned long flags;

	lock_release(LOCK_CLASS(s, LOCK_RWSEM), s);
	spin_lock_irqsave(&s->wait_lock, flags);
	s->count--;
	grant(s);
	spin_unlock_irqrestore(&s->wait_lock, flags);
}

void up_write(struct rw_semaphore *s)
{
	unsigned long flags;

	lock_release(LOCK_CLASS(s, LOCK_RWSEM), s);
	spin_lock_irqsave(&s->wait_lock, flags);
	s->count = 0;
	grant(s);
	spin_unlock_irqrestore(&s->wait_lock, flags);
}

void downgrade_write(struct rw_semaphore *s)
{
	unsigned long flags;

	spin_lock_irqsave(&s->wait_lock, flags);
	s->count = 1;
	grant(s);
	spin_unlock_irqrestore(&s->wait_lock, flags);
}
