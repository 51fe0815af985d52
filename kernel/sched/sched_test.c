// SPDX-License-Identifier: MIT
/*
 * Threads and the scheduler, on every CPU the machine has: create and
 * join, memory back to its baseline after thousands of threads,
 * preemption, affinity, weights, balancing, wake-ups that must not be
 * lost, completions in order, the workqueue.
 *
 * Nothing here asserts a duration. Waits that could hang on a bug use
 * generous timeouts (seconds) and then fail the case instead.
 */
#include <pagoda/completion.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/sched.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>
#include <pagoda/bitops.h>
#include <pagoda/wait.h>
#include <pagoda/workqueue.h>

#define HANG_NS (10 * NSEC_PER_SEC)

static int square(void *arg)
{
	long i = (long)arg;

	return (int)(i * i);
}

static void test_create_join(struct ktest *t)
{
	struct task *th[16];

	for (long i = 0; i < 16; i++) {
		th[i] = kthread_run(square, (void *)i, "sq%ld", i);
		KASSERT_TRUE(t, th[i] != NULL);
	}
	for (long i = 0; i < 16; i++)
		KEXPECT_EQ(t, kthread_join(th[i]), i * i);
}

static int exit_early(void *arg)
{
	kthread_exit((int)(long)arg + 1);
}

static void test_exit_code(struct ktest *t)
{
	struct task *th = kthread_run(exit_early, (void *)41, "exiter");

	KASSERT_TRUE(t, th != NULL);
	KEXPECT_EQ(t, kthread_join(th), 42);
}

static int nothing(void *arg)
{
	return (int)(long)arg;
}

/* Create and join in batches; returns the number of threads that failed. */
static int churn(int total, int batch)
{
	struct task *th[32];
	int bad = 0;

	for (int done = 0; done < total; done += batch) {
		for (int i = 0; i < batch; i++)
			th[i] = kthread_run(nothing, (void *)(long)(done + i), "churn");
		for (int i = 0; i < batch; i++)
			if (!th[i] || kthread_join(th[i]) != done + i)
				bad++;
	}
	return bad;
}

/*
 * Thousands of threads, and afterwards as many threads and as much free
 * memory as before. Each thread costs a 16 KiB stack, a guard page and a
 * task: a leak of even one per hundred would show as hundreds of pages.
 * The slack covers caches (slab, per-CPU page lists) that may keep a few.
 */
static void test_thousands_memory_baseline(struct ktest *t)
{
	unsigned int threads;
	unsigned long before, after;

	KEXPECT_EQ(t, churn(64, 16), 0); /* warm the caches */
	threads = nr_threads();
	before = nr_free_pages();
	KEXPECT_EQ(t, churn(2000, 24), 0);
	after = nr_free_pages();
	KEXPECT_EQ(t, nr_threads(), threads);
	KEXPECT_LE(t, before - MIN(before, after), 96);
}

struct spin_pair {
	volatile bool go, seen;
};

static int spin_until_seen(void *arg)
{
	struct spin_pair *p = arg;
	u64 end = ktime_get_ns() + HANG_NS;

	p->go = true;
	/* No yield, no sleep: only preemption lets the other thread run. */
	while (!p->seen && ktime_get_ns() < end)
		arch_cpu_relax();
	return p->seen;
}

static int set_seen(void *arg)
{
	struct spin_pair *p = arg;

	p->seen = true;
	return 0;
}

static void test_preemption(struct ktest *t)
{
	struct spin_pair p = { false, false };
	unsigned int cpu = num_online_cpus() - 1;
	struct task *a = kthread_create(spin_until_seen, &p, "spinner");
	struct task *b = kthread_create(set_seen, &p, "setter");

	KASSERT_TRUE(t, a && b);
	set_cpus_allowed(a, 1ULL << cpu);
	set_cpus_allowed(b, 1ULL << cpu);
	wake_up_process(a);
	while (!p.go)
		msleep(1);
	wake_up_process(b);
	KEXPECT_EQ(t, kthread_join(a), 1);
	kthread_join(b);
}

static int where_am_i(void *arg)
{
	unsigned int want = (unsigned int)(long)arg, wrong = 0;

	for (int i = 0; i < 30; i++) {
		if (smp_processor_id() != want)
			wrong++;
		if (i % 3 == 0)
			msleep(1);
		else
			yield();
	}
	return (int)wrong;
}

static void test_affinity(struct ktest *t)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct task *th = kthread_create(where_am_i, (void *)(long)cpu, "pin%u", cpu);

		KASSERT_TRUE(t, th != NULL);
		KASSERT_EQ(t, set_cpus_allowed(th, 1ULL << cpu), 0);
		wake_up_process(th);
		KEXPECT_EQ(t, kthread_join(th), 0);
	}
	/* Moving the running task itself. */
	KEXPECT_EQ(t, set_cpus_allowed(current, 1ULL << (num_online_cpus() - 1)), 0);
	KEXPECT_EQ(t, smp_processor_id(), num_online_cpus() - 1);
	KEXPECT_EQ(t, set_cpus_allowed(current, 1ULL), 0);
	KEXPECT_EQ(t, smp_processor_id(), 0u);
	KEXPECT_EQ(t, set_cpus_allowed(current, 0), -EINVAL);
	set_cpus_allowed(current, CPU_MASK_ALL);
}

struct busy_arg {
	u64 until;
	u64 cpus_seen;
};

static int busy(void *arg)
{
	struct busy_arg *b = arg;

	while (ktime_get_ns() < b->until) {
		__atomic_fetch_or(&b->cpus_seen, 1ULL << smp_processor_id(), __ATOMIC_RELAXED);
		arch_cpu_relax();
	}
	return 0;
}

/* More busy threads than CPUs, all created on this CPU: they must spread. */
static void test_load_balance(struct ktest *t)
{
	unsigned int n = num_online_cpus();
	struct busy_arg b = { ktime_get_ns() + 300 * NSEC_PER_MSEC, 0 };
	struct task *th[2 * NR_CPUS];

	if (n < 2) {
		ktest_skip(t, "one CPU");
		return;
	}
	for (unsigned int i = 0; i < 2 * n; i++)
		th[i] = kthread_run(busy, &b, "busy%u", i);
	for (unsigned int i = 0; i < 2 * n; i++)
		if (th[i])
			kthread_join(th[i]);
	for (unsigned int c = 0; c < n; c++)
		KEXPECT_TRUE(t, b.cpus_seen & (1ULL << c));
}

struct weighed {
	u64 until;
	volatile bool start;
};

static int hog(void *arg)
{
	struct weighed *w = arg;

	while (!w->start)
		arch_cpu_relax();
	while (ktime_get_ns() < w->until)
		arch_cpu_relax();
	return 0;
}

/*
 * Two CPU-bound threads on one CPU, nice 0 and nice 10, for 400 ms: the
 * nice 0 one's CPU time over the nice 10 one's.
 */
static bool weighed_run(struct ktest *t, unsigned int cpu, u64 *ra, u64 *rb)
{
	struct weighed w = { 0, false };
	struct task *a = kthread_create(hog, &w, "nice0");
	struct task *b = kthread_create(hog, &w, "nice10");

	if (!a || !b) {
		struct task *made = a ? a : b;

		w.start = true; /* until is 0: the one that was made ends at once */
		if (made) {
			wake_up_process(made);
			kthread_join(made);
		}
		return false;
	}
	set_cpus_allowed(a, 1ULL << cpu);
	set_cpus_allowed(b, 1ULL << cpu);
	set_user_nice(b, 10);
	w.until = ktime_get_ns() + 400 * NSEC_PER_MSEC;
	wake_up_process(a);
	wake_up_process(b);
	w.start = true;
	while (ktime_get_ns() < w.until)
		msleep(20);
	/* Read before join frees them: both have finished their loops. */
	while (a->state != TASK_DEAD || b->state != TASK_DEAD)
		msleep(5);
	*ra = a->sum_exec_ns;
	*rb = b->sum_exec_ns;
	kthread_join(a);
	kthread_join(b);
	ktest_log(t, "nice 0 ran %llu ms, nice 10 ran %llu ms",
		  (unsigned long long)(*ra / NSEC_PER_MSEC), (unsigned long long)(*rb / NSEC_PER_MSEC));
	return true;
}

/*
 * Weights 1024 and ~110: the nice 0 thread should get ~9x the CPU.
 * Asserted: at least 2x, a margin wide enough for emulator noise and
 * still impossible without weights (equal shares give 1x). Up to three
 * tries: under TCG on a loaded host a vCPU can be off the host's CPUs for
 * a good part of the 400 ms, and that time is charged to whichever thread
 * it stopped in (a run beside a fuzzing QEMU at load 6.6 failed once);
 * equal shares fail all three.
 */
static void test_weights(struct ktest *t)
{
	unsigned int cpu = num_online_cpus() - 1;
	u64 ra = 0, rb = 0;

	for (int i = 0; i < 3; i++) {
		KASSERT_TRUE(t, weighed_run(t, cpu, &ra, &rb));
		if (ra > 2 * rb)
			break;
	}
	KEXPECT_GT(t, ra, 2 * rb);
}

/*
 * Ping-pong through a wait queue: a lost wake-up hangs (then fails).
 * Up to 3,000 rounds, but once 1,000 are done and a second has gone, ping
 * makes its next move the last: four vCPUs on a busy host's two cores
 * once took 16 s for the 3,000 (0.6 ms a round quiet, 5 ms there), time
 * that buys no new interleavings.
 */
#define PINGPONG_MIN_ROUNDS 1000
struct pingpong {
	struct wait_queue_head wq;
	int turn; /* 0: ping's move, 1: pong's */
	int rounds, failures;
	u64 until; /* after this (ktime), no round past PINGPONG_MIN_ROUNDS starts */
};

static int ping(void *arg, int me)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < READ_ONCE(pp->rounds); i++) {
		if (!wait_event_timeout(pp->wq, READ_ONCE(pp->turn) == me, HANG_NS)) {
			__atomic_fetch_add(&pp->failures, 1, __ATOMIC_RELAXED);
			return -1;
		}
		/*
		 * Set in ping's turn, before the move that hands pong its
		 * turn: pong, waiting in the same round, reads the new count
		 * when its loop comes round, and both stop after this round.
		 */
		if (me == 0 && i + 1 >= PINGPONG_MIN_ROUNDS && ktime_get_ns() > pp->until)
			WRITE_ONCE(pp->rounds, i + 1);
		WRITE_ONCE(pp->turn, !me);
		wake_up_all(&pp->wq);
	}
	return 0;
}

static int ping0(void *arg) { return ping(arg, 0); }
static int ping1(void *arg) { return ping(arg, 1); }

static void test_no_lost_wakeups(struct ktest *t)
{
	struct pingpong pp = { .turn = 0, .rounds = 3000 };
	struct task *a, *b;

	init_waitqueue_head(&pp.wq);
	pp.until = ktime_get_ns() + NSEC_PER_SEC;
	a = kthread_create(ping0, &pp, "ping");
	b = kthread_create(ping1, &pp, "pong");
	KASSERT_TRUE(t, a && b);
	if (num_online_cpus() > 1) {
		set_cpus_allowed(a, 1ULL << 0);
		set_cpus_allowed(b, 1ULL << 1);
	}
	wake_up_process(a);
	wake_up_process(b);
	KEXPECT_EQ(t, kthread_join(a), 0);
	KEXPECT_EQ(t, kthread_join(b), 0);
	KEXPECT_EQ(t, pp.failures, 0);
}

struct idle_wake {
	volatile int round;	/* the round the sleeper is to run next */
	volatile int ran;	/* the last round it ran */
	unsigned int cpu;	/* where it ran */
	int rounds;
};

static int idle_sleeper(void *arg)
{
	struct idle_wake *w = arg;

	for (int i = 1; i <= w->rounds; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (w->round >= i)
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		w->cpu = smp_processor_id();
		smp_store_release(&w->ran, i);
	}
	return 0;
}

/*
 * A task woken for an idle CPU runs there, started by the reschedule IPI
 * (an idle CPU takes no ticks: without the IPI it would sleep on), now
 * sent after the waker has dropped that CPU's run-queue lock. Each round
 * the sleeper must run on its CPU, and that CPU count the IPIs.
 */
static void test_wake_idle_cpu_by_ipi(struct ktest *t)
{
	struct idle_wake w = { .rounds = 50 };
	unsigned int other = num_online_cpus() - 1;
	u64 ipis0 = 0, deadline;
	struct task *th;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "one CPU");
		return;
	}
	KASSERT_EQ(t, set_cpus_allowed(current, 1ULL), 0);
	th = kthread_create(idle_sleeper, &w, "idlewake");
	KASSERT_TRUE(t, th != NULL);
	set_cpus_allowed(th, 1ULL << other);
	for (int i = 1; i <= w.rounds; i++) {
		u64 until = ktime_get_ns() + HANG_NS;

		/* Asleep (off its queue) before the wake-up, so that it takes an IPI. */
		while (i > 1 && (READ_ONCE(th->state) == TASK_RUNNING || task_on_cpu(th)) &&
		       ktime_get_ns() < until)
			arch_cpu_relax();
		w.round = i;
		wake_up_process(th);
		while (smp_load_acquire(&w.ran) < i && ktime_get_ns() < until)
			arch_cpu_relax();
		if (w.ran < i) {
			KEXPECT_EQ(t, w.ran, i);
			break;
		}
		KEXPECT_EQ(t, w.cpu, other);
		if (i == 1)
			ipis0 = READ_ONCE(cpu_locals[other].ipis[IPI_RESCHEDULE]);
	}
	w.round = w.rounds;
	wake_up_process(th);
	KEXPECT_EQ(t, kthread_join(th), 0);
	/*
	 * Most rounds took an IPI; one may not have (the CPU busy with a task
	 * the sleeper did not preempt at once, which the tick then did).
	 */
	deadline = ktime_get_ns() + HANG_NS;
	while (READ_ONCE(cpu_locals[other].ipis[IPI_RESCHEDULE]) - ipis0 < (u64)w.rounds / 2 &&
	       ktime_get_ns() < deadline)
		arch_cpu_relax();
	KEXPECT_GE(t, READ_ONCE(cpu_locals[other].ipis[IPI_RESCHEDULE]) - ipis0,
		   (u64)w.rounds / 2);
	set_cpus_allowed(current, CPU_MASK_ALL);
}

#define CHAIN 12
struct chain {
	struct completion done[CHAIN + 1];
	int order[CHAIN];
	int next;
	spinlock_t lock;
	struct completion all;
	int passed_all;
};

struct link {
	struct chain *c;
	int i;
};

static int chain_link(void *arg)
{
	struct link *l = arg;
	struct chain *c = l->c;

	wait_for_completion(&c->done[l->i]);
	spin_lock(&c->lock);
	c->order[c->next++] = l->i;
	spin_unlock(&c->lock);
	complete(&c->done[l->i + 1]);
	wait_for_completion(&c->all);
	__atomic_fetch_add(&c->passed_all, 1, __ATOMIC_RELAXED);
	return 0;
}

/* Each thread waits for its predecessor's completion: they finish in order. */
static void test_completions_in_order(struct ktest *t)
{
	static struct chain c;
	static struct link links[CHAIN];
	struct task *th[CHAIN];

	spin_lock_init(&c.lock);
	c.next = 0;
	c.passed_all = 0;
	init_completion(&c.all);
	for (int i = 0; i <= CHAIN; i++)
		init_completion(&c.done[i]);
	/* Started in reverse, so creation order cannot explain the result. */
	for (int i = CHAIN - 1; i >= 0; i--) {
		links[i] = (struct link){ &c, i };
		th[i] = kthread_run(chain_link, &links[i], "link%d", i);
		KASSERT_TRUE(t, th[i] != NULL);
	}
	complete(&c.done[0]);
	KEXPECT_TRUE(t, wait_for_completion_timeout(&c.done[CHAIN], HANG_NS));
	complete_all(&c.all);
	for (int i = 0; i < CHAIN; i++)
		kthread_join(th[i]);
	for (int i = 0; i < CHAIN; i++)
		KEXPECT_EQ(t, c.order[i], i);
	KEXPECT_EQ(t, c.passed_all, CHAIN);
	KEXPECT_TRUE(t, try_wait_for_completion(&c.all)); /* complete_all stays done */
}

static atomic_t work_count;
static struct work_struct works[256];

static void count_work(struct work_struct *w)
{
	if ((w - works) % 16 == 0)
		msleep(1); /* work may sleep */
	atomic_inc(&work_count);
}

static void test_workqueue(struct ktest *t)
{
	struct workqueue_struct *wq = alloc_workqueue("ktest", 3);
	int queued = 0;

	KASSERT_TRUE(t, wq != NULL);
	atomic_set(&work_count, 0);
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < 256; i++) {
			INIT_WORK(&works[i], count_work);
			queued += queue_work(wq, &works[i]);
		}
		flush_workqueue(wq);
		/* Everything queued before the flush has run, none twice. */
		KEXPECT_EQ(t, atomic_read(&work_count), queued);
	}
	KEXPECT_EQ(t, queued, 4 * 256);
	destroy_workqueue(wq);
	KEXPECT_TRUE(t, system_wq != NULL);
}

static DECLARE_COMPLETION(gate);

static void wait_at_gate(struct work_struct *w)
{
	wait_for_completion(&gate);
}

/* While an item is pending, queueing it again does nothing. */
static void test_workqueue_pending(struct ktest *t)
{
	struct workqueue_struct *wq = alloc_workqueue("ktest1", 1);
	struct work_struct blocker;

	KASSERT_TRUE(t, wq != NULL);
	reinit_completion(&gate);
	atomic_set(&work_count, 0);
	INIT_WORK(&blocker, wait_at_gate);
	INIT_WORK(&works[1], count_work);
	KEXPECT_TRUE(t, queue_work(wq, &blocker));
	KEXPECT_TRUE(t, queue_work(wq, &works[1]));
	KEXPECT_FALSE(t, queue_work(wq, &works[1]));
	complete(&gate);
	KEXPECT_TRUE(t, flush_work(&works[1]) || atomic_read(&work_count) == 1);
	KEXPECT_EQ(t, atomic_read(&work_count), 1);
	KEXPECT_FALSE(t, test_bit(0, &works[1].pending));
	destroy_workqueue(wq);
}

/*
 * system_wq: items that sleep until a later item has run. Each item of
 * the chain waits for the next one's completion, so all of them sleep at
 * once: with one worker per CPU and no more, the items past the CPU count
 * never ran (the dm-snapshot hang under async writes was this shape: a
 * commit asleep on a FUA write whose completion was a queued item).
 */
#define WQ_CHAIN 24

static struct {
	struct work_struct work[WQ_CHAIN];
	struct completion ran[WQ_CHAIN];
	atomic_t timeouts;
} chain;

static void chain_work(struct work_struct *w)
{
	unsigned int i = (unsigned int)(w - chain.work);

	if (i + 1 < WQ_CHAIN && !wait_for_completion_timeout(&chain.ran[i + 1], 2 * NSEC_PER_SEC))
		atomic_inc(&chain.timeouts);
	complete_all(&chain.ran[i]); /* for the item before and for the test */
}

static void test_workqueue_items_wait_for_later_items(struct ktest *t)
{
	unsigned int before = workqueue_nr_workers(system_wq);

	atomic_set(&chain.timeouts, 0);
	for (int i = 0; i < WQ_CHAIN; i++) {
		init_completion(&chain.ran[i]);
		INIT_WORK(&chain.work[i], chain_work);
	}
	for (int i = 0; i < WQ_CHAIN; i++)
		KEXPECT_TRUE(t, queue_work(system_wq, &chain.work[i]));
	for (int i = 0; i < WQ_CHAIN; i++)
		wait_for_completion(&chain.ran[i]);
	flush_workqueue(system_wq);
	KEXPECT_EQ(t, atomic_read(&chain.timeouts), 0);
	KEXPECT_GE(t, workqueue_nr_workers(system_wq), (unsigned int)WQ_CHAIN);
	ktest_log(t, "system_wq workers: %u before, %u after", before,
		  workqueue_nr_workers(system_wq));
}

static void test_all_cpus_online(struct ktest *t)
{
	KEXPECT_EQ(t, num_online_cpus(), num_possible_cpus());
	KEXPECT_GE(t, num_online_cpus(), 1u);
	ktest_log(t, "%u CPUs online", num_online_cpus());
}

static struct ktest_case sched_cases[] = {
	KTEST_CASE(test_all_cpus_online),
	KTEST_CASE(test_workqueue_items_wait_for_later_items),
	KTEST_CASE(test_create_join),
	KTEST_CASE(test_exit_code),
	KTEST_CASE(test_thousands_memory_baseline),
	KTEST_CASE(test_preemption),
	KTEST_CASE(test_affinity),
	KTEST_CASE(test_load_balance),
	KTEST_CASE(test_weights),
	KTEST_CASE(test_no_lost_wakeups),
	KTEST_CASE(test_wake_idle_cpu_by_ipi),
	KTEST_CASE(test_completions_in_order),
	KTEST_CASE(test_workqueue),
	KTEST_CASE(test_workqueue_pending),
	{}
};
KTEST_SUITE_FULL(sched, .cases = sched_cases, .kernel_only = true);
