// SPDX-License-Identifier: MIT
/*
 * What makes the ticket spinlock and the mutex more than "correct": they
 * serve waiters in the order they came, and a mutex's waiters sleep instead
 * of burning a CPU. The contention suites (locking_test.c) cannot see
 * either: an unfair test-and-set lock or a mutex that spins passes them.
 * These cases stage the order on purpose (and grade the locks lab,
 * docs/labs/locks.md):
 *
 *   - spinlock: while this thread holds a bare ticket lock, a waiter on
 *     another CPU takes its ticket, then a second waiter on a third CPU;
 *     released, the lock goes to the first, then the second. Taking a
 *     ticket is seen in the lock itself: next runs ahead of owner by one
 *     per waiter.
 *   - mutex: while this thread holds a mutex, a first and then a second
 *     waiter must each be asleep (TASK_UNINTERRUPTIBLE, off the CPU) on
 *     its wait list; unlocked, it is handed to the first, then the second.
 */
#include <pagoda/atomic.h>
#include <pagoda/ktest.h>
#include <pagoda/mutex.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>
#include <pagoda/task.h>
#include <pagoda/time.h>

#define WAIT_NS (10 * NSEC_PER_SEC) /* generous: a loaded host may stall a vCPU */

/*
 * Once the waiter is about to take the lock, how long its ticket may take
 * to show, or it may take to fall asleep on the mutex: far more than a
 * descheduled vCPU's host time slice, far less than WAIT_NS, so that a
 * lock that hands out no tickets or a mutex whose waiters spin (the lab's
 * stubs) fails in seconds rather than ten.
 */
#define TICKET_NS (2 * NSEC_PER_SEC)

struct waiter {
	arch_spinlock_t *spin;
	struct mutex *mutex;
	atomic_t *served;
	int turn;		/* 1: served first after the holder */
	int trying;		/* set just before it takes the lock */
};

static int spin_waiter(void *p)
{
	struct waiter *w = p;

	smp_store_release(&w->trying, 1);
	arch_spin_lock(w->spin);
	w->turn = atomic_inc_return(w->served);
	arch_spin_unlock(w->spin);
	return 0;
}

static int mutex_waiter(void *p)
{
	struct waiter *w = p;

	smp_store_release(&w->trying, 1);
	mutex_lock(w->mutex);
	w->turn = atomic_inc_return(w->served);
	mutex_unlock(w->mutex);
	return 0;
}

/* Tickets handed out and not yet served: the holder's plus each waiter's. */
static unsigned int tickets_out(arch_spinlock_t *l)
{
	return (u16)(__atomic_load_n(&l->next, __ATOMIC_ACQUIRE) -
		     __atomic_load_n(&l->owner, __ATOMIC_ACQUIRE));
}

/* Wait until n tickets are out, the last one w's. */
static bool wait_tickets(arch_spinlock_t *l, unsigned int n, const struct waiter *w)
{
	u64 end = ktime_get_ns() + WAIT_NS;
	bool trying = false;

	while (tickets_out(l) != n) {
		u64 now = ktime_get_ns();

		if (!trying && smp_load_acquire(&w->trying)) {
			trying = true;
			end = MIN(end, now + TICKET_NS);
		}
		if (now > end)
			return false;
		arch_cpu_relax();
	}
	return true;
}

static struct task *start_on(int (*fn)(void *), struct waiter *w, unsigned int cpu,
			     const char *name)
{
	struct task *t = kthread_create(fn, w, "%s", name);

	if (t) {
		set_cpus_allowed(t, 1ULL << cpu);
		wake_up_process(t);
	}
	return t;
}

static void test_ticket_spinlock_is_fifo(struct ktest *t)
{
	static arch_spinlock_t lock = ARCH_SPINLOCK_INIT;
	atomic_t served = ATOMIC_INIT(0);
	struct waiter a = { .spin = &lock, .served = &served };
	struct waiter b = { .spin = &lock, .served = &served };
	unsigned int me, cpu_a, cpu_b;
	u64 saved = current->cpus_allowed;
	struct task *ta, *tb;
	bool a_queued, b_queued;

	if (num_online_cpus() < 3) {
		ktest_skip(t, "needs 3 CPUs: the holder and two spinning waiters");
		return;
	}
	/* Stay on one CPU while holding the lock; the waiters spin elsewhere. */
	set_cpus_allowed(current, 1ULL << smp_processor_id());
	me = smp_processor_id();
	cpu_a = (me + 1) % num_online_cpus();
	cpu_b = (me + 2) % num_online_cpus();

	arch_spin_lock(&lock);
	ta = start_on(spin_waiter, &a, cpu_a, "fifo-spin-a");
	a_queued = ta && wait_tickets(&lock, 2, &a);
	tb = a_queued ? start_on(spin_waiter, &b, cpu_b, "fifo-spin-b") : NULL;
	b_queued = tb && wait_tickets(&lock, 3, &b);
	arch_spin_unlock(&lock);
	if (ta)
		kthread_join(ta);
	if (tb)
		kthread_join(tb);
	set_cpus_allowed(current, saved);

	KEXPECT_TRUE(t, a_queued); /* a ticket lock: next - owner counts waiters */
	KEXPECT_TRUE(t, b_queued);
	KEXPECT_EQ(t, a.turn, 1);  /* first come, first served */
	KEXPECT_EQ(t, b.turn, 2);
	KEXPECT_FALSE(t, arch_spin_is_locked(&lock));
}

/* Wait until t (waiter w) sleeps on m's wait list, the waiters-th there. */
static bool wait_asleep(struct task *t, const struct waiter *w, struct mutex *m,
			unsigned int waiters)
{
	u64 end = ktime_get_ns() + WAIT_NS;
	bool trying = false;

	for (;;) {
		unsigned int n = 0;
		struct list_head *pos;
		unsigned long flags;

		spin_lock_irqsave(&m->wait_lock, flags);
		list_for_each(pos, &m->waiters)
			n++;
		spin_unlock_irqrestore(&m->wait_lock, flags);
		if (n == waiters && READ_ONCE(t->state) == TASK_UNINTERRUPTIBLE &&
		    !task_on_cpu(t))
			return true;
		/* a waiter that spins instead (the lab's stub) fails in TICKET_NS */
		if (!trying && smp_load_acquire(&w->trying)) {
			trying = true;
			end = MIN(end, ktime_get_ns() + TICKET_NS);
		}
		if (ktime_get_ns() > end)
			return false;
		msleep(1);
	}
}

static void test_mutex_waiters_sleep_in_order(struct ktest *t)
{
	static DEFINE_MUTEX(m);
	atomic_t served = ATOMIC_INIT(0);
	struct waiter a = { .mutex = &m, .served = &served };
	struct waiter b = { .mutex = &m, .served = &served };
	struct task *ta, *tb;
	bool a_slept, b_slept;

	mutex_lock(&m);
	ta = kthread_run(mutex_waiter, &a, "fifo-mutex-a");
	a_slept = ta && wait_asleep(ta, &a, &m, 1);
	tb = a_slept ? kthread_run(mutex_waiter, &b, "fifo-mutex-b") : NULL;
	b_slept = tb && wait_asleep(tb, &b, &m, 2);
	mutex_unlock(&m);
	if (ta)
		kthread_join(ta);
	if (tb)
		kthread_join(tb);

	KEXPECT_TRUE(t, a_slept); /* queued on the mutex and off the CPU */
	KEXPECT_TRUE(t, b_slept);
	KEXPECT_EQ(t, a.turn, 1); /* handed over in order */
	KEXPECT_EQ(t, b.turn, 2);
	KEXPECT_FALSE(t, mutex_is_locked(&m));
}

static struct ktest_case fairness_cases[] = {
	KTEST_CASE(test_ticket_spinlock_is_fifo),
	KTEST_CASE(test_mutex_waiters_sleep_in_order),
	{}
};
KTEST_SUITE_FULL(lock_fairness, .cases = fairness_cases, .kernel_only = true);
