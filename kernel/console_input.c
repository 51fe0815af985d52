// SPDX-License-Identifier: MIT
/*
 * Waiting for console input. With a receive interrupt, the reader sleeps
 * on a wait queue the driver's handler wakes; without one (early boot, a
 * console that only polls) it polls as before.
 *
 * While a shell command runs, the console is also where Ctrl-C comes from.
 * A long command asks shell_interrupted() now and then (as Linux's loops
 * ask signal_pending()); that moves what was typed into a typeahead buffer,
 * so keys typed ahead still reach the next prompt, and a Ctrl-C among them
 * raises the interrupt and drops what came before it, as a terminal's
 * "intr" does.
 *
 * A user program in the foreground (`run`) asks nothing: as Linux's tty
 * sends SIGINT to the foreground process group when it receives the intr
 * character, a key arriving while a program runs is gathered by a work
 * item, and a Ctrl-C among the keys sends SIGINT to the program and the
 * children it forked (its process group, since nothing here moves them).
 */
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/signal.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>
#include <pagoda/wait.h>
#include <pagoda/workqueue.h>

bool console_input_irq;
static DECLARE_WAIT_QUEUE_HEAD(console_wq);

#define TYPEAHEAD 64
static DEFINE_SPINLOCK(typeahead_lock);
static char typeahead[TYPEAHEAD];
static unsigned int ta_head, ta_tail;
static bool interrupted;
/* Set by the receive interrupt: there may be something to gather. */
static bool input_arrived = true;
/* The program `run` waits for (0: none): Ctrl-C is its SIGINT. */
static int foreground_pid;

static void gather(void);

/*
 * Ctrl-Cs seen, and how many of them the foreground program (sent_pid)
 * was sent: one SIGINT each, not one per key after it, since a program
 * that lives on (a shell as init) keeps reading keys with the flag set.
 */
static unsigned long intr_count, intr_sent;
static int intr_sent_pid;

static void intr_work_fn(struct work_struct *w)
{
	int pid = READ_ONCE(foreground_pid);

	gather();
	if (pid && READ_ONCE(interrupted) &&
	    (READ_ONCE(intr_count) != intr_sent || pid != intr_sent_pid)) {
		intr_sent = READ_ONCE(intr_count);
		intr_sent_pid = pid;
		kill_process_group(pid, SIGINT);
	}
}
static struct work_struct intr_work = { .func = intr_work_fn,
					.entry = LIST_HEAD_INIT(intr_work.entry) };

void console_input_notify(void)
{
	WRITE_ONCE(input_arrived, true);
	wake_up_all(&console_wq);
	if (READ_ONCE(foreground_pid) && system_wq)
		queue_work(system_wq, &intr_work);
}

void console_set_foreground(int pid)
{
	WRITE_ONCE(foreground_pid, pid);
	/* A Ctrl-C typed before the program was started counts too. */
	if (pid && system_wq)
		queue_work(system_wq, &intr_work);
}

/* Move what the console holds into the typeahead buffer. */
static void gather(void)
{
	unsigned long flags;
	int c;

	spin_lock_irqsave(&typeahead_lock, flags);
	WRITE_ONCE(input_arrived, false);
	/*
	 * With the buffer full, the rest stays in the console's own buffer
	 * (nothing is dropped: a program reading its input slowly gets it all)
	 * and is looked at again next time.
	 */
	while (ta_head - ta_tail < TYPEAHEAD && (c = console_getc()) >= 0) {
		if (c == 0x03) {
			interrupted = true;
			intr_count++;
			ta_head = ta_tail = 0;
			continue;
		}
		typeahead[ta_head++ % TYPEAHEAD] = (char)c;
	}
	if (ta_head - ta_tail >= TYPEAHEAD)
		WRITE_ONCE(input_arrived, true);
	spin_unlock_irqrestore(&typeahead_lock, flags);
}

void console_input_push(int c)
{
	unsigned long flags;

	spin_lock_irqsave(&typeahead_lock, flags);
	if (ta_head - ta_tail < TYPEAHEAD)
		typeahead[ta_head++ % TYPEAHEAD] = (char)c;
	spin_unlock_irqrestore(&typeahead_lock, flags);
}

static int next_char(void)
{
	unsigned long flags;
	int c = -1;

	/* Under the lock: a gather from intr_work cannot slip older keys past. */
	spin_lock_irqsave(&typeahead_lock, flags);
	if (ta_head != ta_tail)
		c = (unsigned char)typeahead[ta_tail++ % TYPEAHEAD];
	else
		c = console_getc();
	spin_unlock_irqrestore(&typeahead_lock, flags);
	return c;
}

bool shell_interrupted(void)
{
	/* With interrupts, the console is only read when a key came in. */
	if (!console_input_irq || !scheduler_running || READ_ONCE(input_arrived))
		gather();
	return READ_ONCE(interrupted);
}

void shell_interrupt_clear(void)
{
	WRITE_ONCE(interrupted, false);
}

int console_getc_wait(void)
{
	int c;

	if (!console_input_irq || !scheduler_running) {
		while ((c = next_char()) < 0)
			arch_cpu_relax();
		return c;
	}
	wait_event(console_wq, (c = next_char()) >= 0);
	return c;
}

/*
 * A program reading the terminal (drivers/tty/n_tty.c): the next key, or
 * -EINTR once a signal is pending for it, whose way out of the system
 * call then runs the handler or ends it.
 */
int console_getc_interruptible(void)
{
	struct process *p = current_process();
	int c;

	if (!console_input_irq || !scheduler_running) {
		while ((c = next_char()) < 0) {
			if (signal_pending(p))
				return -EINTR;
			schedule_timeout(NSEC_PER_MSEC);
		}
		return c;
	}
	wait_event(console_wq, (c = next_char()) >= 0 || signal_pending(p));
	return c >= 0 ? c : -EINTR;
}

/* A key if one is there, else -1: what a read takes after its first. */
int console_getc_nowait(void)
{
	return next_char();
}

/* Is a key waiting (poll() on the terminal)? One taken from the console stays queued. */
bool console_input_ready(void)
{
	unsigned long flags;
	bool ready;
	int c;

	spin_lock_irqsave(&typeahead_lock, flags);
	ready = ta_head != ta_tail;
	if (!ready && ta_head - ta_tail < TYPEAHEAD && (c = console_getc()) >= 0) {
		typeahead[ta_head++ % TYPEAHEAD] = (char)c;
		ready = true;
	}
	spin_unlock_irqrestore(&typeahead_lock, flags);
	return ready;
}
