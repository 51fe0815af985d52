// SPDX-License-Identifier: MIT
/*
 * The part of a UART console that does not depend on the UART (see
 * <pagoda/serial_core.h>).
 *
 * Output takes no lock here. printk serializes its callers with a lock it
 * can break (a CPU that stopped while printing, a panic, an exception in
 * the middle of a line), and the console must keep working in exactly
 * those cases, from the first instruction on; a spinlock here would
 * deadlock them.
 *
 * Input: until uart_enable_rx_irq() each read polls the hardware. After
 * it, the receive interrupt drains the UART's FIFO into a ring and wakes
 * whoever waits for console input; console_getc() takes from the ring,
 * possibly on another CPU. rx_lock guards the ring, taken with interrupts
 * off on both sides since one side is an interrupt handler.
 */
#include <pagoda/irq.h>
#include <pagoda/serial_core.h>

void uart_console_write(struct uart_port *port, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			port->ops->poll_put_char(port, '\r');
		port->ops->poll_put_char(port, s[i]);
	}
}

static void uart_con_write(struct console *con, const char *s, size_t n)
{
	uart_console_write(container_of(con, struct uart_port, con), s, n);
}

static int uart_con_getc(struct console *con)
{
	struct uart_port *port = container_of(con, struct uart_port, con);
	unsigned long flags;
	int c = -1;

	if (!port->rx_irq)
		return port->ops->poll_get_char(port);
	spin_lock_irqsave(&port->rx_lock, flags);
	if (port->rx_tail != port->rx_head) {
		c = (u8)port->rx_buf[port->rx_tail % sizeof(port->rx_buf)];
		port->rx_tail++;
	}
	spin_unlock_irqrestore(&port->rx_lock, flags);
	return c;
}

static void uart_rx_interrupt(unsigned int irq, void *dev)
{
	struct uart_port *port = dev;
	unsigned long flags;
	bool got = false;
	int c;

	(void)irq;
	/* Acknowledge first: a byte arriving while we drain raises it again. */
	if (port->ops->ack_rx_irq)
		port->ops->ack_rx_irq(port);
	spin_lock_irqsave(&port->rx_lock, flags);
	while ((c = port->ops->poll_get_char(port)) >= 0) {
		/* A full ring drops the newest byte, as a full FIFO would. */
		if (port->rx_head - port->rx_tail < sizeof(port->rx_buf))
			port->rx_buf[port->rx_head++ % sizeof(port->rx_buf)] = (char)c;
		got = true;
	}
	spin_unlock_irqrestore(&port->rx_lock, flags);
	if (got)
		console_input_notify();
}

int uart_enable_rx_irq(struct uart_port *port, unsigned int irq)
{
	int err;

	port->rx_head = port->rx_tail = 0;
	port->rx_irq = true;
	err = request_irq(irq, uart_rx_interrupt, port->con.name, port);
	if (err) {
		port->rx_irq = false;
		return err;
	}
	port->ops->enable_rx_irq(port);
	console_input_irq = true;
	/* Bytes that arrived before the switch. */
	uart_rx_interrupt(irq, port);
	return 0;
}

void uart_add_one_port(struct uart_port *port, const char *name,
		       const struct uart_ops *ops)
{
	port->ops = ops;
	spin_lock_init(&port->rx_lock);
	port->con.name = name;
	port->con.write = uart_con_write;
	port->con.getc = uart_con_getc;
	register_console(&port->con);
}
