// SPDX-License-Identifier: MIT
/*
 * Kernel threads: creation, the first instructions of a new thread, exit,
 * join, and the `ps` command.
 *
 * A thread is a struct task plus a kernel stack. Exit cannot free the
 * stack it is running on: the task marks itself TASK_DEAD and switches
 * away; the next task, in finish_task_switch(), records that the dead one
 * is off its stack and wakes its joiner, who frees both.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/err.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/vmalloc.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "sched.h"

/*
 * The task from the slab, the stack from vmalloc: its unmapped guard page
 * turns an overflow into a page fault instead of silent corruption. The
 * word at the bottom is checked at free time too, for overruns that
 * skipped the guard page.
 */
#define STACK_END_MAGIC 0x57ac6e9d57ac6e9dULL

static LIST_HEAD(all_tasks);
static arch_spinlock_t tasks_lock;
static int next_pid;
static unsigned int live_threads;

struct task *task_alloc(void)
{
	struct task *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->stack = vmalloc(THREAD_STACK_SIZE);
	if (!t->stack) {
		kfree(t);
		return NULL;
	}
	t->stack_size = THREAD_STACK_SIZE;
	*(u64 *)t->stack = STACK_END_MAGIC;
	return t;
}

void task_free(struct task *t)
{
	if (*(u64 *)t->stack != STACK_END_MAGIC)
		pr_err("sched: thread %s overran its stack\n", t->name);
	vfree(t->stack);
	kfree(t);
}

void task_list_add(struct task *t)
{
	unsigned long flags = arch_irq_save();

	arch_spin_lock(&tasks_lock);
	t->pid = next_pid++;
	list_add_tail(&t->tasks, &all_tasks);
	live_threads++;
	arch_spin_unlock(&tasks_lock);
	arch_irq_restore(flags);
}

void task_for_each(void (*fn)(struct task *t, void *arg), void *arg)
{
	unsigned long flags = arch_irq_save();
	struct task *t;

	arch_spin_lock(&tasks_lock);
	list_for_each_entry(t, &all_tasks, tasks)
		fn(t, arg);
	arch_spin_unlock(&tasks_lock);
	arch_irq_restore(flags);
}

static void task_list_del(struct task *t)
{
	unsigned long flags = arch_irq_save();

	arch_spin_lock(&tasks_lock);
	list_del(&t->tasks);
	live_threads--;
	arch_spin_unlock(&tasks_lock);
	arch_irq_restore(flags);
}

unsigned int nr_threads(void)
{
	return READ_ONCE(live_threads);
}

static struct task *task_new(int (*fn)(void *), void *arg, unsigned int cpu)
{
	struct task *t = task_alloc();

	if (!t)
		return NULL;
	t->state = TASK_NEW;
	t->cpu = cpu;
	t->cpus_allowed = CPU_MASK_ALL;
	t->weight = nice_to_weight(0);
	t->fn = fn;
	t->arg = arg;
	INIT_LIST_HEAD(&t->run_node);
	t->sp = arch_thread_stack_init((char *)t->stack + t->stack_size);
	return t;
}

struct task *kthread_create(int (*fn)(void *), void *arg, const char *namefmt, ...)
{
	struct task *t;
	va_list ap;

	preempt_disable();
	t = task_new(fn, arg, smp_processor_id());
	preempt_enable();
	if (!t)
		return NULL;
	va_start(ap, namefmt);
	vsnprintf(t->name, sizeof(t->name), namefmt, ap);
	va_end(ap);
	task_list_add(t);
	return t;
}

/*
 * A thread that must have a given pid (a process put back by restore,
 * kernel/cr/): ERR_PTR(-EEXIST) when a live task has it. The check and
 * the claim are one step under tasks_lock; later pids start above it.
 */
struct task *kthread_create_pid(int pid, int (*fn)(void *), void *arg, const char *name)
{
	struct task *t, *o;
	unsigned long flags;
	bool taken = false;

	if (pid <= 0)
		return ERR_PTR(-EINVAL);
	preempt_disable();
	t = task_new(fn, arg, smp_processor_id());
	preempt_enable();
	if (!t)
		return ERR_PTR(-ENOMEM);
	strlcpy(t->name, name, sizeof(t->name));
	flags = arch_irq_save();
	arch_spin_lock(&tasks_lock);
	list_for_each_entry(o, &all_tasks, tasks)
		taken |= o->pid == pid;
	if (!taken) {
		t->pid = pid;
		if (next_pid <= pid)
			next_pid = pid + 1;
		list_add_tail(&t->tasks, &all_tasks);
		live_threads++;
	}
	arch_spin_unlock(&tasks_lock);
	arch_irq_restore(flags);
	if (taken) {
		task_free(t);
		return ERR_PTR(-EEXIST);
	}
	return t;
}

/* Is pid some live (or not yet joined) task's? */
bool pid_in_use(int pid)
{
	struct task *o;
	unsigned long flags = arch_irq_save();
	bool taken = false;

	arch_spin_lock(&tasks_lock);
	list_for_each_entry(o, &all_tasks, tasks)
		taken |= o->pid == pid;
	arch_spin_unlock(&tasks_lock);
	arch_irq_restore(flags);
	return taken;
}

struct task *idle_task_create(unsigned int cpu)
{
	struct task *t = task_new(NULL, NULL, cpu);

	if (!t)
		return NULL;
	t->state = TASK_RUNNING;
	t->is_idle = true;
	t->cpus_allowed = 1ULL << cpu;
	snprintf(t->name, sizeof(t->name), "idle/%u", cpu);
	runqueues[cpu].idle = t;
	runqueues[cpu].curr = t;
	cpu_locals[cpu].idle = t;
	task_list_add(t);
	return t;
}

void kthread_entry(void)
{
	struct task *self;

	/* The switch that brought us here left the run queue locked. */
	finish_task_switch();
	arch_irq_enable();
	self = current;
	if (self->is_idle)
		cpu_idle_loop();
	kthread_exit(self->fn(self->arg));
}

void kthread_exit(int code)
{
	struct task *self = current;

	if (self->lockdep_depth) {
		pr_err("BUG: thread %s exits holding %d lock(s)\n", self->name,
		       self->lockdep_depth);
		lockdep_print_held();
	}
	self->exit_code = code;
	/*
	 * Interrupts off from here: a preemption between marking ourselves
	 * dead and switching away would requeue a task its joiner may free.
	 */
	arch_irq_disable();
	self->preempt_count = 0;
	set_current_state(TASK_DEAD);
	schedule();
	panic("sched: dead thread %s ran again", self->name);
}

int kthread_join(struct task *t)
{
	int code;

	might_sleep();
	for (;;) {
		unsigned long s = smp_load_acquire(&t->join_state);

		if (s == JOIN_EXITED)
			break;
		if (s == JOIN_WAKING) { /* the exiting side is waking us: a moment */
			arch_cpu_relax();
			continue;
		}
		if (s == 0 && !__atomic_compare_exchange_n(&t->join_state, &s,
							   (unsigned long)current, false,
							   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			continue;
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(&t->join_state) == (unsigned long)current)
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	code = t->exit_code;
	task_list_del(t);
	task_free(t);
	return code;
}

static char state_char(const struct task *t, const struct rq *rq)
{
	if (t->is_idle)
		return t == rq->curr ? 'I' : 'i';
	if (t == rq->curr)
		return 'R';
	switch (t->state) {
	case TASK_RUNNING: return 'Q';
	case TASK_INTERRUPTIBLE: return 'S';
	case TASK_UNINTERRUPTIBLE: return 'D';
	case TASK_NEW: return 'N';
	case TASK_DEAD: return 'Z';
	default: return '?';
	}
}

static int cmd_ps(int argc, char **argv)
{
	unsigned long flags;
	struct task *t;

	(void)argc;
	(void)argv;
	kprintf("%5s %-16s %s %3s %4s %12s %10s\n", "PID", "NAME", "S", "CPU", "NICE",
		"RUNTIME(ms)", "SWITCHES");
	flags = arch_irq_save();
	arch_spin_lock(&tasks_lock);
	list_for_each_entry(t, &all_tasks, tasks) {
		u64 ns = t->sum_exec_ns, now = arch_cycles(), since = READ_ONCE(t->exec_start);

		/*
		 * A task is charged when it stops or at a tick, and an idle CPU
		 * takes no ticks: add the time it has been running right now.
		 */
		if (READ_ONCE(runqueues[t->cpu].curr) == t && now > since)
			ns += cycles_to_ns(now - since);
		kprintf("%5d %-16s %c %3u %4d %8llu.%03llu %10llu\n", t->pid, t->name,
			state_char(t, &runqueues[t->cpu]), t->cpu, t->nice,
			(unsigned long long)(ns / NSEC_PER_MSEC),
			(unsigned long long)(ns / NSEC_PER_USEC % 1000),
			(unsigned long long)t->nr_switches);
	}
	arch_spin_unlock(&tasks_lock);
	arch_irq_restore(flags);
	kprintf("S: R running, Q queued, S/D sleeping, N new, Z exited,\n"
		"   I idle task running (its CPU is idle), i idle task waiting (its CPU is busy)\n");
	process_ps_print();
	return 0;
}
SHELL_CMD(ps, "ps", "threads (state, CPU, nice, run time, switches), then user processes", cmd_ps);

/* "1", "0,2", "1-3": a CPU mask, or 0 if the list is malformed. */
static u64 parse_cpu_list(const char *s)
{
	u64 mask = 0;

	while (*s) {
		unsigned int lo = 0, hi;

		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9' && lo < NR_CPUS)
			lo = lo * 10 + (unsigned int)(*s++ - '0');
		hi = lo;
		if (*s == '-') {
			s++;
			if (*s < '0' || *s > '9')
				return 0;
			for (hi = 0; *s >= '0' && *s <= '9' && hi < NR_CPUS; s++)
				hi = hi * 10 + (unsigned int)(*s - '0');
		}
		if (lo > hi || hi >= NR_CPUS || hi >= 64)
			return 0;
		for (unsigned int c = lo; c <= hi; c++)
			mask |= 1ULL << c;
		if (*s == ',')
			s++;
		else if (*s)
			return 0;
	}
	return mask;
}

/*
 * Linux's `taskset -c LIST COMMAND...`: the shell runs one command with
 * its thread on those CPUs only, then goes back to the CPUs it had.
 */
static int cmd_taskset(int argc, char **argv)
{
	u64 mask, saved = current->cpus_allowed;
	char line[256];
	size_t n = 0;
	int err;

	if (argc < 4 || strcmp(argv[1], "-c"))
		return -EINVAL;
	mask = parse_cpu_list(argv[2]);
	if (!mask) {
		kprintf("taskset: '%s' is not a CPU list (e.g. 1, 0,2, 1-3)\n", argv[2]);
		return -EINVAL;
	}
	for (int i = 3; i < argc; i++) {
		n += snprintf(line + n, n < sizeof(line) ? sizeof(line) - n : 0, "%s%s",
			      i > 3 ? " " : "", argv[i]);
		if (n >= sizeof(line))
			return -E2BIG;
	}
	err = set_cpus_allowed(current, mask);
	if (err) {
		kprintf("taskset: no CPU of %s is online\n", argv[2]);
		return err;
	}
	err = shell_exec(line);
	set_cpus_allowed(current, saved);
	return err < 0 ? 0 : err; /* the command reported its own error */
}
SHELL_CMD(taskset, "taskset -c CPUS COMMAND [ARGS...]",
	  "run one shell command on those CPUs only (e.g. taskset -c 1 hibernate)", cmd_taskset);
