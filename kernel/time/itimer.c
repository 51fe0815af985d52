// SPDX-License-Identifier: MIT
/*
 * Interval timers (setitimer, getitimer, alarm), after Linux's
 * kernel/time/itimer.c. ITIMER_REAL counts wall time and sends SIGALRM
 * when it runs out, then again every interval if one was given: a kernel
 * timer (kernel/time/timer.c) per process, which exec keeps and fork does
 * not copy, as on Linux. ITIMER_VIRTUAL (user time, SIGVTALRM) and
 * ITIMER_PROF (user and system time, SIGPROF) count CPU time the way
 * Linux's tick-based accounting does: each scheduler tick charges the
 * running process a whole tick, of user time when the tick interrupted
 * user mode (itimer_tick()).
 *
 * p->itimer_lock orders the timer's callback and the tick, which run in
 * interrupt context, against setitimer and exit, which must know that
 * nothing rearms a timer once they have stopped it.
 */
#include <pagoda/process.h>
#include <pagoda/signal.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/uaccess.h>
#include "../syscalls.h"

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2
#define USEC_PER_SEC 1000000ULL

/* The timer ran out (interrupt context): SIGALRM, and the next period. */
static void it_real_fn(struct timer_list *t)
{
	struct process *p = container_of(t, struct process, it_real);
	unsigned long flags;

	spin_lock_irqsave(&p->itimer_lock, flags);
	if (p->it_real_incr) {
		u64 now = ktime_get_ns(), next = t->expires + p->it_real_incr;

		/* Periods missed while the CPU was busy make one signal, as Linux's overrun. */
		if (next <= now)
			next = now + p->it_real_incr;
		mod_timer(t, next);
	}
	spin_unlock_irqrestore(&p->itimer_lock, flags);
	signal_send_kernel(p, SIGALRM);
}

void itimer_init(struct process *p)
{
	timer_setup(&p->it_real, it_real_fn);
	p->it_real_incr = 0;
	for (int i = 0; i < 2; i++)
		p->it_cpu_value[i] = p->it_cpu_incr[i] = 0;
	spin_lock_init(&p->itimer_lock);
}

/* Stop the timer for good: after this no callback runs and none will. */
static void it_real_stop(struct process *p)
{
	unsigned long flags;

	spin_lock_irqsave(&p->itimer_lock, flags);
	p->it_real_incr = 0; /* a callback running now will not rearm */
	spin_unlock_irqrestore(&p->itimer_lock, flags);
	del_timer_sync(&p->it_real);
}

/*
 * From the scheduler tick (interrupt context): current ran for a tick,
 * in user mode if user. Each CPU-time timer it runs out sends its signal
 * and starts its interval again (a tick late at worst, as Linux's).
 */
void itimer_tick(bool user)
{
	static const int sig[2] = { SIGVTALRM, SIGPROF };
	struct process *p = current_process();
	bool fire[2] = { false, false };

	if (!p)
		return; /* a kernel thread, or a process on its way out */
	/* getrusage's split of run time into user and system (kernel/rusage.c). */
	if (user)
		p->acct.utime_ticks++;
	else
		p->acct.stime_ticks++;
	spin_lock(&p->itimer_lock);
	for (int i = 0; i < 2; i++) {
		u64 *v = &p->it_cpu_value[i];

		if (!*v || (i == 0 && !user))
			continue;
		if (*v > TICK_NSEC) {
			*v -= TICK_NSEC;
			continue;
		}
		fire[i] = true;
		*v = p->it_cpu_incr[i]; /* 0: done */
	}
	spin_unlock(&p->itimer_lock);
	for (int i = 0; i < 2; i++)
		if (fire[i])
			signal_send_kernel(p, sig[i]);
}

/* What is left of the timer and its interval, in ns (0, 0: disarmed). */
static void it_real_get(struct process *p, u64 *value, u64 *incr)
{
	unsigned long flags;

	spin_lock_irqsave(&p->itimer_lock, flags);
	*value = 0;
	*incr = p->it_real_incr;
	if (timer_pending(&p->it_real)) {
		u64 now = ktime_get_ns();

		/* Due but not yet run: a microsecond, as Linux says, so it still reads as armed. */
		*value = p->it_real.expires > now + 1000 ? p->it_real.expires - now : 1000;
	}
	spin_unlock_irqrestore(&p->itimer_lock, flags);
}

static void it_real_set(struct process *p, u64 value, u64 incr)
{
	unsigned long flags;

	it_real_stop(p);
	if (!value)
		return;
	spin_lock_irqsave(&p->itimer_lock, flags);
	p->it_real_incr = incr;
	mod_timer(&p->it_real, ktime_get_ns() + value);
	spin_unlock_irqrestore(&p->itimer_lock, flags);
}

/* struct itimerval: it_interval then it_value, each a struct timeval. */
static int itimerval_from_user(u64 uptr, u64 *value, u64 *incr)
{
	s64 v[4];

	if (copy_from_user(v, uptr, sizeof(v)))
		return -EFAULT;
	for (int i = 0; i < 4; i += 2)
		if (v[i] < 0 || v[i + 1] < 0 || (u64)v[i + 1] >= USEC_PER_SEC)
			return -EINVAL;
	*incr = (u64)v[0] * NSEC_PER_SEC + (u64)v[1] * 1000;
	*value = (u64)v[2] * NSEC_PER_SEC + (u64)v[3] * 1000;
	return 0;
}

static int itimerval_to_user(u64 uptr, u64 value, u64 incr)
{
	u64 v[4] = { incr / NSEC_PER_SEC, incr % NSEC_PER_SEC / 1000,
		     value / NSEC_PER_SEC, value % NSEC_PER_SEC / 1000 };

	return copy_to_user(uptr, v, sizeof(v)) ? -EFAULT : 0;
}

/* getitimer(which, curr_value) */
/* A CPU-time timer's value and interval (which: ITIMER_VIRTUAL or ITIMER_PROF). */
static void it_cpu_get(struct process *p, unsigned long which, u64 *value, u64 *incr)
{
	unsigned long flags;

	spin_lock_irqsave(&p->itimer_lock, flags);
	*value = p->it_cpu_value[which - 1];
	*incr = p->it_cpu_incr[which - 1];
	spin_unlock_irqrestore(&p->itimer_lock, flags);
}

static void it_cpu_set(struct process *p, unsigned long which, u64 value, u64 incr)
{
	unsigned long flags;

	spin_lock_irqsave(&p->itimer_lock, flags);
	/* A tick more than asked, as Linux's set_cpu_itimer(): it runs out a whole tick late, not early. */
	p->it_cpu_value[which - 1] = value ? value + TICK_NSEC : 0;
	p->it_cpu_incr[which - 1] = value ? incr : 0;
	spin_unlock_irqrestore(&p->itimer_lock, flags);
}

void itimer_exit(struct process *p)
{
	it_real_stop(p);
	it_cpu_set(p, ITIMER_VIRTUAL, 0, 0);
	it_cpu_set(p, ITIMER_PROF, 0, 0);
}

static void itimer_get(struct process *p, unsigned long which, u64 *value, u64 *incr)
{
	if (which == ITIMER_REAL)
		it_real_get(p, value, incr);
	else
		it_cpu_get(p, which, value, incr);
}

long sys_getitimer(const unsigned long *args)
{
	u64 value, incr;

	if (args[0] > ITIMER_PROF)
		return -EINVAL;
	itimer_get(current_process(), args[0], &value, &incr);
	return itimerval_to_user(args[1], value, incr);
}

/* setitimer(which, new_value, old_value): a NULL new value disarms, as Linux allows. */
long sys_setitimer(const unsigned long *args)
{
	struct process *p = current_process();
	u64 value = 0, incr = 0, old_value, old_incr;
	int err;

	if (args[0] > ITIMER_PROF)
		return -EINVAL;
	if (args[1]) {
		err = itimerval_from_user(args[1], &value, &incr);
		if (err)
			return err;
	}
	itimer_get(p, args[0], &old_value, &old_incr);
	if (args[2]) {
		err = itimerval_to_user(args[2], old_value, old_incr);
		if (err)
			return err;
	}
	if (args[0] == ITIMER_REAL)
		it_real_set(p, value, incr);
	else
		it_cpu_set(p, args[0], value, incr);
	return 0;
}

/*
 * alarm(seconds): ITIMER_REAL once, no interval; the answer is the
 * seconds the previous alarm had left, rounded to the nearest, and at
 * least 1 if one was armed (Linux's rule, so 0 means "none").
 */
long sys_alarm(const unsigned long *args)
{
	struct process *p = current_process();
	u64 old_value, old_incr, usec, secs;

	it_real_get(p, &old_value, &old_incr);
	it_real_set(p, (u64)(unsigned int)args[0] * NSEC_PER_SEC, 0);
	usec = old_value / 1000 % USEC_PER_SEC;
	secs = old_value / NSEC_PER_SEC;
	if ((!secs && usec) || usec >= 500000)
		secs++;
	return (long)secs;
}
