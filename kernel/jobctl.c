// SPDX-License-Identifier: MIT
/*
 * Process groups and sessions, after Linux's kernel/sys.c: what a
 * job-control shell uses to put each job in a group of its own, hand the
 * terminal to one group at a time (TIOCSPGRP, drivers/tty/n_tty.c) and
 * signal a whole job (kill(-pgid), kernel/signal.c) or wait for it
 * (wait4(-pgid), kernel/exit.c).
 *
 * A process the kernel starts leads a new session and group (its pgid
 * and sid are its pid, as init's are); fork puts the child in its
 * parent's. Groups and sessions are just numbers in struct process, read
 * and changed under process_lock: a group exists while a live process
 * has its number.
 *
 * Linux's rules, as it answers them:
 *   setpgid(pid, pgid): pid 0 is the caller, pgid 0 is pid; pid must be
 *   the caller or its child (-ESRCH), a child that has not run execve
 *   (-EACCES), in the caller's session (-EPERM),
 *   not a session leader (-EPERM); pgid must be pid itself or an existing
 *   group of the caller's session (-EPERM); negative pgid -EINVAL.
 *   setsid(): -EPERM when some group already has the caller's pid as its
 *   number; otherwise a new session and group, both the caller's pid.
 */
#include <pagoda/mutex.h>
#include <pagoda/process.h>
#include "syscalls.h"

/* Under process_lock: the live process pid (0: the caller), or NULL. */
static struct process *find_live(int pid)
{
	struct process *q;

	if (!pid)
		return current_process();
	list_for_each_entry(q, &process_list, all)
		if (q->pid == pid && !q->zombie)
			return q;
	return NULL;
}

bool pgrp_exists_locked(int pgid, int sid)
{
	struct process *q;

	list_for_each_entry(q, &process_list, all)
		if (!q->zombie && q->pgid == pgid && (!sid || q->sid == sid))
			return true;
	return false;
}

/* getpgid() and getsid() differ only in which id of the process they read. */
static long get_process_id(int pid, bool session)
{
	struct process *q;
	long r;

	if (pid < 0)
		return -ESRCH;
	mutex_lock(&process_lock);
	q = find_live(pid);
	r = !q ? -ESRCH : session ? q->sid : q->pgid;
	mutex_unlock(&process_lock);
	return r;
}

long sys_getpgid(const unsigned long *args)
{
	return get_process_id((int)args[0], false);
}

long sys_getsid(const unsigned long *args)
{
	return get_process_id((int)args[0], true);
}

long sys_setpgid(const unsigned long *args)
{
	struct process *me = current_process(), *q;
	int pid = (int)args[0], pgid = (int)args[1];
	long err = 0;

	if (pgid < 0)
		return -EINVAL;
	mutex_lock(&process_lock);
	q = pid < 0 ? NULL : find_live(pid);
	if (!q || (q != me && q->parent != me)) {
		err = -ESRCH;
		goto out;
	}
	if (!pgid)
		pgid = q->pid;
	if (q != me && q->did_exec)
		err = -EACCES; /* a child that has run another program is its own now */
	else if (q->sid != me->sid || q->sid == q->pid)
		err = -EPERM; /* another session's, or a session leader */
	else if (pgid != q->pid && !pgrp_exists_locked(pgid, me->sid))
		err = -EPERM; /* no such group in this session */
	else
		q->pgid = pgid;
out:
	mutex_unlock(&process_lock);
	return err;
}

long sys_setsid(const unsigned long *args)
{
	struct process *me = current_process();
	long r;

	(void)args;
	mutex_lock(&process_lock);
	if (pgrp_exists_locked(me->pid, 0)) {
		r = -EPERM; /* a group leader, or its number is some group's */
	} else {
		me->sid = me->pgid = me->pid;
		r = me->pid;
	}
	mutex_unlock(&process_lock);
	return r;
}

long sys_getpgrp(const unsigned long *args)
{
	long r;

	(void)args;
	mutex_lock(&process_lock);
	r = current_process()->pgid;
	mutex_unlock(&process_lock);
	return r;
}
