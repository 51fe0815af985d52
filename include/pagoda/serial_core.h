/* SPDX-License-Identifier: MIT */
/*
 * What every UART console shares (drivers/tty/serial_core.c): the console
 * hooks, LF -> CR LF on output, and interrupt-driven input through a ring
 * the receive interrupt fills and console_getc() empties. A driver embeds
 * a struct uart_port, fills in its uart_ops with the few things that touch
 * its registers, and calls uart_add_one_port().
 */
#ifndef PAGODA_SERIAL_CORE_H
#define PAGODA_SERIAL_CORE_H

#include <pagoda/printk.h>
#include <pagoda/spinlock.h>

struct uart_port;

struct uart_ops {
	/* Send one byte, waiting for room in the transmitter. */
	void (*poll_put_char)(struct uart_port *port, char c);
	/* One received byte straight from the hardware, or -1 if none waits. */
	int (*poll_get_char)(struct uart_port *port);
	/* Unmask the receive interrupt(s) in the UART. */
	void (*enable_rx_irq)(struct uart_port *port);
	/* Optional: acknowledge the UART's interrupt before it is drained. */
	void (*ack_rx_irq)(struct uart_port *port);
};

struct uart_port {
	struct console con;
	const struct uart_ops *ops;
	/* Input once the receive interrupt is on: a ring the handler fills. */
	bool rx_irq;
	spinlock_t rx_lock; /* the reader may be on another CPU than the handler */
	unsigned int rx_head, rx_tail;
	char rx_buf[256];
};

/* Name the port's console, hook it up and register it (input polled). */
void uart_add_one_port(struct uart_port *port, const char *name,
		       const struct uart_ops *ops);
/* Write n bytes through poll_put_char, each '\n' as "\r\n". */
void uart_console_write(struct uart_port *port, const char *s, size_t n);
/* Switch input from polling to the receive interrupt irq (0 or -errno). */
int uart_enable_rx_irq(struct uart_port *port, unsigned int irq);

#endif
