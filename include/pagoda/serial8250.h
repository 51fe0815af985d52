/* SPDX-License-Identifier: MIT */
/*
 * The 16550-compatible UART (drivers/tty/serial8250.c). Registers are reached
 * through two accessors, so the same driver serves x86 port I/O and, on
 * other machines, memory-mapped registers.
 */
#ifndef PAGODA_SERIAL8250_H
#define PAGODA_SERIAL8250_H

#include <pagoda/serial_core.h>

struct uart8250 {
	struct uart_port port;
	uptr base;
	u8 (*read)(uptr base, int reg);
	void (*write)(uptr base, int reg, u8 val);
	int tx_room; /* bytes we may write before checking LSR again */
};

/* Program the UART and register it as a console (input polled). */
void serial8250_init(struct uart8250 *u, u32 baud);

#endif
