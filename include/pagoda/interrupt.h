/* SPDX-License-Identifier: MIT */
/*
 * Softirqs: work an interrupt handler leaves for "just after the
 * interrupt" (kernel/softirq.c). Linux's name and shape, much smaller:
 * a pending bit per CPU and type, run by irq_exit() when the outermost
 * handler returns, still with interrupts off, and at once when raised
 * outside an interrupt. Handlers run with in_interrupt() true: they must
 * not sleep.
 */
#ifndef PAGODA_INTERRUPT_H
#define PAGODA_INTERRUPT_H

#include <pagoda/types.h>

enum {
	BLOCK_SOFTIRQ,   /* block request completions (block/blk-mq.c) */
	NR_SOFTIRQS,
};

void open_softirq(unsigned int nr, void (*action)(void));
/* Mark nr pending on this CPU (any context). */
void raise_softirq(unsigned int nr);
/* From irq_exit(): run what is pending on this CPU. */
void irq_exit_softirqs(void);
bool softirq_pending_this_cpu(void);

#endif
