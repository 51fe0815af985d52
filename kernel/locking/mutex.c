// SPDX-License-Identifier: MIT
/*
 * Sleeping mutexes. Free: one compare-and-swap of owner from NULL to us.
 * Taken: queue on waiters under wait_lock and sleep. Unlock with waiters
 * hands the mutex straight to the first one (owner = that task) before
 * waking it, so nobody can barge in between and waiters are served in
 * order; the wait then ends when the waiter sees itself as owner.
 *
 * Before queueing, a locker spins a while as long as the owner is running
 * on another CPU (Linux's optimistic spinning): a short critical section
 * ends sooner than a sleep and a wake-up would take. It stops spinning
 * when the owner sleeps, when it should give up its own CPU, or after a
 * bound.
 *
 * wait_lock is a plain spin_lock(), interrupts left on, as Linux's: no
 * interrupt handler takes a mutex, so none can spin on it here. Masking
 * them cost every unlock two writes of DAIF on arm64, which QEMU's TCG
 * charges dearly (kernel/locking/rwsem.c has the numbers).
 */
#include <pagoda/atomic.h>
#include <pagoda/mutex.h>
#include <pagoda/sched.h>

struct mutex_waiter {
	struct list_head list;
	struct task *task;
};

void __mutex_init(struct mutex *m, struct lock_class *c)
{
	m->owner = NULL;
	__spin_lock_init(&m->wait_lock, LOCK_CLASS_HERE("mutex.wait_lock", LOCK_SPIN));
	INIT_LIST_HEAD(&m->waiters);
	m->class = c;
	m->name = c->name;
}

static bool try_take(struct mutex *m, struct task *me)
{
	struct task *none = NULL;

	return __atomic_compare_exchange_n(&m->owner, &none, me, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

#define SPIN_LIMIT 4000

static bool spin_on_owner(struct mutex *m, struct task *me)
{
	if (!arch_irqs_enabled() || preempt_count())
		return false;
	for (int i = 0; i < SPIN_LIMIT; i++) {
		struct task *o = __atomic_load_n(&m->owner, __ATOMIC_RELAXED);

		if (!o) {
			if (list_empty(&m->waiters) && try_take(m, me))
				return true;
		} else if (!task_on_cpu(o) || need_resched()) {
			return false;
		}
		arch_cpu_relax();
	}
	return false;
}

void mutex_lock(struct mutex *m)
{
	struct task *me = current;
	struct mutex_waiter w = { .task = me };
	u64 t0;

	might_sleep();
	lock_acquire(LOCK_CLASS(m, LOCK_MUTEX), m, false);
	if (likely(try_take(m, me))) {
		lock_acquired(LOCK_CLASS(m, LOCK_MUTEX), m, false, false, 0);
		return;
	}
	t0 = arch_cycles();
	if (spin_on_owner(m, me)) {
		lock_acquired(LOCK_CLASS(m, LOCK_MUTEX), m, false, true, arch_cycles() - t0);
		return;
	}
	spin_lock(&m->wait_lock);
	if (try_take(m, me)) {
		spin_unlock(&m->wait_lock);
		lock_acquired(LOCK_CLASS(m, LOCK_MUTEX), m, false, true, arch_cycles() - t0);
		return;
	}
	list_add_tail(&w.list, &m->waiters);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(&m->owner) == me)
			break;
		spin_unlock(&m->wait_lock);
		schedule();
		spin_lock(&m->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock(&m->wait_lock);
	lock_acquired(LOCK_CLASS(m, LOCK_MUTEX), m, false, true, arch_cycles() - t0);
}

bool mutex_trylock(struct mutex *m)
{
	if (!try_take(m, current))
		return false;
	lock_acquired(LOCK_CLASS(m, LOCK_MUTEX), m, false, false, 0);
	return true;
}

void mutex_unlock(struct mutex *m)
{
	lock_release(LOCK_CLASS(m, LOCK_MUTEX), m);
	spin_lock(&m->wait_lock);
	if (list_empty(&m->waiters)) {
		smp_store_release(&m->owner, NULL);
	} else {
		struct mutex_waiter *w = list_first_entry(&m->waiters, struct mutex_waiter, list);

		list_del(&w->list);
		smp_store_release(&m->owner, w->task);
		wake_up_process(w->task);
	}
	spin_unlock(&m->wait_lock);
}
