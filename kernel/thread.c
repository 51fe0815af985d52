// SPDX-License-Identifier: MIT
/*
 * Threads: a process run by more than one task, after Linux's thread
 * groups (kernel/fork.c's CLONE_THREAD path). What pthread_create() asks
 * for is clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
 * CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |
 * CLONE_CHILD_CLEARTID) with a new stack: a new task that runs in the
 * same address space, with the same open files and signal actions, and
 * is counted in the same process. Pagoda shares all of that or nothing:
 * a process's memory, files and signal actions are one struct (struct
 * process), and a thread is a struct thread on its list (its tid, its
 * registers beyond the general ones, its signal mask, its alternate
 * stack, its futex addresses).
 *
 * The thread group (Linux's names): the process's pid is its first
 * thread's tid (the group leader's) and getpid() answers it in every
 * thread; gettid() answers the caller's own. The leader's struct is part
 * of the process and stays until the process is collected, even when the
 * leader ends first (pthread_exit() from main): the parent's wait sees
 * the process end when its last thread does.
 *
 * A thread that ends (kernel/exit.c: do_exit()) leaves the address space
 * and is marked dead; its task is joined (its kernel stack freed) by the
 * next clone in that process or when the process is collected, whichever
 * comes first, so a program that starts and joins threads in a loop
 * keeps at most one dead thread's stack at a time.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/uaccess.h>

#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_THREAD 0x00010000
#define CLONE_SYSVSEM 0x00040000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED 0x00400000
#define CLONE_CHILD_SETTID 0x01000000

void thread_init_main(struct process *p)
{
	struct thread *t = &p->main;

	t->proc = p;
	arch_user_state_init(&t->ustate);
	INIT_LIST_HEAD(&p->threads);
	list_add_tail(&t->node, &p->threads);
	spin_lock_init(&p->thread_lock);
}

void wake_all_threads(struct process *p)
{
	unsigned long flags;
	struct thread *t;

	spin_lock_irqsave(&p->thread_lock, flags);
	list_for_each_entry(t, &p->threads, node)
		if (!t->dead && t->task && t->task != current)
			wake_up_process(t->task);
	spin_unlock_irqrestore(&p->thread_lock, flags);
}

/* Join and free a thread that has ended (not the leader: its struct is the process's). */
static void thread_release(struct thread *t)
{
	kthread_join(t->task);
	kfree(t->fork_regs);
	kfree(t);
}

/* Take the dead threads other than the leader off p's list and free them. */
static void reap_dead_threads(struct process *p)
{
	struct thread *t, *tmp;
	unsigned long flags;
	LIST_HEAD(dead);

	spin_lock_irqsave(&p->thread_lock, flags);
	list_for_each_entry_safe(t, tmp, &p->threads, node)
		if (t->dead && t != &p->main)
			list_move_tail(&t->node, &dead);
	spin_unlock_irqrestore(&p->thread_lock, flags);
	/* Each has marked itself dead on its way to kthread_exit(): the join is short. */
	list_for_each_entry_safe(t, tmp, &dead, node)
		thread_release(t);
}

void process_free_threads(struct process *p)
{
	/* Collected: every thread has ended, so every one is dead. */
	reap_dead_threads(p);
	kfree(p->main.fork_regs);
	p->main.fork_regs = NULL;
}

static int thread_start(void *arg)
{
	struct thread *t = arg;

	arch_enter_user_regs(t->fork_regs);
}

/*
 * Linux's checks, in its order: a thread needs the signal actions shared,
 * and shared actions need shared memory. Pagoda shares files and the
 * working directory with them too (one struct), so a thread that asks
 * for its own is refused rather than silently given the shared ones.
 */
static long clone_thread_flags_ok(unsigned long flags)
{
	unsigned long all = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD;

	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	if ((flags & all) != all) {
		static bool told;

		if (!xchg(&told, true))
			pr_warn("clone: flags %#lx: a thread shares memory, files and the "
				"working directory or nothing here\n", flags);
		return -EINVAL;
	}
	return 0;
}

long clone_thread(unsigned long flags, u64 newsp, u64 parent_tid, u64 child_tid, u64 tls)
{
	struct process *p = current_process();
	struct thread *me = current_thread(), *t;
	struct pt_regs *regs = current->uregs;
	unsigned long irqflags;
	struct task *task;
	long err = clone_thread_flags_ok(flags);
	u32 tid;

	if (err)
		return err;
	if (!p || !me || !regs)
		return -EINVAL;
	if (READ_ONCE(p->group_exit) || READ_ONCE(p->pending_kill))
		return -EINTR; /* the process is ending: no thread joins it (Linux's answer) */
	reap_dead_threads(p);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->proc = p;
	t->fork_regs = kmalloc(arch_pt_regs_size, GFP_KERNEL);
	task = t->fork_regs ? kthread_create(thread_start, t, "%s", p->name) : NULL;
	if (!task) {
		kfree(t->fork_regs);
		kfree(t);
		return -ENOMEM;
	}
	set_user_nice(task, current->nice); /* the creating thread's, as on Linux */
	/* The caller's registers, returning 0, on the stack it gave (none: its own, as Linux). */
	memcpy(t->fork_regs, regs, arch_pt_regs_size);
	arch_regs_set_return(t->fork_regs, 0);
	if (newsp)
		arch_regs_set_sp(t->fork_regs, newsp);
	arch_user_state_save(&me->ustate); /* the live registers: bring the copy up to date */
	t->ustate = me->ustate;
	if (flags & CLONE_SETTLS)
		arch_user_state_set_tls(&t->ustate, tls);
	t->sigmask = me->sigmask;
	/* Linux clears the alternate stack of a thread sharing memory: it is the creator's. */
	t->altstack = (struct sigstack){ .flags = SS_DISABLE };
	t->task = task;
	t->tid = task->pid;
	if (flags & CLONE_CHILD_CLEARTID)
		t->clear_child_tid = child_tid;
	task->mm = &p->mm;
	task->ustate = &t->ustate;
	task->user_thread = t;
	tid = (u32)t->tid;
	/*
	 * Both ids are written before the thread runs, in the memory they
	 * share: Linux ignores a bad address for either (the thread runs).
	 */
	if ((flags & CLONE_PARENT_SETTID) && parent_tid)
		(void)copy_to_user(parent_tid, &tid, sizeof(tid));
	if ((flags & CLONE_CHILD_SETTID) && child_tid)
		(void)copy_to_user(child_tid, &tid, sizeof(tid));
	/*
	 * A group exit that began meanwhile reaches the new thread at its
	 * first entry to the kernel (the tick at the latest), as any thread.
	 */
	spin_lock_irqsave(&p->thread_lock, irqflags);
	list_add_tail(&t->node, &p->threads);
	p->nr_threads++;
	spin_unlock_irqrestore(&p->thread_lock, irqflags);
	wake_up_process(task);
	return t->tid;
}

/* set_tid_address(tidptr): where this thread's exit zeroes its tid and wakes a joiner. */
long sys_set_tid_address(const unsigned long *args)
{
	struct thread *t = current_thread();

	if (t)
		t->clear_child_tid = args[0];
	return current->pid;
}

/* gettid(): the caller's own id (the leader's is the pid). */
long sys_gettid(const unsigned long *args)
{
	(void)args;
	return current->pid;
}

bool thread_must_exit(struct process *p)
{
	struct thread *ex = READ_ONCE(p->exec_thread);

	return READ_ONCE(p->group_exit) || (ex && ex != current_thread());
}

/*
 * Linux's de_thread(): the new program starts with one thread. The others
 * are told (exec_thread) and woken, and end at their next way out of the
 * kernel; the caller waits for the count to come down to itself. Linux
 * also gives an exec'ing non-leader the leader's tid; here it keeps its
 * own (getpid() is unchanged either way).
 */
void de_thread(struct process *p)
{
	if (READ_ONCE(p->nr_threads) <= 1)
		return;
	WRITE_ONCE(p->exec_thread, current_thread());
	wake_all_threads(p);
	while (READ_ONCE(p->nr_threads) > 1) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(p->nr_threads) <= 1)
			break;
		schedule_timeout(NSEC_PER_MSEC);
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(p->exec_thread, NULL);
	reap_dead_threads(p);
}
