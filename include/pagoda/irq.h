/* SPDX-License-Identifier: MIT */
/*
 * Device interrupts, portable side (kernel/irq.c). A driver asks for a
 * line by the arch's number (an I/O APIC GSI, a GIC INTID):
 *
 *	request_irq(4, uart_irq, "ttyS0", &com1);
 *
 * and its handler then runs on the boot CPU with interrupts off. Arch entry
 * code brackets every interrupt with irq_enter() and irq_exit(); irq_exit()
 * is where a preemption the interrupt asked for happens.
 */
#ifndef PAGODA_IRQ_H
#define PAGODA_IRQ_H

#include <pagoda/types.h>

/*
 * Numbers below this: x86's GSIs are well under it; GIC INTIDs (SPIs from
 * 32) go higher, the Pi 4's PL011 is INTID 153.
 */
#define NR_IRQS 256

typedef void (*irq_handler_t)(unsigned int irq, void *dev);

int request_irq(unsigned int irq, irq_handler_t handler, const char *name, void *dev);
void free_irq(unsigned int irq, void *dev);

void irq_enter(void);
/* Ends the interrupt; may switch tasks if the scheduler asked to. */
void irq_exit(void);
/* Called by the arch for a device line. */
void handle_irq(unsigned int irq);

#endif
