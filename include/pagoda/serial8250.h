/* SPDX-License-Identifier: MIT */
/*
 * The 16550-compatible UART (drivers/tty/serial8250.c). Registers are reached
 * through two accessors, so the same driver serves x86 port I/O and, on
 * other machines, memory-mapped registers.
 */
#ifndef PAGODA_SERIAL8250_H
#define PAGODA_SERIAL8250_H

#include <pagoda/printk.h>

struct uart8250 {
	struct console con;
	uptr base;
	u8 (*read)(uptr base, int reg);
	void (*write)(uptr base, int reg, u8 val);
	int tx_room; /* bytes we may write before checking LSR again */
	/* Interrupt-driven input: the handler fills a ring, getc empties it. */
	bool rx_irq;
	u16 rx_lock; /* a tiny spin flag: the reader may be on another CPU */
	unsigned int rx_head, rx_tail;
	char rx_buf[256];
};

void serial8250_init(struct uart8250 *u, u32 baud);
void serial8250_putc(struct uart8250 *u, char c);
/* Switch input to the receive interrupt on line irq (0 or -errno). */
int serial8250_enable_rx_irq(struct uart8250 *u, unsigned int irq);

#endif
