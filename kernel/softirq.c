// SPDX-License-Identifier: MIT
/*
 * Softirqs (see pagoda/interrupt.h). An interrupt handler should be short:
 * it acknowledges its device and leaves the rest (finishing block requests,
 * waking their submitters) for a moment later, on the same CPU, with the
 * cache still warm. Linux runs that moment with interrupts enabled and
 * hands a flood to ksoftirqd; Pagoda keeps interrupts off, which bounds
 * the nesting at one, and relies on the handlers being short.
 */
#include <pagoda/interrupt.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>

static void (*softirq_vec[NR_SOFTIRQS])(void);
static unsigned long softirq_pending[NR_CPUS];

void open_softirq(unsigned int nr, void (*action)(void))
{
	if (nr < NR_SOFTIRQS)
		softirq_vec[nr] = action;
}

bool softirq_pending_this_cpu(void)
{
	return READ_ONCE(softirq_pending[smp_processor_id()]) != 0;
}

/* Interrupts are off and irq_depth counts us: nothing can nest. */
static void run_pending(void)
{
	unsigned int cpu = smp_processor_id();

	/* New work raised by a handler is picked up by the next round. */
	for (int round = 0; round < 10 && softirq_pending[cpu]; round++) {
		unsigned long pending = softirq_pending[cpu];

		softirq_pending[cpu] = 0;
		for (unsigned int nr = 0; nr < NR_SOFTIRQS; nr++)
			if ((pending & (1UL << nr)) && softirq_vec[nr])
				softirq_vec[nr]();
	}
}

void irq_exit_softirqs(void)
{
	run_pending();
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags = arch_irq_save();
	struct cpu_local *c = this_cpu();

	softirq_pending[c->cpu] |= 1UL << nr;
	if (c->irq_depth == 0) {
		/* Task context: no irq_exit() is coming; run it now, as if one were. */
		c->irq_depth++;
		run_pending();
		c->irq_depth--;
	}
	arch_irq_restore(flags);
}
