// SPDX-License-Identifier: MIT
/*
 * Waiting for console input. With a receive interrupt, the reader sleeps
 * on a wait queue the driver's handler wakes; without one (early boot, a
 * console that only polls) it polls as before.
 */
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/wait.h>

bool console_input_irq;
static DECLARE_WAIT_QUEUE_HEAD(console_wq);

void console_input_notify(void)
{
	wake_up_all(&console_wq);
}

int console_getc_wait(void)
{
	int c;

	if (!console_input_irq || !scheduler_running) {
		while ((c = console_getc()) < 0)
			arch_cpu_relax();
		return c;
	}
	wait_event(console_wq, (c = console_getc()) >= 0);
	return c;
}
