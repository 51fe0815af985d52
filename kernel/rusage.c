// SPDX-License-Identifier: MIT
/*
 * Resource usage (getrusage, and wait4's fourth argument), after the
 * getrusage part of Linux's kernel/sys.c.
 *
 * What a process has used: CPU time split into user and system, the most
 * memory it ever had mapped of its own (ru_maxrss, in kB: its mm's
 * hiwater_rss) and its page faults (minor: a page found or made without
 * I/O; major: with I/O, none here, there is no swap or file paging).
 * The same for its children, summed as each is collected by wait4: the
 * times and faults add up, maxrss is the largest any one child had.
 *
 * The CPU time is the scheduler's exact run time (sum_exec_ns), divided
 * between user and system in the proportion the tick saw the process in
 * each mode, as Linux's cputime_adjust() divides it.
 */
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include "syscalls.h"

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1

/* struct rusage on a 64-bit Linux: two timevals, then fourteen longs. */
struct linux_rusage {
	s64 utime_sec, utime_usec, stime_sec, stime_usec;
	s64 maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock;
	s64 msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};

/*
 * p's own run time so far: its ended threads' (added as each ended) and
 * its live threads' now.
 */
u64 run_time_ns(struct process *p)
{
	u64 ns = READ_ONCE(p->acct.sum_exec_ns);
	unsigned long flags;
	struct thread *t;

	if (p->zombie || !p->task)
		return ns;
	spin_lock_irqsave(&p->thread_lock, flags);
	list_for_each_entry(t, &p->threads, node)
		if (!t->dead && t->task)
			ns += task_sched_runtime(t->task);
	spin_unlock_irqrestore(&p->thread_lock, flags);
	return ns;
}

/* Split ns as the tick saw user and system time (all user when it saw none). */
void cputime_adjust(u64 ns, u64 uticks, u64 sticks, u64 *utime, u64 *stime)
{
	if (!sticks) {
		*utime = ns;
	} else if (!uticks) {
		*utime = 0;
	} else {
		/* ns * uticks / (uticks + sticks) without overflowing 64 bits. */
		u64 total = uticks + sticks;

		*utime = ns / total * uticks + ns % total * uticks / total;
	}
	*stime = ns - *utime;
}

static void set_time(s64 *sec, s64 *usec, u64 ns)
{
	*sec = (s64)(ns / NSEC_PER_SEC);
	*usec = (s64)(ns % NSEC_PER_SEC / 1000);
}

static void fill(struct linux_rusage *r, u64 ns, u64 uticks, u64 sticks, u64 maxrss_pages,
		 u64 minflt)
{
	u64 ut, st;

	memset(r, 0, sizeof(*r));
	cputime_adjust(ns, uticks, sticks, &ut, &st);
	set_time(&r->utime_sec, &r->utime_usec, ut);
	set_time(&r->stime_sec, &r->stime_usec, st);
	r->maxrss = (s64)(maxrss_pages * (PAGE_SIZE / 1024));
	r->minflt = (s64)minflt;
}

static void rusage_self(struct process *p, struct linux_rusage *r)
{
	fill(r, run_time_ns(p), READ_ONCE(p->acct.utime_ticks), READ_ONCE(p->acct.stime_ticks),
	     READ_ONCE(p->mm.hiwater_rss), READ_ONCE(p->acct.min_flt));
}

static void rusage_children(struct process *p, struct linux_rusage *r)
{
	fill(r, p->cacct.sum_exec_ns, p->cacct.utime_ticks, p->cacct.stime_ticks,
	     p->cacct.maxrss, p->cacct.min_flt);
}

/* An ending thread's run time joins its process's, kept for the parent's wait4 (thread_exit()). */
void acct_process_exit(struct process *p)
{
	__atomic_fetch_add(&p->acct.sum_exec_ns, task_sched_runtime(current), __ATOMIC_RELAXED);
}

/*
 * Under process_lock: p collects its child c (wait4). c's own usage and its
 * collected children's join p's children's totals; maxrss is the largest.
 */
void acct_collect_child(struct process *p, struct process *c)
{
	u64 maxrss = MAX(c->mm.hiwater_rss, c->cacct.maxrss);

	p->cacct.sum_exec_ns += c->acct.sum_exec_ns + c->cacct.sum_exec_ns;
	p->cacct.utime_ticks += c->acct.utime_ticks + c->cacct.utime_ticks;
	p->cacct.stime_ticks += c->acct.stime_ticks + c->cacct.stime_ticks;
	p->cacct.min_flt += c->acct.min_flt + c->cacct.min_flt;
	p->cacct.maxrss = MAX(p->cacct.maxrss, maxrss);
}

/* wait4's rusage: the collected child c, itself and its own children. */
int put_child_rusage(u64 uaddr, struct process *c)
{
	struct linux_rusage r;

	fill(&r, c->acct.sum_exec_ns + c->cacct.sum_exec_ns,
	     c->acct.utime_ticks + c->cacct.utime_ticks, c->acct.stime_ticks + c->cacct.stime_ticks,
	     MAX(c->mm.hiwater_rss, c->cacct.maxrss), c->acct.min_flt + c->cacct.min_flt);
	return copy_to_user(uaddr, &r, sizeof(r)) ? -EFAULT : 0;
}

/* getrusage(who, usage) */
long sys_getrusage(const unsigned long *args)
{
	struct process *p = current_process();
	struct linux_rusage r;
	int who = (int)args[0];

	if (who == RUSAGE_SELF || who == RUSAGE_THREAD)
		rusage_self(p, &r); /* one thread per process: the thread is the process */
	else if (who == RUSAGE_CHILDREN)
		rusage_children(p, &r);
	else
		return -EINVAL;
	return copy_to_user(args[1], &r, sizeof(r)) ? -EFAULT : 0;
}
