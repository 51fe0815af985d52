/* SPDX-License-Identifier: MIT */
/*
 * Kernel threads and the scheduler (kernel/sched/).
 *
 * Each CPU has a run queue ordered by vruntime: the run time a task has had,
 * scaled by its weight (nice -20..19, weight 1024 at nice 0, 1.25x per
 * step, as in Linux's CFS). The CPU runs the task with the least vruntime;
 * the timer tick preempts the running task when another is owed the CPU.
 * Idle CPUs pull work from busy ones, and a wake-up goes to the least
 * loaded CPU the task may use (its affinity mask).
 *
 *	struct task *t = kthread_run(fn, arg, "worker%d", i);
 *	...
 *	int ret = kthread_join(t);      (waits, returns fn's value, frees t)
 *
 * Sleeping, the Linux way: publish the state first, then check, then
 * schedule(); a waker that sets the condition and calls wake_up_process()
 * in between is not lost, because schedule() sees TASK_RUNNING again.
 *
 *	set_current_state(TASK_UNINTERRUPTIBLE);
 *	if (!condition)
 *		schedule();
 *	__set_current_state(TASK_RUNNING);
 *
 * Wait queues (pagoda/wait.h) wrap that pattern.
 */
#ifndef PAGODA_SCHED_H
#define PAGODA_SCHED_H

#include <pagoda/atomic.h>
#include <pagoda/preempt.h>
#include <pagoda/smp.h>
#include <pagoda/task.h>

#define THREAD_STACK_SIZE (16 * 1024)
#define CPU_MASK_ALL (~0ULL)

#define __set_current_state(s) WRITE_ONCE(current->state, (s))
/*
 * With a full barrier: the state is visible before the condition is read
 * (Linux's smp_store_mb). A sequentially consistent store alone is not
 * that on arm64: STLR keeps earlier accesses before it but lets a later
 * plain load be satisfied first, so a sleeper could read the condition
 * unset while its waker, having set it, still saw it running: a lost
 * wake-up. The fence is a DMB ISH there, an MFENCE-class order on x86.
 */
#define set_current_state(s)                                          \
	do {                                                          \
		WRITE_ONCE(current->state, (s));                      \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);              \
	} while (0)

void schedule(void);
/* Give the CPU to another runnable task, if there is one. */
void yield(void);
/* Make a sleeping or new task runnable; false if it already was. */
bool wake_up_process(struct task *t);
/* Sleep at least ns nanoseconds (timeout in TASK_*: returns ns left, or 0). */
u64 schedule_timeout(u64 ns);
void msleep(unsigned int ms);

/* Create a thread, not yet running: wake_up_process() starts it. */
struct task *kthread_create(int (*fn)(void *), void *arg, const char *namefmt, ...)
	__printf(3, 4);
#define kthread_run(fn, arg, ...)                                    \
	({                                                           \
		struct task *__t = kthread_create(fn, arg, __VA_ARGS__); \
		if (__t)                                             \
			wake_up_process(__t);                        \
		__t;                                                 \
	})
/* The same with a chosen pid (restore): ERR_PTR(-EEXIST) if a task has it. */
struct task *kthread_create_pid(int pid, int (*fn)(void *), void *arg, const char *name);
bool pid_in_use(int pid);
/* Wait for t to exit; returns its exit code and frees it. */
int kthread_join(struct task *t);
__noreturn void kthread_exit(int code);
/* Restrict t to the CPUs in mask (moves it if needed); -EINVAL if none online. */
int set_cpus_allowed(struct task *t, u64 mask);
void set_user_nice(struct task *t, int nice);

/* Threads alive now (for tests: memory back to baseline). */
unsigned int nr_threads(void);
/* After a resume from hibernation: restamp this CPU's running task and idle time. */
void sched_clock_resumed(void);
/* Call fn on every task, under the task list's lock with interrupts off (fn must not sleep). */
void task_for_each(void (*fn)(struct task *t, void *arg), void *arg);

/* Boot. */
void sched_init(void);
/* The idle task of a CPU about to be started (its stack included). */
struct task *idle_task_create(unsigned int cpu);
/* From irq_exit(), interrupts off: switch if the scheduler asked to. */
void preempt_schedule_irq(void);
/* Called from the timer interrupt on each CPU. */
void scheduler_tick(void);
/* The idle loop of a CPU; called by the boot and secondary paths. */
__noreturn void cpu_idle_loop(void);
/* The thread entry every new stack starts in (arch_thread_stack_init). */
__noreturn void kthread_entry(void);
/* Kernel stack bounds of the running task, for stack traces. */
void current_stack_bounds(u64 *lo, u64 *hi);
/* True once the scheduler runs threads (might_sleep checks start then). */
extern bool scheduler_running;
/* Ask cpu to reschedule (IPI when remote). */
void resched_cpu(unsigned int cpu);
/* Is t running on some CPU right now (a hint: it may change at once)? */
bool task_on_cpu(const struct task *t);
/* t's run time in ns, including its current turn on a CPU (the CPU-time clocks). */
u64 task_sched_runtime(struct task *t);
/* Per-CPU run-queue length, for `cpus`. */
unsigned int rq_nr_running(unsigned int cpu);

#endif
