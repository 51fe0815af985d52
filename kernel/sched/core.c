// SPDX-License-Identifier: MIT
/*
 * The scheduler: per-CPU run queues, weighted fair choice, preemption,
 * sleep and wake-up, load balancing, the idle loop.
 *
 * Fairness, CFS-style: a task's vruntime grows by its run time scaled by
 * 1024/weight, and each CPU runs the queued task with the least. A nice -5
 * task (weight ~3.05x) thus gets ~3x the CPU of a nice 0 one. The tick
 * preempts the running task once it is SCHED_GRAN_NS of vruntime ahead of
 * the leftmost waiter; a woken task preempts at once when it is that far
 * behind. A task that slept comes back at the queue's min_vruntime less a
 * small credit, so sleeping earns no unbounded priority.
 *
 * Locking: each run queue has a bare ticket lock, taken with interrupts
 * off. A task's state and queue membership change only under the lock of
 * the run queue named by task->cpu. The lock is held across the context
 * switch and released by the task switched to (finish_task_switch), so a
 * task is never visible to another CPU half switched out.
 *
 * Balancing: idle CPUs pull a waiting task from the busiest queue, and a
 * busy CPU's tick kicks (IPI) a sleeping idle CPU when it has tasks waiting;
 * a wake-up goes to the least loaded CPU the task may use.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/watchdog.h>
#include "sched.h"

#define SCHED_GRAN_NS (2 * NSEC_PER_MSEC)
#define SLEEPER_CREDIT_NS (3 * NSEC_PER_MSEC)

struct rq runqueues[NR_CPUS];
bool scheduler_running;

struct task init_task = {
	.state = TASK_RUNNING,
	.cpus_allowed = CPU_MASK_ALL,
	.weight = 1024,
	.name = "init",
};

u32 nice_to_weight(int nice)
{
	u64 w = 1024 << 10; /* extra precision while multiplying */

	for (int n = nice; n > 0; n--)
		w = w * 4 / 5;
	for (int n = nice; n < 0; n++)
		w = w * 5 / 4;
	return (u32)MAX(w >> 10, 2u);
}

bool need_resched(void)
{
	return READ_ONCE(this_cpu()->need_resched);
}

unsigned int rq_nr_running(unsigned int cpu)
{
	struct rq *rq = &runqueues[cpu];

	return READ_ONCE(rq->nr_queued) + (READ_ONCE(rq->curr) != rq->idle);
}

bool task_on_cpu(const struct task *t)
{
	unsigned int cpu = READ_ONCE(t->cpu);

	return cpu < NR_CPUS && READ_ONCE(runqueues[cpu].curr) == t;
}

/*
 * Ask cpu to reschedule; true if that takes an IPI. The caller sends it
 * once it has dropped the run-queue lock it holds: the IPI makes the
 * target take that lock at once, and under a hypervisor the waker's vCPU
 * may be preempted the moment it kicks the other one (QEMU wakes the
 * target vCPU's thread, which can take the waker's host CPU). Sent under
 * the lock, the target then spun on it for a whole host time slice: `bench
 * wakeup` showed a tenth of cross-CPU wake-ups 8-20 ms late on a loaded
 * host, all of it between the IPI's arrival and the switch.
 */
static bool set_need_resched(unsigned int cpu)
{
	WRITE_ONCE(cpu_locals[cpu].need_resched, true);
	return cpu != smp_processor_id() && cpu_online(cpu);
}

void resched_cpu(unsigned int cpu)
{
	if (set_need_resched(cpu))
		arch_send_ipi(cpu, IPI_RESCHEDULE);
}

/*
 * After a resume from hibernation the cycle counter has restarted: the
 * stamps this CPU took from it before the snapshot belong to another
 * count. Take them again, so that nobody is charged (and no idle time
 * counted) across the jump. Interrupts off, on the CPU concerned.
 */
void sched_clock_resumed(void)
{
	struct rq *rq = &runqueues[smp_processor_id()];
	struct cpu_local *c = this_cpu();

	if (rq->curr)
		rq->curr->exec_start = arch_cycles();
	if (c->idle_since)
		c->idle_since = arch_cycles();
}

/* Charge the running task for the time since it was last charged. */
static void update_curr(struct rq *rq)
{
	struct task *c = rq->curr;
	u64 now = arch_cycles(), ns;

	if (!c)
		return;
	ns = cycles_to_ns(now - c->exec_start);
	c->exec_start = now;
	c->sum_exec_ns += ns;
	if (c == rq->idle)
		return;
	c->vruntime += ns * 1024 / c->weight;
	if (list_empty(&rq->queue)) {
		rq->min_vruntime = MAX(rq->min_vruntime, c->vruntime);
	} else {
		struct task *first = list_first_entry(&rq->queue, struct task, run_node);

		rq->min_vruntime = MAX(rq->min_vruntime, MIN(c->vruntime, first->vruntime));
	}
}

static void enqueue(struct rq *rq, struct task *t)
{
	struct task *pos;

	/* Sorted by vruntime, FIFO among equals: O(n), fine for tens of tasks. */
	list_for_each_entry(pos, &rq->queue, run_node) {
		if ((s64)(t->vruntime - pos->vruntime) < 0) {
			list_add_tail(&t->run_node, &pos->run_node);
			goto added;
		}
	}
	list_add_tail(&t->run_node, &rq->queue);
added:
	t->on_rq = true;
	rq->nr_queued++;
}

static void dequeue(struct rq *rq, struct task *t)
{
	list_del_init(&t->run_node);
	t->on_rq = false;
	rq->nr_queued--;
}

/* Lock the run queue t is on; t->cpu may change until we hold it. */
static struct rq *task_rq_lock(struct task *t)
{
	for (;;) {
		unsigned int cpu = READ_ONCE(t->cpu);
		struct rq *rq = &runqueues[cpu];

		arch_spin_lock(&rq->lock);
		if (READ_ONCE(t->cpu) == cpu)
			return rq;
		arch_spin_unlock(&rq->lock);
	}
}

u64 task_sched_runtime(struct task *t)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = task_rq_lock(t);
	u64 ns;

	/* Charge the running task first, so its turn so far is counted. */
	if (rq->curr == t)
		update_curr(rq);
	ns = t->sum_exec_ns;
	arch_spin_unlock(&rq->lock);
	arch_irq_restore(flags);
	return ns;
}

/* Both queues, lower CPU number first, so two CPUs never deadlock. */
static void double_rq_lock(struct rq *a, struct rq *b)
{
	if (a == b) {
		arch_spin_lock(&a->lock);
	} else if (a < b) {
		arch_spin_lock(&a->lock);
		arch_spin_lock(&b->lock);
	} else {
		arch_spin_lock(&b->lock);
		arch_spin_lock(&a->lock);
	}
}

static void double_rq_unlock(struct rq *a, struct rq *b)
{
	arch_spin_unlock(&a->lock);
	if (a != b)
		arch_spin_unlock(&b->lock);
}

/* Move queued t from src to dst (both locked), keeping its place in line. */
static void migrate_queued(struct rq *src, struct rq *dst, struct task *t, unsigned int dst_cpu)
{
	dequeue(src, t);
	t->vruntime = t->vruntime - src->min_vruntime + dst->min_vruntime;
	WRITE_ONCE(t->cpu, dst_cpu);
	enqueue(dst, t);
}

static bool should_preempt(struct rq *rq, struct task *t)
{
	struct task *c = rq->curr;

	return c == rq->idle || (s64)(c->vruntime - t->vruntime) > (s64)SCHED_GRAN_NS;
}

/* The least loaded online CPU t may use, preferring where it was. */
static unsigned int select_cpu(struct task *t)
{
	unsigned int best = t->cpu, cpu, best_load = ~0u;

	if (cpu_online(best) && (t->cpus_allowed & (1ULL << best)))
		best_load = rq_nr_running(best);
	for_each_online_cpu(cpu) {
		unsigned int load;

		if (!(t->cpus_allowed & (1ULL << cpu)))
			continue;
		load = rq_nr_running(cpu);
		if (load < best_load) {
			best = cpu;
			best_load = load;
		}
	}
	return best;
}

bool wake_up_process(struct task *t)
{
	unsigned long flags;
	struct rq *rq;
	unsigned int target;
	bool kick;
	u64 rel;

	/*
	 * The waker's half of set_current_state()'s barrier: the condition it
	 * just set is visible before it reads t->state (Linux's
	 * smp_mb__after_spinlock() in try_to_wake_up()). Taking the lock
	 * alone would let that store slip past the read on arm64.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	flags = arch_irq_save();
	rq = task_rq_lock(t);

	if (t->state == TASK_RUNNING || t->state == TASK_DEAD) {
		arch_spin_unlock(&rq->lock);
		arch_irq_restore(flags);
		return false;
	}
	if (t->on_rq || rq->curr == t) {
		/* Not yet switched out (or preempted while going to sleep). */
		WRITE_ONCE(t->state, TASK_RUNNING);
		arch_spin_unlock(&rq->lock);
		arch_irq_restore(flags);
		return true;
	}
	/* Asleep, off every queue: it may go anywhere it is allowed. */
	rel = t->state == TASK_NEW ? 0 : t->vruntime - rq->min_vruntime;
	WRITE_ONCE(t->state, TASK_RUNNING);
	target = select_cpu(t);
	if (target != t->cpu) {
		WRITE_ONCE(t->cpu, target);
		arch_spin_unlock(&rq->lock);
		rq = &runqueues[target];
		arch_spin_lock(&rq->lock);
	}
	t->vruntime = rq->min_vruntime + rel;
	if ((s64)(t->vruntime - (rq->min_vruntime - SLEEPER_CREDIT_NS)) < 0)
		t->vruntime = rq->min_vruntime - SLEEPER_CREDIT_NS;
	enqueue(rq, t);
	kick = should_preempt(rq, t) && set_need_resched(target);
	arch_spin_unlock(&rq->lock);
	if (kick)
		arch_send_ipi(target, IPI_RESCHEDULE);
	arch_irq_restore(flags);
	return true;
}

/*
 * A runnable task just switched off a CPU its affinity no longer allows
 * (set_cpus_allowed()): queue it where it may run, as a wake-up would.
 * It is off every CPU and every queue, so nobody else moves it meanwhile
 * (a wake-up sees TASK_RUNNING and leaves it).
 */
static void push_task(struct task *t)
{
	unsigned int target = select_cpu(t);
	struct rq *rq = &runqueues[target];
	bool kick;

	arch_spin_lock(&rq->lock);
	WRITE_ONCE(t->cpu, target);
	t->vruntime = rq->min_vruntime;
	enqueue(rq, t);
	kick = should_preempt(rq, t) && set_need_resched(target);
	arch_spin_unlock(&rq->lock);
	if (kick)
		arch_send_ipi(target, IPI_RESCHEDULE);
}

void finish_task_switch(void)
{
	struct rq *rq = this_rq();
	struct task *prev = rq->prev, *push = rq->push;
	bool prev_dead, idle_changed;
	unsigned long waiter;

	/*
	 * Read what we need of prev while the lock still pins it here. Once
	 * it is dropped, a prev that was preempted may be pulled by another
	 * CPU, run, exit and be freed before this CPU looks at it again.
	 */
	prev_dead = prev && prev->state == TASK_DEAD && !prev->on_rq;
	idle_changed = prev && prev->is_idle != current->is_idle;
	/* Consumed: a later finish on this CPU must not see it again. */
	rq->prev = NULL;
	rq->push = NULL;
	arch_spin_unlock(&rq->lock);
	if (push)
		push_task(push);
	/* The tick follows busy/idle: idle CPUs take no timer interrupts. */
	if (idle_changed)
		clockevent_reprogram();
	if (!prev_dead)
		return;
	/* prev's stack is free now: its joiner may have it. */
	waiter = smp_load_acquire(&prev->join_state);
	do {
		/* Only the switch that took a dead task off its CPU gets here. */
		if (waiter == JOIN_WAKING || waiter == JOIN_EXITED) {
			pr_err("sched: BUG: exited thread %s switched out twice (CPU %u)\n",
			       prev->name, smp_processor_id());
			return;
		}
	} while (!__atomic_compare_exchange_n(&prev->join_state, &waiter, JOIN_WAKING,
					      false, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE));
	if (waiter)
		wake_up_process((struct task *)waiter);
	smp_store_release(&prev->join_state, JOIN_EXITED);
}

/*
 * Pick the next task and switch to it. preempt: the running task is being
 * preempted (it stays queued whatever its state); otherwise it runs
 * schedule() itself and leaves the queue unless it is TASK_RUNNING.
 */
static void __schedule(bool preempt)
{
	struct task *prev = current, *next;
	unsigned long flags = arch_irq_save();
	struct rq *rq = this_rq();

	arch_spin_lock(&rq->lock);
	WRITE_ONCE(this_cpu()->need_resched, false);
	touch_softlockup_watchdog(); /* a CPU that schedules is not stuck */
	update_curr(rq);
	rq->push = NULL;
	if (prev != rq->idle && (preempt || prev->state == TASK_RUNNING)) {
		/* Still runnable: here, or, if its affinity says no, elsewhere once off this CPU. */
		if (prev->cpus_allowed & (1ULL << smp_processor_id()))
			enqueue(rq, prev);
		else
			rq->push = prev;
	}
	if (list_empty(&rq->queue)) {
		next = rq->idle;
	} else {
		next = list_first_entry(&rq->queue, struct task, run_node);
		dequeue(rq, next);
	}
	rq->curr = next;
	next->exec_start = arch_cycles();
	if (next == prev) {
		arch_spin_unlock(&rq->lock);
		arch_irq_restore(flags);
		return;
	}
	next->nr_switches++;
	rq->prev = prev;
	this_cpu()->current_task = next;
	/* FP/SIMD and the thread pointer: only user tasks have any. */
	if (prev->ustate)
		arch_user_state_save(prev->ustate);
	if (next->ustate)
		arch_user_state_load(next->ustate);
	arch_set_current(next);
	arch_context_switch(&prev->sp, next->sp);
	/* Back in prev, maybe on another CPU, switched to by someone. */
	finish_task_switch();
	arch_irq_restore(flags);
}

void schedule(void)
{
	if (unlikely(current->preempt_count)) {
		lockdep_counts.sched_while_atomic++;
		pr_err("BUG: scheduling while atomic: %s, preempt_count %d\n",
		       current->name, current->preempt_count);
		lockdep_print_held();
		arch_stack_walk(print_stack_frame, NULL);
	}
	__schedule(false);
}

void preempt_schedule(void)
{
	if (current->preempt_count || !arch_irqs_enabled() || in_interrupt() ||
	    !scheduler_running)
		return;
	__schedule(true);
}

/* From irq_exit(): the interrupted task may be preempted. */
void preempt_schedule_irq(void)
{
	if (current->preempt_count || !scheduler_running)
		return;
	__schedule(true);
}

void yield(void)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = this_rq();

	arch_spin_lock(&rq->lock);
	update_curr(rq);
	if (!list_empty(&rq->queue)) {
		struct task *last = list_last_entry(&rq->queue, struct task, run_node);

		/* Go to the back of the line. */
		if ((s64)(current->vruntime - last->vruntime) < 0)
			current->vruntime = last->vruntime;
	}
	arch_spin_unlock(&rq->lock);
	arch_irq_restore(flags);
	schedule();
}

void scheduler_tick(void)
{
	struct rq *rq = this_rq();
	unsigned int cpu, me = smp_processor_id();
	bool waiting;

	/* Could this CPU schedule now? Idle or preemptible: it is not stuck. */
	watchdog_tick(rq->curr == rq->idle || !current->preempt_count);

	arch_spin_lock(&rq->lock);
	update_curr(rq);
	waiting = !list_empty(&rq->queue);
	if (waiting && rq->curr != rq->idle) {
		struct task *first = list_first_entry(&rq->queue, struct task, run_node);

		if ((s64)(rq->curr->vruntime - first->vruntime) > (s64)SCHED_GRAN_NS)
			WRITE_ONCE(this_cpu()->need_resched, true);
	}
	arch_spin_unlock(&rq->lock);
	/* Someone waits here while a CPU sleeps: wake it to pull work. */
	if (waiting && (++rq->ticks % 2) == 0) {
		for_each_online_cpu(cpu) {
			if (cpu != me && rq_nr_running(cpu) == 0) {
				resched_cpu(cpu);
				break;
			}
		}
	}
}

/* An idle CPU takes a waiting task from the busiest queue. */
static bool pull_task(void)
{
	unsigned int me = smp_processor_id(), cpu, busiest = me, most = 0;
	struct rq *src, *dst = &runqueues[me];
	struct task *t, *found = NULL;
	unsigned long flags;

	for_each_online_cpu(cpu) {
		unsigned int q = READ_ONCE(runqueues[cpu].nr_queued);

		if (cpu != me && q > most) {
			most = q;
			busiest = cpu;
		}
	}
	if (busiest == me)
		return false;
	src = &runqueues[busiest];
	flags = arch_irq_save();
	double_rq_lock(src, dst);
	list_for_each_entry(t, &src->queue, run_node) {
		if (t->cpus_allowed & (1ULL << me)) {
			found = t;
			break;
		}
	}
	if (found)
		migrate_queued(src, dst, found, me);
	double_rq_unlock(src, dst);
	arch_irq_restore(flags);
	return found != NULL;
}

void cpu_idle_loop(void)
{
	struct cpu_local *c = this_cpu();
	struct rq *rq = this_rq();

	for (;;) {
		if (!READ_ONCE(rq->nr_queued) && num_online_cpus() > 1)
			pull_task();
		arch_irq_disable();
		if (READ_ONCE(c->need_resched) || READ_ONCE(rq->nr_queued)) {
			arch_irq_enable();
			schedule();
			continue;
		}
		c->idle_since = arch_cycles();
		arch_cpu_idle(); /* returns after an interrupt, enabled */
		c->idle_cycles += arch_cycles() - c->idle_since;
		c->idle_since = 0;
	}
}

/*
 * The running task may not stay on this CPU: switch away, and
 * finish_task_switch() queues it on an allowed CPU once it is off this
 * one (Linux moves it with the CPU's stopper thread). Asking another CPU
 * to wake it instead could land before it had switched out, and a
 * wake-up then leaves a running task where it is: under TCG that race
 * was won often enough to keep a thread looping here for seconds.
 */
static void yield_to_allowed_cpu(void)
{
	while (!(current->cpus_allowed & (1ULL << smp_processor_id())))
		schedule();
}

int set_cpus_allowed(struct task *t, u64 mask)
{
	unsigned long flags;
	struct rq *rq;
	unsigned int cpu;
	bool any = false, kick = false;

	for_each_online_cpu(cpu)
		any |= !!(mask & (1ULL << cpu));
	if (!any)
		return -EINVAL;
	flags = arch_irq_save();
	rq = task_rq_lock(t);
	t->cpus_allowed = mask;
	if (!(mask & (1ULL << t->cpu)) && t->on_rq) {
		/* Queued on a CPU it may no longer use: move it now. */
		unsigned int to = __builtin_ctzll(mask & ((1ULL << num_possible_cpus()) - 1));
		struct rq *dst = &runqueues[to];

		arch_spin_unlock(&rq->lock);
		double_rq_lock(rq, dst);
		if (t->on_rq && t->cpu == (unsigned int)(rq - runqueues)) {
			migrate_queued(rq, dst, t, to);
			kick = set_need_resched(to);
		}
		double_rq_unlock(rq, dst);
		if (kick)
			arch_send_ipi(to, IPI_RESCHEDULE);
		arch_irq_restore(flags);
		return 0;
	}
	arch_spin_unlock(&rq->lock);
	arch_irq_restore(flags);
	/* Running where it may not: it moves at its next switch. */
	if (t == current && !(mask & (1ULL << smp_processor_id())))
		yield_to_allowed_cpu();
	return 0;
}

void set_user_nice(struct task *t, int nice)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = task_rq_lock(t);

	nice = MAX(-20, MIN(19, nice));
	if (t->on_rq) {
		dequeue(rq, t);
		t->nice = nice;
		t->weight = nice_to_weight(nice);
		enqueue(rq, t);
	} else {
		t->nice = nice;
		t->weight = nice_to_weight(nice);
	}
	arch_spin_unlock(&rq->lock);
	arch_irq_restore(flags);
}

void sched_init(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rq *rq = &runqueues[cpu];

		arch_spin_lock_init(&rq->lock);
		INIT_LIST_HEAD(&rq->queue);
	}
	init_task.weight = nice_to_weight(0);
	init_task.exec_start = arch_cycles();
	/* idle/0 first: creating it marks it current; init_task is. */
	runqueues[0].idle = idle_task_create(0);
	if (!runqueues[0].idle)
		panic("sched: no memory for the idle thread");
	runqueues[0].curr = &init_task;
	task_list_add(&init_task);
	scheduler_running = true;
}

void current_stack_bounds(u64 *lo, u64 *hi)
{
	struct task *t = current;

	*lo = (u64)t->stack;
	*hi = (u64)t->stack + t->stack_size;
}
