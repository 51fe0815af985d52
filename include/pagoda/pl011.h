/* SPDX-License-Identifier: MIT */
/*
 * The ARM PrimeCell PL011 UART (drivers/tty/pl011.c): the console on QEMU
 * virt and on the Raspberry Pi 4 (UART0). The caller maps the registers
 * and passes their virtual address; the driver only touches them.
 */
#ifndef PAGODA_PL011_H
#define PAGODA_PL011_H

#include <pagoda/serial_core.h>

struct pl011 {
	struct uart_port port;
	volatile void *base;
	u32 clock_hz; /* reference clock; 0 keeps the baud rate firmware set */
};

/* Program (or just enable) the UART and register it as a console. */
void pl011_init(struct pl011 *u, u32 baud);
/* Move a registered UART to new registers (the device tree's, say). */
void pl011_set_base(struct pl011 *u, volatile void *base, u32 clock_hz, u32 baud);

#endif
