// SPDX-License-Identifier: MIT
/*
 * Every locking primitive under real contention: one thread per CPU plus
 * one (so some also sleep or get preempted), each hammering a shared
 * structure whose invariants break if the lock fails to exclude:
 *   - a counter updated with a deliberately slow read-modify-write (read,
 *     pause, write back) must end at exactly threads x iterations;
 *   - readers must never see a writer inside, writers never anyone else,
 *     and readers of rwlock/rwsem must be seen overlapping;
 *   - seqlock readers must never accept a torn pair;
 *   - hlist_bl buckets must keep every node exactly once.
 * And lockdep, on purpose: an A-B / B-A inversion and a sleep under a
 * spinlock must each be reported once (and the run goes on).
 */
#include <pagoda/atomic.h>
#include <pagoda/ktest.h>
#include <pagoda/list_bl.h>
#include <pagoda/mutex.h>
#include <pagoda/rwlock.h>
#include <pagoda/rwsem.h>
#include <pagoda/sched.h>
#include <pagoda/seqlock.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>

#define ITERS 1000

struct hammer {
	void (*body)(struct hammer *h, int id, int i);
	int iters;
	volatile long counter;
	atomic_t inside_r, inside_w, max_readers, violations;
	void *lock;
};

static int hammer_thread(void *arg)
{
	struct hammer *h = arg;

	for (int i = 0; i < h->iters; i++)
		h->body(h, 0, i);
	return 0;
}

/* Run body on nthreads threads (0: CPUs + 1) and join them. */
static void hammer_run(struct hammer *h, int nthreads)
{
	struct task *th[NR_CPUS + 2];

	if (!nthreads)
		nthreads = (int)num_online_cpus() + 1;
	for (int i = 0; i < nthreads; i++)
		th[i] = kthread_run(hammer_thread, h, "hammer%d", i);
	for (int i = 0; i < nthreads; i++)
		if (th[i])
			kthread_join(th[i]);
}

/* The unprotected part: read, let others in, write back. */
static void slow_increment(struct hammer *h)
{
	long v = h->counter;

	for (int k = 0; k < 20; k++)
		arch_cpu_relax();
	h->counter = v + 1;
}

static void enter_write(struct hammer *h)
{
	if (atomic_inc_return(&h->inside_w) != 1 || atomic_read(&h->inside_r))
		atomic_inc(&h->violations);
}

static void leave_write(struct hammer *h)
{
	atomic_dec(&h->inside_w);
}

static void enter_read(struct hammer *h)
{
	int r = atomic_inc_return(&h->inside_r), m = atomic_read(&h->max_readers);

	if (atomic_read(&h->inside_w))
		atomic_inc(&h->violations);
	while (r > m && !atomic_try_cmpxchg(&h->max_readers, &m, r))
		;
}

static void leave_read(struct hammer *h)
{
	atomic_dec(&h->inside_r);
}

static int nr_hammers(void)
{
	return (int)num_online_cpus() + 1;
}

/* ---- spinlock ------------------------------------------------------------ */

static void spin_body(struct hammer *h, int id, int i)
{
	spinlock_t *l = h->lock;

	if (i & 1) {
		spin_lock(l);
		enter_write(h);
		slow_increment(h);
		leave_write(h);
		spin_unlock(l);
	} else {
		unsigned long flags;

		spin_lock_irqsave(l, flags);
		enter_write(h);
		slow_increment(h);
		leave_write(h);
		spin_unlock_irqrestore(l, flags);
	}
}

/*
 * Spinning primitives contend only across CPUs: on one CPU preemption is
 * off while a spinlock (or bit lock) is held and an atomic instruction
 * cannot be split, so with one CPU online these tests could not fail.
 */
static bool skip_on_one_cpu(struct ktest *t)
{
	if (num_online_cpus() > 1)
		return false;
	ktest_skip(t, "one CPU online: spinning primitives need a second CPU to contend");
	return true;
}

static void test_spinlock_contention(struct ktest *t)
{
	static DEFINE_SPINLOCK(test_spin);
	struct hammer h = { .body = spin_body, .iters = ITERS, .lock = &test_spin };
	u64 acq = LOCK_CLASS(&test_spin, LOCK_SPIN)->acquisitions;

	if (skip_on_one_cpu(t))
		return;
	hammer_run(&h, 0);
	KEXPECT_EQ(t, h.counter, (long)nr_hammers() * ITERS);
	KEXPECT_EQ(t, atomic_read(&h.violations), 0);
	KEXPECT_FALSE(t, spin_is_locked(&test_spin));
	if (lockstat_enabled)
		KEXPECT_EQ(t, LOCK_CLASS(&test_spin, LOCK_SPIN)->acquisitions - acq, (u64)nr_hammers() * ITERS);
	ktest_log(t, "%llu of %d acquisitions contended",
		  (unsigned long long)LOCK_CLASS(&test_spin, LOCK_SPIN)->contentions, nr_hammers() * ITERS);
}

/* A timer on this CPU takes the lock from interrupt context meanwhile. */
static DEFINE_SPINLOCK(irq_spin);
static long irq_counter;
static int irq_fires;

static void irq_side(struct timer_list *tl)
{
	spin_lock(&irq_spin);
	irq_counter++;
	spin_unlock(&irq_spin);
	if (++irq_fires < 50)
		mod_timer(tl, ktime_get_ns() + 200 * NSEC_PER_USEC);
}

static void test_spinlock_irqsave_vs_interrupt(struct ktest *t)
{
	struct timer_list tl;
	long mine = 0;

	irq_counter = 0;
	irq_fires = 0;
	timer_setup(&tl, irq_side);
	preempt_disable(); /* stay on the timer's CPU */
	mod_timer(&tl, ktime_get_ns());
	while (READ_ONCE(irq_fires) < 50) {
		unsigned long flags;

		spin_lock_irqsave(&irq_spin, flags);
		irq_counter++;
		mine++;
		spin_unlock_irqrestore(&irq_spin, flags);
	}
	preempt_enable();
	del_timer_sync(&tl);
	KEXPECT_EQ(t, irq_counter, mine + 50);
}

static void test_trylock(struct ktest *t)
{
	spinlock_t l;

	spin_lock_init(&l);
	KEXPECT_TRUE(t, spin_trylock(&l));
	KEXPECT_FALSE(t, spin_trylock(&l));
	spin_unlock(&l);
	KEXPECT_TRUE(t, spin_trylock(&l));
	spin_unlock(&l);
	KEXPECT_EQ(t, preempt_count(), 0);
}

/* ---- rwlock -------------------------------------------------------------- */

static void rw_body(struct hammer *h, int id, int i)
{
	rwlock_t *l = h->lock;

	if (i % 8 == 0) {
		write_lock(l);
		enter_write(h);
		slow_increment(h);
		leave_write(h);
		write_unlock(l);
	} else {
		read_lock(l);
		enter_read(h);
		/*
		 * Until two readers have been seen inside together, stay a
		 * while (bounded) for another to join: readers must be able
		 * to share the lock, but a reader this short may never meet
		 * another in time when the CPUs are emulated (on arm64 TCG
		 * the relax hint costs nothing).
		 */
		for (int k = 0; k < 100 || (k < 100000 && atomic_read(&h->max_readers) < 2); k++)
			arch_cpu_relax();
		leave_read(h);
		read_unlock(l);
	}
}

static void test_rwlock_contention(struct ktest *t)
{
	static DEFINE_RWLOCK(test_rw);
	struct hammer h = { .body = rw_body, .iters = ITERS, .lock = &test_rw };

	if (skip_on_one_cpu(t))
		return;
	hammer_run(&h, 0);
	KEXPECT_EQ(t, h.counter, (long)nr_hammers() * ((ITERS + 7) / 8));
	KEXPECT_EQ(t, atomic_read(&h.violations), 0);
	KEXPECT_EQ(t, test_rw.cnts, 0u);
	if (num_online_cpus() > 1)
		KEXPECT_GE(t, atomic_read(&h.max_readers), 2);
	ktest_log(t, "up to %d readers inside at once", atomic_read(&h.max_readers));
}

/* ---- mutex --------------------------------------------------------------- */

static void mutex_body(struct hammer *h, int id, int i)
{
	struct mutex *m = h->lock;

	mutex_lock(m);
	enter_write(h);
	slow_increment(h);
	if (i % 64 == 0)
		msleep(1); /* sleep holding it: the others must sleep too */
	else if (i % 16 == 0)
		yield();
	leave_write(h);
	mutex_unlock(m);
}

static void test_mutex_contention(struct ktest *t)
{
	static DEFINE_MUTEX(test_mutex);
	struct hammer h = { .body = mutex_body, .iters = 300, .lock = &test_mutex };

	hammer_run(&h, 0);
	KEXPECT_EQ(t, h.counter, (long)nr_hammers() * 300);
	KEXPECT_EQ(t, atomic_read(&h.violations), 0);
	KEXPECT_FALSE(t, mutex_is_locked(&test_mutex));
	KEXPECT_TRUE(t, mutex_trylock(&test_mutex));
	KEXPECT_FALSE(t, mutex_trylock(&test_mutex));
	mutex_unlock(&test_mutex);
}

/* ---- rw_semaphore -------------------------------------------------------- */

static void rwsem_body(struct hammer *h, int id, int i)
{
	struct rw_semaphore *s = h->lock;

	if (i % 6 == 0) {
		down_write(s);
		enter_write(h);
		slow_increment(h);
		leave_write(h);
		up_write(s);
	} else {
		down_read(s);
		enter_read(h);
		if (i % 6 == 1)
			msleep(1); /* readers sleep inside: they must overlap */
		leave_read(h);
		up_read(s);
	}
}

static void test_rwsem_contention(struct ktest *t)
{
	static DECLARE_RWSEM(test_rwsem);
	struct hammer h = { .body = rwsem_body, .iters = 300, .lock = &test_rwsem };

	hammer_run(&h, 0);
	KEXPECT_EQ(t, h.counter, (long)nr_hammers() * 50);
	KEXPECT_EQ(t, atomic_read(&h.violations), 0);
	KEXPECT_GE(t, atomic_read(&h.max_readers), 2);
	KEXPECT_EQ(t, test_rwsem.count, 0);
	ktest_log(t, "up to %d readers inside at once", atomic_read(&h.max_readers));
}

/* ---- seqlock ------------------------------------------------------------- */

static DEFINE_SEQLOCK(test_seq);
static volatile u64 seq_a, seq_b; /* invariant: seq_b == 3 * seq_a */
static volatile bool seq_stop;

static int seq_writer(void *arg)
{
	for (u64 i = 1; i <= 20000; i++) {
		write_seqlock(&test_seq);
		seq_a = i;
		for (int k = 0; k < 10; k++)
			arch_cpu_relax();
		seq_b = 3 * i;
		write_sequnlock(&test_seq);
	}
	seq_stop = true;
	return 0;
}

static int seq_reader(void *arg)
{
	int torn = 0;
	long reads = 0;

	while (!seq_stop) {
		unsigned int s;
		u64 a, b;

		do {
			s = read_seqbegin(&test_seq);
			a = seq_a;
			b = seq_b;
		} while (read_seqretry(&test_seq, s));
		if (b != 3 * a)
			torn++;
		reads++;
	}
	return torn ? -torn : (reads > 0);
}

static void test_seqlock_readers(struct ktest *t)
{
	struct task *w, *r[NR_CPUS];
	unsigned int n = MAX(num_online_cpus(), 2u) - 1;

	seq_stop = false;
	seq_a = seq_b = 0;
	for (unsigned int i = 0; i < n; i++)
		r[i] = kthread_run(seq_reader, NULL, "seqr%u", i);
	w = kthread_run(seq_writer, NULL, "seqw");
	KASSERT_TRUE(t, w != NULL);
	kthread_join(w);
	for (unsigned int i = 0; i < n; i++)
		if (r[i])
			KEXPECT_EQ(t, kthread_join(r[i]), 1); /* read, never torn */
	KEXPECT_EQ(t, seq_b, 3 * seq_a);
}

/* ---- bit spinlocks and hlist_bl ------------------------------------------ */

#define BUCKETS 4
#define NODES_PER_THREAD 64
static struct hlist_bl_head table[BUCKETS];

struct bl_item {
	struct hlist_bl_node node;
	int owner, key;
};

static int bl_worker(void *arg)
{
	int me = (int)(long)arg, bad = 0;
	static struct bl_item items[NR_CPUS + 1][NODES_PER_THREAD];
	struct bl_item *mine = items[me];

	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < NODES_PER_THREAD; i++) {
			struct hlist_bl_head *b = &table[i % BUCKETS];

			mine[i] = (struct bl_item){ .owner = me, .key = i };
			hlist_bl_lock(b);
			hlist_bl_add_head(&mine[i].node, b);
			hlist_bl_unlock(b);
		}
		for (int i = 0; i < NODES_PER_THREAD; i++) {
			struct hlist_bl_head *b = &table[i % BUCKETS];
			struct hlist_bl_node *pos;
			struct bl_item *it;
			int found = 0;

			hlist_bl_lock(b);
			hlist_bl_for_each_entry(it, pos, b, node)
				found += it->owner == me && it->key == i;
			if (found == 1)
				hlist_bl_del(&mine[i].node);
			hlist_bl_unlock(b);
			bad += found != 1;
		}
	}
	return bad;
}

static void test_hlist_bl_contention(struct ktest *t)
{
	struct task *th[NR_CPUS + 1];
	int n = nr_hammers();

	if (skip_on_one_cpu(t))
		return;
	for (int i = 0; i < BUCKETS; i++)
		INIT_HLIST_BL_HEAD(&table[i]);
	for (int i = 0; i < n; i++)
		th[i] = kthread_run(bl_worker, (void *)(long)i, "bl%d", i);
	for (int i = 0; i < n; i++)
		if (th[i])
			KEXPECT_EQ(t, kthread_join(th[i]), 0);
	for (int i = 0; i < BUCKETS; i++) {
		KEXPECT_TRUE(t, hlist_bl_empty(&table[i]));
		KEXPECT_FALSE(t, hlist_bl_is_locked(&table[i]));
	}
}

/* ---- atomics ------------------------------------------------------------- */

static atomic_t at_counter;
static atomic64_t at_cas;

static void atomic_body(struct hammer *h, int id, int i)
{
	s64 old = atomic64_read(&at_cas);

	atomic_inc(&at_counter);
	while (!atomic64_try_cmpxchg(&at_cas, &old, old + 2))
		;
}

static void test_atomics_contention(struct ktest *t)
{
	struct hammer h = { .body = atomic_body, .iters = ITERS };

	if (skip_on_one_cpu(t))
		return;
	atomic_set(&at_counter, 0);
	atomic64_set(&at_cas, 0);
	hammer_run(&h, 0);
	KEXPECT_EQ(t, atomic_read(&at_counter), nr_hammers() * ITERS);
	KEXPECT_EQ(t, atomic64_read(&at_cas), 2LL * nr_hammers() * ITERS);
	KEXPECT_TRUE(t, atomic_dec_and_test(&(atomic_t)ATOMIC_INIT(1)));
}

/* ---- lockdep, on purpose --------------------------------------------------- */

static void test_lockdep_catches_inversion(struct ktest *t)
{
	static DEFINE_SPINLOCK(lock_a);
	static DEFINE_SPINLOCK(lock_c);
	bool was = lockdep_enabled;
	unsigned long before = lockdep_counts.inversions;
	spinlock_t lock_b;

	spin_lock_init(&lock_b);
	lockdep_enabled = true;
	/* A then B: learned. */
	spin_lock(&lock_a);
	spin_lock(&lock_b);
	spin_unlock(&lock_b);
	spin_unlock(&lock_a);
	KEXPECT_EQ(t, lockdep_counts.inversions, before);
	ktest_expect_reports(t, true);
	/* B then A: the reverse order, reported (one thread: no real deadlock). */
	spin_lock(&lock_b);
	spin_lock(&lock_a);
	spin_unlock(&lock_a);
	spin_unlock(&lock_b);
	KEXPECT_EQ(t, lockdep_counts.inversions, before + 1);
	/* Through a third class: C -> A learned, A -> B known, so B -> C closes a cycle. */
	spin_lock(&lock_c);
	spin_lock(&lock_a);
	spin_unlock(&lock_a);
	spin_unlock(&lock_c);
	KEXPECT_EQ(t, lockdep_counts.inversions, before + 1);
	spin_lock(&lock_b);
	spin_lock(&lock_c);
	spin_unlock(&lock_c);
	spin_unlock(&lock_b);
	KEXPECT_EQ(t, lockdep_counts.inversions, before + 2);
	/* The same order again is no news. */
	spin_lock(&lock_a);
	spin_lock(&lock_b);
	spin_unlock(&lock_b);
	spin_unlock(&lock_a);
	KEXPECT_EQ(t, lockdep_counts.inversions, before + 2);
	ktest_expect_reports(t, false);
	KEXPECT_EQ(t, current->lockdep_depth, 0);
	lockdep_enabled = was;
	lockdep_forget_class(LOCK_CLASS(&lock_a, LOCK_SPIN));
	lockdep_forget_class(LOCK_CLASS(&lock_b, LOCK_SPIN));
	lockdep_forget_class(LOCK_CLASS(&lock_c, LOCK_SPIN));
}

static void test_lockdep_catches_sleep_in_atomic(struct ktest *t)
{
	static DEFINE_SPINLOCK(atomic_lock);
	bool was = lockdep_enabled;
	unsigned long before = lockdep_counts.sleep_in_atomic;

	lockdep_enabled = true;
	might_sleep(); /* fine here */
	KEXPECT_EQ(t, lockdep_counts.sleep_in_atomic, before);
	ktest_expect_reports(t, true);
	spin_lock(&atomic_lock);
	might_sleep(); /* what mutex_lock() or msleep() would say here */
	spin_unlock(&atomic_lock);
	ktest_expect_reports(t, false);
	KEXPECT_EQ(t, lockdep_counts.sleep_in_atomic, before + 1);
	lockdep_enabled = was;
}

static void test_lockstat_counts(struct ktest *t)
{
	static DEFINE_SPINLOCK(counted);
	bool was = lockstat_enabled;

	lockstat_enabled = true;
	for (int i = 0; i < 100; i++) {
		spin_lock(&counted);
		spin_unlock(&counted);
	}
	KEXPECT_EQ(t, LOCK_CLASS(&counted, LOCK_SPIN)->acquisitions, 100u);
	KEXPECT_EQ(t, LOCK_CLASS(&counted, LOCK_SPIN)->contentions, 0u);
	KEXPECT_EQ(t, current->lockdep_depth, 0);
	lockstat_enabled = was;
}

static struct ktest_case locking_cases[] = {
	KTEST_CASE(test_trylock),
	KTEST_CASE(test_spinlock_contention),
	KTEST_CASE(test_spinlock_irqsave_vs_interrupt),
	KTEST_CASE(test_rwlock_contention),
	KTEST_CASE(test_mutex_contention),
	KTEST_CASE(test_rwsem_contention),
	KTEST_CASE(test_seqlock_readers),
	KTEST_CASE(test_hlist_bl_contention),
	KTEST_CASE(test_atomics_contention),
	KTEST_CASE(test_lockstat_counts),
	KTEST_CASE(test_lockdep_catches_inversion),
	KTEST_CASE(test_lockdep_catches_sleep_in_atomic),
	{}
};
KTEST_SUITE_FULL(locking, .cases = locking_cases, .kernel_only = true);
