// SPDX-License-Identifier: MIT
/*
 * How a process ends and is collected, after Linux's kernel/exit.c.
 *
 * A process that ends keeps its struct (a "zombie") with its wait status
 * until someone collects it: its parent's wait4(), or process_wait() for
 * one the kernel started. Its own children become orphans; Linux hands
 * them to init, Pagoda to a reaper (a work item) that collects each as it
 * ends, since nothing would ever wait for them. Collecting joins the
 * dead task, so its kernel stack is free, and frees the struct.
 *
 * process_lock guards every parent, children and zombie field: exactly
 * one collector takes each zombie, under it.
 *
 * A process with threads ends thread by thread (do_exit()): exit(2) ends
 * the caller alone; exit_group(2), a fatal signal or a fault end them all
 * (do_group_exit(): the group's code is set once and every other thread
 * is woken to notice it at its next way out of the kernel). Each thread
 * gives back what is its own in user memory first (its robust futexes,
 * its clear-tid word with a wake for pthread_join()), then leaves the
 * address space; the last one out frees the memory, closes the files
 * and tells the parent. The parent's wait therefore sees the process end
 * only when every thread has.
 */
#include <pagoda/arch.h>
#include <pagoda/futex.h>
#include <pagoda/mutex.h>
#include <pagoda/oom.h>
#include <pagoda/preempt.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/uaccess.h>
#include <pagoda/workqueue.h>
#include "syscalls.h"

DEFINE_MUTEX(process_lock);

#define WNOHANG 1
#define WUNTRACED 2
#define WCONTINUED 8
#define __WALL 0x40000000
#define __WCLONE 0x80000000

static void reap(struct work_struct *w)
{
	struct process *p = container_of(w, struct process, reap_work);

	int status = kthread_join(p->task);

	/* Nobody waited for it: say how it ended, as a shell does for a background job. */
	if (p->reap_quietly)
		;
	else if (status & 0x7f)
		pr_info("[%d] %s: killed by signal %d\n", p->pid, p->name, status & 0x7f);
	else
		pr_info("[%d] %s: exit status %d\n", p->pid, p->name, (status >> 8) & 0xff);
	process_free(p);
}

/* Under process_lock: nobody will wait for p; the reaper collects it. */
static void reap_later(struct process *p)
{
	INIT_WORK(&p->reap_work, reap);
	schedule_work(&p->reap_work);
}

void exit_notify(struct process *p, int status)
{
	struct process *c, *tmp;

	mutex_lock(&process_lock);
	list_for_each_entry_safe(c, tmp, &p->children, sibling) {
		list_del_init(&c->sibling);
		c->parent = NULL;
		if (c->zombie)
			reap_later(c);
	}
	p->exit_status = status;
	p->zombie = true;
	if (p->parent) {
		struct process *parent = p->parent;
		const struct k_sigaction *ka = &parent->sigaction[SIGCHLD - 1];

		/*
		 * SIGCHLD tells it (a shell waits in sigsuspend for it). A parent
		 * that ignores SIGCHLD, or asked SA_NOCLDWAIT, leaves no zombies:
		 * Linux reaps the child itself, and wait4 sees it gone.
		 */
		if (ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT)) {
			list_del_init(&p->sibling);
			p->parent = NULL;
			p->reap_quietly = true; /* its parent asked not to hear of it */
			reap_later(p);
		}
		if (ka->handler != SIG_IGN)
			signal_send_from(parent, SIGCHLD, p->pid);
		parent->child_events++;
		wake_up_all(&parent->child_exit);
	} else if (p->autoreap) {
		reap_later(p);
	}
	mutex_unlock(&process_lock);
}

/* Does child c match wait4's pid: > 0 that one, -1 any, 0 the caller's group, < -1 group -pid? */
static bool wait_matches(const struct process *p, const struct process *c, int pid)
{
	if (pid > 0)
		return c->pid == pid;
	if (pid == -1)
		return true;
	return c->pgid == (pid ? -pid : p->pgid);
}

/*
 * Under process_lock: a zombie child matching pid (wait_matches()), taken
 * off the list; NULL with *any false when no child matches at all.
 */
static struct process *take_zombie(struct process *p, int pid, bool *any)
{
	struct process *c;

	*any = false;
	list_for_each_entry(c, &p->children, sibling) {
		if (!wait_matches(p, c, pid))
			continue;
		*any = true;
		if (c->zombie) {
			list_del_init(&c->sibling);
			return c;
		}
	}
	return NULL;
}

/*
 * Under process_lock: a matching child that stopped (WUNTRACED) or went
 * on (WCONTINUED) since the last wait4 told of it: its pid, with the
 * status Linux gives (the signal << 8 | 0x7f; 0xffff), told once. 0: none.
 */
static int take_stop_report(struct process *p, int pid, unsigned long options, int *status)
{
	struct process *c;

	list_for_each_entry(c, &p->children, sibling) {
		if (!wait_matches(p, c, pid) || c->zombie)
			continue;
		if ((options & WUNTRACED) && c->stop_report && c->stopped) {
			c->stop_report = false;
			*status = (c->stop_sig << 8) | 0x7f;
		} else if ((options & WCONTINUED) && c->cont_report) {
			c->cont_report = false;
			*status = 0xffff;
		} else {
			continue;
		}
		return c->pid;
	}
	return 0;
}

/*
 * wait4(pid, wstatus, options, rusage): pid > 0 that child, -1 any child,
 * 0 one in the caller's process group, < -1 one in group -pid (the
 * group a child is in when it ends). WUNTRACED and WCONTINUED also
 * report a child that stopped or went on (job control). WNOHANG answers 0 at once
 * when none has ended. rusage: the child's usage and its children's
 * (kernel/rusage.c), which also join this process's RUSAGE_CHILDREN.
 */
long sys_wait4(const unsigned long *args)
{
	struct process *p = current_process(), *c;
	int pid = (int)args[0], status;
	unsigned long wstatus = args[1], options = args[2], rusage = args[3];
	unsigned long seen;
	bool any;
	int err;

	if (options & ~(unsigned long)(WNOHANG | WUNTRACED | WCONTINUED | __WALL | __WCLONE))
		return -EINVAL;
	if (pid == -2147483647 - 1)
		return -ESRCH; /* -pid is no number: Linux's answer */
	for (;;) {
		mutex_lock(&process_lock);
		seen = p->child_events;
		c = take_zombie(p, pid, &any);
		if (!c && (options & (WUNTRACED | WCONTINUED))) {
			int r = take_stop_report(p, pid, options, &status);

			if (r) {
				mutex_unlock(&process_lock);
				if (wstatus && copy_to_user(wstatus, &status, sizeof(status)))
					return -EFAULT;
				return r;
			}
		}
		mutex_unlock(&process_lock);
		if (c || !any || (options & WNOHANG))
			break;
		wait_event(p->child_exit, READ_ONCE(p->child_events) != seen ||
						  signal_pending(p));
		if (signal_pending(p))
			return -EINTR; /* the way out of the system call ends it or runs the handler */
	}
	if (!c)
		return any ? 0 : -ECHILD;
	pid = c->pid;
	status = c->exit_status;
	kthread_join(c->task);
	acct_collect_child(p, c);
	err = rusage ? put_child_rusage(rusage, c) : 0;
	process_free(c);
	if (wstatus && copy_to_user(wstatus, &status, sizeof(status)))
		return -EFAULT;
	return err ? err : pid;
}

/*
 * Linux's mm_release() and futex_exit_release(): the futexes this thread
 * holds are marked owner-died for their waiters, and its clear-tid word
 * (a joiner's futex) is zeroed and woken, while it is still in the
 * address space. Nothing is written once the process is going as a whole:
 * nobody is left to read it.
 */
static void mm_release(struct process *p, struct thread *t)
{
	u32 zero = 0;

	if (READ_ONCE(p->nr_threads) <= 1)
		return;
	exit_robust_list(p, t);
	if (t->clear_child_tid && !copy_to_user(t->clear_child_tid, &zero, sizeof(zero)))
		futex_wake(p, t->clear_child_tid, 1, FUTEX_BITSET_MATCH_ANY);
}

void thread_exit(int status)
{
	struct process *p = current_process();
	struct thread *t = current_thread();
	unsigned long flags;
	bool last;

	if (!p || !t)
		panic("thread_exit() from kernel thread %s", current->name);
	mm_release(p, t);
	acct_process_exit(p); /* its run time, for the parent's wait4 and getrusage */
	/* Out of the address space before the count says so: the last one frees it. */
	preempt_disable();
	current->mm = NULL;
	current->ustate = NULL;
	current->user_thread = NULL;
	arch_switch_mm(&init_mm);
	preempt_enable();
	spin_lock_irqsave(&p->thread_lock, flags);
	t->dead = true;
	last = --p->nr_threads == 0;
	spin_unlock_irqrestore(&p->thread_lock, flags);
	if (!last)
		kthread_exit(status); /* joined by the next clone or the collector */
	if (READ_ONCE(p->group_exit))
		status = p->group_exit_code;
	itimer_exit(p); /* no SIGALRM to a process on its way out */
	process_free_memory(p);
	exit_oom_victim(p); /* all its pages are back: the OOM killer may choose again */
	/* Pipe ends close here: a reader waiting on this writer sees end-of-file. */
	process_files_close(p);
	/* From here the parent (or the reaper) may collect p once this task is gone. */
	exit_notify(p, status);
	kthread_exit(status);
}

/* Linux's do_group_exit(): the first code set is the process's; every thread ends. */
void process_exit(int status)
{
	struct process *p = current_process();
	unsigned long flags;

	if (!p)
		panic("process_exit() from kernel thread %s", current->name);
	spin_lock_irqsave(&p->thread_lock, flags);
	if (!p->group_exit) {
		p->group_exit_code = status;
		WRITE_ONCE(p->group_exit, true);
	}
	spin_unlock_irqrestore(&p->thread_lock, flags);
	wake_all_threads(p);
	thread_exit(status);
}
