// SPDX-License-Identifier: MIT
/*
 * Signals, after Linux's kernel/signal.c: actions and the blocked mask as a
 * libc sets them; kill and tgkill; delivery. A signal whose action is the
 * default and whose default is to end the process ends it (pending_kill);
 * one with a handler waits in sigpending until it is not blocked, and then
 * on the way back to user mode (signal_deliver(), from the arch's system
 * call and interrupt exits) the arch pushes Linux's signal frame and
 * points the program at the handler; rt_sigreturn puts everything back.
 *
 * Another process is affected when it next crosses into the kernel and
 * back: at a system call, or on the way back from an interrupt (the timer
 * ticks while it runs, so a process spinning in user mode is reached
 * within a tick). One waiting in wait4 or on a pipe is woken and leaves
 * its wait with -EINTR (SA_RESTART is not honoured). Faults still end the
 * process with their signal, handler or not.
 *
 * Threads, as Linux: the actions are the process's, the blocked mask each
 * thread's own. A signal sent to the process (kill) waits in the
 * process's pending set and is taken by whichever thread does not block
 * it, the first such one being woken (Linux's complete_signal()); one
 * sent to a thread (tgkill, tkill) waits for that thread alone. A fatal
 * one ends every thread.
 */
#include <pagoda/atomic.h>
#include <pagoda/cr.h>
#include <pagoda/freezer.h>
#include <pagoda/printk.h>
#include <pagoda/preempt.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include "syscalls.h"

LIST_HEAD(process_list);

/* Signals whose default action is to do nothing. */
static bool default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
}

/* rt_sigaction(sig, act, oldact, sigsetsize) */
long sys_rt_sigaction(const unsigned long *args)
{
	struct process *p = current_process();
	int sig = (int)args[0];
	struct k_sigaction sa;

	if (sig < 1 || sig > _NSIG || args[3] != 8)
		return -EINVAL;
	if (args[2] && copy_to_user(args[2], &p->sigaction[sig - 1], sizeof(sa)))
		return -EFAULT;
	if (!args[1])
		return 0;
	if (sig == SIGKILL || sig == SIGSTOP)
		return -EINVAL;
	if (copy_from_user(&sa, args[1], sizeof(sa)))
		return -EFAULT;
	p->sigaction[sig - 1] = sa;
	return 0;
}

/* rt_sigprocmask(how, set, oldset, sigsetsize): SIG_BLOCK 0, SIG_UNBLOCK 1, SIG_SETMASK 2. */
long sys_rt_sigprocmask(const unsigned long *args)
{
	struct thread *p = current_thread();
	u64 set, unblockable = (1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1));

	if (args[3] != 8)
		return -EINVAL;
	if (args[2] && copy_to_user(args[2], &p->sigmask, sizeof(u64)))
		return -EFAULT;
	if (!args[1])
		return 0;
	if (copy_from_user(&set, args[1], sizeof(set)))
		return -EFAULT;
	switch (args[0]) {
	case 0:
		p->sigmask |= set;
		break;
	case 1:
		p->sigmask &= ~set;
		break;
	case 2:
		p->sigmask = set;
		break;
	default:
		return -EINVAL;
	}
	p->sigmask &= ~unblockable;
	return 0;
}

/*
 * rt_sigsuspend(mask, sigsetsize): wait with mask as the blocked set
 * until a signal's handler is to run (or one ends the process). The
 * handler's frame keeps the mask from before the call, so its
 * rt_sigreturn puts that back, as Linux's saved_sigmask does; -EINTR.
 */
long sys_rt_sigsuspend(const unsigned long *args)
{
	struct process *proc = current_process();
	struct thread *p = current_thread();
	u64 set;

	if (args[1] != 8)
		return -EINVAL;
	if (copy_from_user(&set, args[0], sizeof(set)))
		return -EFAULT;
	p->saved_sigmask = p->sigmask;
	p->restore_sigmask = true;
	p->sigmask = set & ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(proc))
			break;
		schedule();
	}
	set_current_state(TASK_RUNNING);
	return -EINTR;
}

/*
 * Alternate signal stacks, after Linux's kernel/signal.c: a handler
 * installed with SA_ONSTACK runs on the stack sigaltstack() gave, unless
 * the program is on it already. SS_AUTODISARM clears the setting while a
 * handler runs (so a handler may switch contexts away and back, and a
 * nested signal does not land on its frames); the frame's uc_stack keeps
 * what it was and rt_sigreturn puts it back. A stack smaller than the
 * arch's MINSIGSTKSZ, the value exec passes as AT_MINSIGSTKSZ
 * (ELF_MINSIGSTKSZ, <asm/elf.h>), is refused with -ENOMEM.
 */

/* Linux's on_sig_stack(): never while the stack is autodisarmed. */
static bool on_sig_stack(const struct thread *p, u64 sp)
{
	if (p->altstack.flags & SS_AUTODISARM)
		return false;
	return sp > p->altstack.sp && sp - p->altstack.sp <= p->altstack.size;
}

/* What a program is told of its alternate stack, with sp its stack pointer now. */
static struct sigstack altstack_now(const struct thread *p, u64 sp)
{
	struct sigstack s = p->altstack;

	s.flags = (!s.size ? SS_DISABLE : on_sig_stack(p, sp) ? SS_ONSTACK : 0) |
		  (p->altstack.flags & SS_AUTODISARM);
	return s;
}

static int do_sigaltstack(struct thread *p, const struct sigstack *ss, u64 sp)
{
	u32 mode = ss->flags & ~SS_AUTODISARM;

	if (on_sig_stack(p, sp))
		return -EPERM; /* not while running on it */
	if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		p->altstack = (struct sigstack){ .flags = ss->flags };
		return 0;
	}
	if (ss->size < ELF_MINSIGSTKSZ)
		return -ENOMEM;
	p->altstack = *ss;
	return 0;
}

/* A stack_t from user memory, whose padding the kernel does not keep. */
static int stack_from_user(struct sigstack *s, u64 uptr)
{
	if (copy_from_user(s, uptr, sizeof(*s)))
		return -EFAULT;
	s->pad = 0;
	return 0;
}

/* sigaltstack(ss, old_ss): the new one read first, the old one written last, as Linux. */
long sys_sigaltstack(const unsigned long *args)
{
	struct thread *p = current_thread();
	u64 sp = arch_user_sp(current->uregs);
	struct sigstack ss, old = altstack_now(p, sp);
	int err;

	if (args[0]) {
		err = stack_from_user(&ss, args[0]);
		if (!err)
			err = do_sigaltstack(p, &ss, sp);
		if (err)
			return err;
	}
	if (args[1] && copy_to_user(args[1], &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

enum { SIG_NOTHING, SIG_END, SIG_HANDLE, SIG_STOP };

static bool stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/*
 * Under p->thread_lock: the live thread to take sig, to (a thread's own
 * signal) or the first that does not block it; NULL when all block it.
 */
static struct thread *signal_target(struct process *p, int sig, struct thread *to)
{
	struct thread *t;

	if (to)
		return !to->dead && !(to->sigmask & (1ULL << (sig - 1))) ? to : NULL;
	list_for_each_entry(t, &p->threads, node)
		if (!t->dead && !(t->sigmask & (1ULL << (sig - 1))))
			return t;
	return NULL;
}

/* What sig does to p now (target: a thread to take it, NULL if all block it). */
static int signal_effect(struct process *p, int sig, const struct thread *target)
{
	u64 h = p->sigaction[sig - 1].handler;

	if (sig == SIGKILL)
		return SIG_END;
	if (sig == SIGSTOP)
		return SIG_STOP;
	if (h == SIG_IGN || (h == SIG_DFL && default_ignored(sig)))
		return SIG_NOTHING;
	if (h != SIG_DFL)
		return SIG_HANDLE; /* pending until unblocked, then delivered */
	if (stop_signal(sig))
		return SIG_STOP; /* Linux keeps a blocked one pending; here it stops at once */
	/*
	 * A fatal one that every thread blocks stays pending, as on Linux, and
	 * ends the process once unblocked (signal_deliver()): a SIGTERM that
	 * lands while a fork's child still has the parent's fork-time mask
	 * (musl and glibc block every signal around fork) is not lost.
	 */
	return target ? SIG_END : SIG_HANDLE;
}

/*
 * Make sig happen to p (to: to that thread of it alone): end it, or leave
 * it pending for its handler and wake the thread that will run it. From
 * any context, an interrupt's too (the interval timers).
 */
static void signal_post_thread(struct process *p, struct thread *to, int sig, int sender);

/* Under process_lock: tell p's parent that p stopped or went on (wait4, and SIGCHLD). */
static void notify_parent_stop(struct process *p)
{
	struct process *parent = p->parent;

	if (!parent)
		return;
	if (!(parent->sigaction[SIGCHLD - 1].flags & SA_NOCLDSTOP))
		signal_post_thread(parent, NULL, SIGCHLD, p->pid);
	parent->child_events++;
	wake_up_all(&parent->child_exit);
}

/*
 * A stop or a fatal signal concerns every thread: wake each live one but
 * the caller out of whatever wait it is in, to notice. thread_lock held
 * (wake_all_threads() takes it).
 */
static void wake_other_threads(struct process *p)
{
	struct thread *t;

	list_for_each_entry(t, &p->threads, node)
		if (!t->dead && t->task && t->task != current)
			wake_up_process(t->task);
}

static void signal_post_thread(struct process *p, struct thread *to, int sig, int sender)
{
	struct thread *target;
	unsigned long flags;
	bool resumed = false;

	spin_lock_irqsave(&p->thread_lock, flags);
	/*
	 * SIGCONT goes on whatever its action (a handler runs after), and
	 * takes back a stop not yet acted on; a stop takes back nothing.
	 */
	if (sig == SIGCONT && (p->stop_pending || p->stopped)) {
		resumed = p->stopped;
		WRITE_ONCE(p->stop_pending, false);
		WRITE_ONCE(p->stopped, false);
		p->stop_report = false;
		p->cont_report = resumed;
		wake_up_all(&p->stop_wait);
	}
	target = signal_target(p, sig, to);
	switch (signal_effect(p, sig, target)) {
	case SIG_STOP:
		if (!p->stopped) {
			p->stop_sig = sig;
			WRITE_ONCE(p->stop_pending, true);
			wake_other_threads(p);
		}
		break;
	case SIG_END:
		/* The first fatal one is what it dies of; SIGKILL overrides (it ends a stopped one). */
		if (!p->pending_kill || sig == SIGKILL)
			WRITE_ONCE(p->pending_kill, sig);
		wake_other_threads(p); /* every thread ends */
		break;
	case SIG_HANDLE:
		WRITE_ONCE(p->sigsender[sig - 1], sender);
		__atomic_fetch_or(to ? &to->sigpending : &p->sigpending, 1ULL << (sig - 1),
				  __ATOMIC_RELEASE);
		if (target && target->task && target->task != current)
			wake_up_process(target->task); /* out of any wait: it must notice */
		break;
	default:
		break;
	}
	spin_unlock_irqrestore(&p->thread_lock, flags);
	/* Every sender of SIGCONT (kill, the shell's kill) holds process_lock. */
	if (resumed)
		notify_parent_stop(p);
}

/*
 * The calling thread stops here, on its way back to user mode, until
 * SIGCONT or a kill (Linux's do_signal_stop()): the first thread to stop
 * marks the process stopped and tells the parent.
 */
static void do_signal_stop(struct process *p)
{
	unsigned long flags;
	bool first = false;

	mutex_lock(&process_lock);
	spin_lock_irqsave(&p->thread_lock, flags);
	if (p->stop_pending && !p->stopped) {
		WRITE_ONCE(p->stopped, true);
		p->stop_report = true;
		p->cont_report = false;
		first = true;
	}
	WRITE_ONCE(p->stop_pending, false);
	spin_unlock_irqrestore(&p->thread_lock, flags);
	if (first)
		notify_parent_stop(p);
	mutex_unlock(&process_lock);
	/* Only SIGKILL ends a stopped process; another fatal one waits for SIGCONT, as on Linux. */
	wait_event(p->stop_wait, !READ_ONCE(p->stopped) || READ_ONCE(p->pending_kill) == SIGKILL ||
				 thread_must_exit(p));
}

static void signal_post(struct process *p, int sig, int sender)
{
	signal_post_thread(p, NULL, sig, sender);
}

void signal_send_from(struct process *p, int sig, int sender)
{
	signal_post(p, sig, sender);
}

/* From the kernel's own events (an interval timer, in interrupt context). */
void signal_send_kernel(struct process *p, int sig)
{
	signal_post(p, sig, 0);
}

void siginfo_layout(u8 info[128], const struct ksiginfo *k)
{
	memset(info, 0, 128);
	memcpy(info, &k->signo, 4);
	memcpy(info + 8, &k->code, 4);
	if (k->addr) {
		memcpy(info + 16, &k->addr, 8);
	} else {
		memcpy(info + 16, &k->pid, 4);
		memcpy(info + 20, &k->uid, 4);
	}
}

void signal_check_pending(void)
{
	struct process *p = current_process();
	int sig = p ? READ_ONCE(p->pending_kill) : 0;

	if (p && thread_must_exit(p))
		thread_exit(0); /* the group ends, or another thread execs: no code of its own */
	if (sig)
		process_exit(sig);
}

void signal_pipe_broken(void)
{
	struct process *p = current_process();

	if (p)
		signal_post(p, SIGPIPE, p->pid);
}

/* Push sig's frame and point regs at ka's handler (the caller, in its own return path). */
static void setup_handler(struct process *proc, struct pt_regs *regs, int sig,
			  const struct k_sigaction *ka, const struct ksiginfo *info)
{
	struct thread *p = current_thread();

	struct sigstack uc_stack;
	u64 sp, alt_top;

	cr_step_off(regs);
	/* The live FP registers go in the frame; the handler starts with them as they are. */
	arch_user_state_save(&p->ustate);
	sp = arch_user_sp(regs);
	uc_stack = altstack_now(p, sp);
	/* SA_ONSTACK: to the alternate stack's top, unless already on it (or there is none). */
	alt_top = (ka->flags & SA_ONSTACK) && p->altstack.size && !on_sig_stack(p, sp)
			  ? p->altstack.sp + p->altstack.size : 0;
	if (arch_setup_rt_frame(regs, ka, info, p->restore_sigmask ? p->saved_sigmask : p->sigmask,
				&p->ustate, alt_top, &uc_stack)) {
		/* No usable stack or no way back: Linux forces SIGSEGV. */
		pr_err("signal: %s[%d]: cannot deliver signal %d (bad stack or no sa_restorer)\n",
		       proc->name, p->tid, sig);
		process_exit(SIGSEGV);
	}
	p->restore_sigmask = false; /* the frame has it: rt_sigreturn puts it back */
	p->sigmask |= ka->mask;
	if (!(ka->flags & SA_NODEFER))
		p->sigmask |= 1ULL << (sig - 1);
	p->sigmask &= ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	if (p->altstack.flags & SS_AUTODISARM) /* the frame's uc_stack keeps it for sigreturn */
		p->altstack = (struct sigstack){ .flags = SS_DISABLE };
	if (ka->flags & SA_RESETHAND)
		proc->sigaction[sig - 1].handler = SIG_DFL;
}

/*
 * Anything for signal_deliver() to do: Linux's check of the thread's
 * work flags before it returns to user mode. The same loads the slow
 * path makes, without its interrupt mask changes and calls, which under
 * TCG are a good part of a getpid's round trip. A signal posted just
 * after this look waits for the next return, as one posted just after
 * the slow path's would.
 */
static bool exit_work_pending(struct process *p, struct thread *t)
{
	u64 mask = t->sigmask;

	return READ_ONCE(p->cr_freeze) || READ_ONCE(pm_freezing) || READ_ONCE(p->group_exit) ||
	       READ_ONCE(p->exec_thread) || READ_ONCE(p->pending_kill) ||
	       READ_ONCE(p->stop_pending) || READ_ONCE(p->stopped) || t->restore_sigmask ||
	       (__atomic_load_n(&t->sigpending, __ATOMIC_ACQUIRE) & ~mask) ||
	       (__atomic_load_n(&p->sigpending, __ATOMIC_ACQUIRE) & ~mask);
}

void signal_deliver(struct pt_regs *regs)
{
	struct process *p = current_process();
	struct thread *t = current_thread();
	unsigned long flags;
	struct k_sigaction ka;
	struct ksiginfo info;
	u64 pend;
	int sig;

	if (!p || !exit_work_pending(p, t))
		return;
	flags = arch_irq_save();
	arch_irq_enable(); /* from an interrupt's exit too: this may sleep and fault */
	if (READ_ONCE(p->cr_freeze))
		cr_freeze_point(p, regs); /* a checkpoint reads it here; a kill may follow */
	try_to_freeze(); /* a hibernation in progress: wait here, before user mode */
	if (thread_must_exit(p))
		thread_exit(0); /* the group ends, or another thread execs: no code of its own */
	if (READ_ONCE(p->pending_kill))
		process_exit(p->pending_kill);
	if (READ_ONCE(p->stop_pending) || READ_ONCE(p->stopped)) {
		do_signal_stop(p);
		if (thread_must_exit(p))
			thread_exit(0);
		if (READ_ONCE(p->pending_kill))
			process_exit(p->pending_kill); /* SIGKILL, or one that waited for SIGCONT */
	}
	/* This thread's own first, then the process's, if another thread did not take it. */
	pend = __atomic_load_n(&t->sigpending, __ATOMIC_ACQUIRE) & ~t->sigmask;
	if (pend) {
		sig = __builtin_ctzll(pend) + 1;
		__atomic_fetch_and(&t->sigpending, ~(1ULL << (sig - 1)), __ATOMIC_RELAXED);
	} else {
		pend = __atomic_load_n(&p->sigpending, __ATOMIC_ACQUIRE) & ~t->sigmask;
		if (!pend)
			goto out;
		sig = __builtin_ctzll(pend) + 1;
		if (!(__atomic_fetch_and(&p->sigpending, ~(1ULL << (sig - 1)), __ATOMIC_ACQ_REL) &
		      (1ULL << (sig - 1))))
			goto out; /* another thread took it first */
	}
	ka = p->sigaction[sig - 1];
	if (ka.handler == SIG_IGN || (ka.handler == SIG_DFL && default_ignored(sig)))
		goto out; /* the action changed since it was sent */
	if (ka.handler == SIG_DFL)
		process_exit(sig);
	info = (struct ksiginfo){ .signo = sig, .code = SI_USER,
				  .pid = READ_ONCE(p->sigsender[sig - 1]) };
	setup_handler(p, regs, sig, &ka, &info);
out:
	if (t->restore_sigmask) { /* rt_sigsuspend woke and no handler ran: its mask goes */
		t->sigmask = t->saved_sigmask;
		t->restore_sigmask = false;
	}
	arch_irq_restore(flags);
}

/*
 * A fault in user mode (the arch's trap handler, interrupts off): when
 * the program has a handler for sig and does not block it, push its frame
 * with the fault's si_code and address and return true, so the exception
 * returns into the handler (which may fix the cause, or longjmp away; a
 * handler that returns retries the instruction, as on Linux). Otherwise
 * false: the caller reports the fault and ends the process, as Linux's
 * force_sig_fault() does for a blocked or ignored fault signal.
 */
bool signal_fault(struct pt_regs *regs, int sig, int code, u64 addr)
{
	struct process *p = current_process();
	unsigned long flags;
	struct k_sigaction ka;
	struct ksiginfo info = { .signo = sig, .code = code, .addr = addr };

	if (!p)
		return false;
	ka = p->sigaction[sig - 1];
	if (ka.handler == SIG_DFL || ka.handler == SIG_IGN ||
	    (current_thread()->sigmask & (1ULL << (sig - 1))))
		return false;
	flags = arch_irq_save();
	arch_irq_enable(); /* the frame is written to user memory: this may fault */
	setup_handler(p, regs, sig, &ka, &info);
	arch_irq_restore(flags);
	return true;
}

/* rt_sigreturn: back from a handler to where the signal interrupted. */
long sys_rt_sigreturn(const unsigned long *args)
{
	struct thread *p = current_thread();
	struct arch_user_state fp;
	struct sigstack uc_stack;
	long ret;
	u64 mask;

	(void)args;
	/*
	 * The frame's FP registers are read into a copy, not into p->ustate:
	 * reading the frame may fault or be preempted, and a switch away
	 * meanwhile saves the live registers (the handler's) over p->ustate,
	 * which would undo the restore. The kernel never touches the FP
	 * registers, so the live ones and p->ustate agree until the end.
	 */
	preempt_disable();
	arch_user_state_save(&p->ustate);
	fp = p->ustate;
	preempt_enable();
	if (arch_rt_sigreturn(current->uregs, &fp, &mask, &ret, &uc_stack)) {
		pr_err("signal: %s[%d]: rt_sigreturn with a bad frame\n", p->proc->name, p->tid);
		process_exit(SIGSEGV);
	}
	p->sigmask = mask & ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	/*
	 * The alternate stack as it was when the signal came (an autodisarmed
	 * one comes back); refused changes are ignored, as Linux's
	 * restore_altstack() squashes all but a fault.
	 */
	do_sigaltstack(p, &uc_stack, arch_user_sp(current->uregs));
	/* The FP registers as the frame says, with no switch in between. */
	preempt_disable();
	p->ustate = fp;
	arch_user_state_load(&p->ustate);
	preempt_enable();
	return ret;
}

int kill_pgrp_locked(int pgid, int sig, int sender)
{
	struct process *q;
	int n = 0;

	list_for_each_entry(q, &process_list, all)
		if (!q->zombie && q->pgid == pgid) {
			if (sig)
				signal_post(q, sig, sender);
			n++;
		}
	return n;
}

/*
 * Linux's kill_something_info(): pid > 0 that process; 0 the caller's
 * group; -1 every process but the caller and those the kernel started
 * (Pagoda's init-like ones, which Linux's -1 spares as it spares init);
 * below -1 the group -pid. -ESRCH when nothing matched.
 */
static long send_signal(int pid, int sig)
{
	struct process *self = current_process(), *t = NULL, *q;
	int n = 0;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid == -2147483647 - 1)
		return -ESRCH; /* -pid would not be a number: Linux's answer */
	mutex_lock(&process_lock);
	if (pid > 0) {
		list_for_each_entry(q, &process_list, all)
			if (q->pid == pid && !q->zombie)
				t = q;
		if (t && sig)
			signal_post(t, sig, self->pid);
		n = !!t;
	} else if (pid == -1) {
		list_for_each_entry(q, &process_list, all)
			if (!q->zombie && q != self && (q->parent || q->autoreap)) {
				if (sig)
					signal_post(q, sig, self->pid);
				n++;
			}
	} else {
		n = kill_pgrp_locked(pid ? -pid : self->pgid, sig, self->pid);
	}
	mutex_unlock(&process_lock);
	/* One sent to the caller is delivered (or fatal) on the way out of this call. */
	return n || pid == -1 ? 0 : -ESRCH;
}

/* kill(pid, sig) */
long sys_kill(const unsigned long *args)
{
	return send_signal((int)args[0], (int)args[1]);
}

/*
 * A signal to one thread: tid in the process tgid (tgid -1: in any
 * process, tkill). -EINVAL for a bad number or id, -ESRCH for no such
 * live thread, as Linux's do_tkill().
 */
static long send_signal_thread(int tgid, int tid, int sig)
{
	struct process *self = current_process(), *q;
	struct thread *target = NULL, *t;
	long err = -ESRCH;

	if (sig < 0 || sig > _NSIG || tid <= 0)
		return -EINVAL;
	mutex_lock(&process_lock);
	list_for_each_entry(q, &process_list, all) {
		unsigned long flags;

		if (q->zombie || (tgid != -1 && q->pid != tgid))
			continue;
		spin_lock_irqsave(&q->thread_lock, flags);
		list_for_each_entry(t, &q->threads, node)
			if (t->tid == tid && !t->dead)
				target = t;
		spin_unlock_irqrestore(&q->thread_lock, flags);
		if (target) {
			err = 0;
			if (sig)
				signal_post_thread(q, target, sig, self->pid);
			break;
		}
	}
	mutex_unlock(&process_lock);
	return err;
}

/* tgkill(tgid, tid, sig): Linux's pthread_kill() and raise(). */
long sys_tgkill(const unsigned long *args)
{
	if ((int)args[0] <= 0)
		return -EINVAL;
	return send_signal_thread((int)args[0], (int)args[1], (int)args[2]);
}

/* tkill(tid, sig): the older call musl's raise() makes. */
long sys_tkill(const unsigned long *args)
{
	return send_signal_thread(-1, (int)args[0], (int)args[1]);
}

/* Is q pid, or forked (at any depth) from it? process_lock held. */
static bool descends_from(struct process *q, int pid)
{
	for (; q; q = q->parent)
		if (q->pid == pid)
			return true;
	return false;
}

/*
 * The terminal's SIGINT for the program `run` waits for (pid): to the
 * group its session has in the console's foreground (a job-control
 * shell's current job), else to pid and everything it forked, the group
 * they would share on Linux. From a kernel thread.
 */
int kill_process_group(int pid, int sig)
{
	struct process *q;
	int n = 0, fg = 0;

	mutex_lock(&process_lock);
	list_for_each_entry(q, &process_list, all)
		if (q->pid == pid && !q->zombie)
			fg = tty_foreground_pgrp(q->sid);
	if (fg)
		n = kill_pgrp_locked(fg, sig, 0);
	if (!n)
		list_for_each_entry(q, &process_list, all)
			if (!q->zombie && descends_from(q, pid)) {
				signal_post(q, sig, 0);
				n++;
			}
	mutex_unlock(&process_lock);
	return n ? 0 : -ESRCH;
}

/* The shell's `kill PID [SIG]`, from a kernel thread. */
int kill_process(int pid, int sig)
{
	struct process *q, *t = NULL;

	mutex_lock(&process_lock);
	list_for_each_entry(q, &process_list, all)
		if (q->pid == pid && !q->zombie)
			t = q;
	if (t)
		signal_post(t, sig, 0);
	mutex_unlock(&process_lock);
	return t ? 0 : -ESRCH;
}
