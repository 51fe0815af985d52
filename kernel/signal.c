// SPDX-License-Identifier: MIT
/*
 * Signals, the part that exists so far (after Linux's kernel/signal.c):
 * actions and the blocked mask are recorded as a libc sets them, and kill
 * ends a process when the signal's action is the default one and the
 * default is to terminate (most signals). Handlers are not run: that needs
 * a signal frame on the user stack and rt_sigreturn, not written yet; a
 * signal with a handler installed is reported once and dropped.
 *
 * Another process is killed when it next crosses into the kernel and back:
 * at a system call, or on the way back to user mode from an interrupt
 * (the timer ticks while it runs, so a process spinning in user mode
 * goes within a tick). One waiting in wait4 or on a pipe is woken and
 * leaves its wait.
 */
#include <pagoda/atomic.h>
#include <pagoda/printk.h>
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
	struct process *p = current_process();
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

/* sigaltstack: accepted and forgotten (handlers never run on it yet). */
long sys_sigaltstack(const unsigned long *args)
{
	if (args[1]) {
		u64 none[3] = { 0, 2 /* SS_DISABLE */, 0 };

		if (copy_to_user(args[1], none, sizeof(none)))
			return -EFAULT;
	}
	return 0;
}

/*
 * What sig does to p: 1 end it, 0 nothing. Called for the sender's
 * checks; the caller holds process_lock or is p.
 */
static int signal_effect(struct process *p, int sig)
{
	u64 h = p->sigaction[sig - 1].handler;

	if (sig == SIGKILL)
		return 1;
	if (h == SIG_IGN || (h == SIG_DFL && default_ignored(sig)))
		return 0;
	if (h != SIG_DFL) {
		static bool told;

		if (!xchg(&told, true))
			pr_warn("signal: %s[%d] has a handler for signal %d; handlers are not run yet, dropped\n",
				p->name, p->pid, sig);
		return 0;
	}
	/* Blocked signals stay pending in Linux; here they are dropped. */
	return !(p->sigmask & (1ULL << (sig - 1)));
}

void signal_check_pending(void)
{
	struct process *p = current_process();
	int sig = p ? READ_ONCE(p->pending_kill) : 0;

	if (sig)
		process_exit(sig);
}

void signal_pipe_broken(void)
{
	struct process *p = current_process();

	if (p && signal_effect(p, SIGPIPE))
		process_exit(SIGPIPE);
}

void signal_return_to_user(void)
{
	struct process *p = current_process();
	int sig = p ? READ_ONCE(p->pending_kill) : 0;

	if (sig)
		process_exit_signal(sig); /* interrupts still off, as from a fault */
}

static long send_signal(int pid, int sig)
{
	struct process *self = current_process(), *t = NULL, *q;
	int effect;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid == 0 || pid == -1 || pid == self->pid) {
		t = self;
	} else {
		mutex_lock(&process_lock);
		list_for_each_entry(q, &process_list, all)
			if (q->pid == pid && !q->zombie)
				t = q;
		if (t && sig && signal_effect(t, sig)) {
			WRITE_ONCE(t->pending_kill, sig);
			wake_up_process(t->task); /* out of any wait: it must notice */
		}
		mutex_unlock(&process_lock);
		return t ? 0 : -ESRCH;
	}
	if (!sig)
		return 0;
	effect = signal_effect(t, sig);
	if (effect)
		process_exit(sig);
	return 0;
}

/* kill(pid, sig): pid 0 and -1 mean the caller here (no groups, one user's few processes). */
long sys_kill(const unsigned long *args)
{
	return send_signal((int)args[0], (int)args[1]);
}

/* tgkill(tgid, tid, sig): one thread per process, so the thread is the process. */
long sys_tgkill(const unsigned long *args)
{
	if ((int)args[0] != (int)args[1])
		return -ESRCH;
	return send_signal((int)args[1], (int)args[2]);
}

/* The shell's `kill PID [SIG]`, from a kernel thread. */
int kill_process(int pid, int sig)
{
	struct process *q, *t = NULL;

	mutex_lock(&process_lock);
	list_for_each_entry(q, &process_list, all)
		if (q->pid == pid && !q->zombie)
			t = q;
	if (t && signal_effect(t, sig)) {
		WRITE_ONCE(t->pending_kill, sig);
		wake_up_process(t->task); /* out of any wait: it must notice */
	}
	mutex_unlock(&process_lock);
	return t ? 0 : -ESRCH;
}
