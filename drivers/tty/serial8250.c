// SPDX-License-Identifier: MIT
/*
 * 16550 UART console. Output polls the line status register; once the
 * transmitter reports empty we may write a whole FIFO's worth (16 bytes)
 * before polling again, which matters under virtualization where every
 * register access is a trap to the emulator.
 *
 * Input starts polled and switches to the receive interrupt once the
 * kernel has interrupts (serial8250_enable_rx_irq): the handler drains the
 * FIFO into a ring and wakes whoever waits for console input.
 */
#include <pagoda/arch.h>
#include <pagoda/irq.h>
#include <pagoda/serial8250.h>

enum {
	UART_RBR = 0, UART_THR = 0, UART_DLL = 0,
	UART_IER = 1, UART_DLM = 1,
	UART_FCR = 2,
	UART_LCR = 3,
	UART_MCR = 4,
	UART_LSR = 5,
};
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20
#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define FIFO_SIZE 16

void serial8250_putc(struct uart8250 *u, char c)
{
	if (u->tx_room == 0) {
		while (!(u->read(u->base, UART_LSR) & LSR_THR_EMPTY))
			;
		u->tx_room = FIFO_SIZE;
	}
	u->write(u->base, UART_THR, (u8)c);
	u->tx_room--;
}

static void uart_con_write(struct console *con, const char *s, size_t n)
{
	struct uart8250 *u = container_of(con, struct uart8250, con);

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial8250_putc(u, '\r');
		serial8250_putc(u, s[i]);
	}
}

static void rx_lock(struct uart8250 *u, unsigned long *flags)
{
	*flags = arch_irq_save();
	while (__atomic_exchange_n(&u->rx_lock, 1, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

static void rx_unlock(struct uart8250 *u, unsigned long flags)
{
	__atomic_store_n(&u->rx_lock, 0, __ATOMIC_RELEASE);
	arch_irq_restore(flags);
}

static int uart_con_getc(struct console *con)
{
	struct uart8250 *u = container_of(con, struct uart8250, con);
	unsigned long flags;
	int c = -1;

	if (!u->rx_irq) {
		if (!(u->read(u->base, UART_LSR) & LSR_DATA_READY))
			return -1;
		return u->read(u->base, UART_RBR);
	}
	rx_lock(u, &flags);
	if (u->rx_tail != u->rx_head) {
		c = (u8)u->rx_buf[u->rx_tail % sizeof(u->rx_buf)];
		u->rx_tail++;
	}
	rx_unlock(u, flags);
	return c;
}

static void uart_rx_interrupt(unsigned int irq, void *dev)
{
	struct uart8250 *u = dev;
	unsigned long flags;
	bool got = false;

	(void)irq;
	rx_lock(u, &flags);
	while (u->read(u->base, UART_LSR) & LSR_DATA_READY) {
		char c = (char)u->read(u->base, UART_RBR);

		/* A full ring drops the newest byte, as a full FIFO would. */
		if (u->rx_head - u->rx_tail < sizeof(u->rx_buf))
			u->rx_buf[u->rx_head++ % sizeof(u->rx_buf)] = c;
		got = true;
	}
	rx_unlock(u, flags);
	if (got)
		console_input_notify();
}

int serial8250_enable_rx_irq(struct uart8250 *u, unsigned int irq)
{
	int err;

	u->rx_head = u->rx_tail = 0;
	u->rx_irq = true;
	err = request_irq(irq, uart_rx_interrupt, u->con.name, u);
	if (err) {
		u->rx_irq = false;
		return err;
	}
	u->write(u->base, UART_IER, 0x01); /* received data available */
	console_input_irq = true;
	/* Bytes that arrived before the switch. */
	uart_rx_interrupt(irq, u);
	return 0;
}

void serial8250_init(struct uart8250 *u, u32 baud)
{
	u32 div = 115200 / (baud ? baud : 115200);

	u->write(u->base, UART_IER, 0); /* polled: no interrupts yet */
	u->write(u->base, UART_LCR, LCR_DLAB);
	u->write(u->base, UART_DLL, div & 0xff);
	u->write(u->base, UART_DLM, (div >> 8) & 0xff);
	u->write(u->base, UART_LCR, LCR_8N1);
	u->write(u->base, UART_FCR, 0xc7); /* enable and clear FIFOs */
	u->write(u->base, UART_MCR, 0x0b); /* DTR, RTS, OUT2 */
	u->tx_room = 0;
	u->con.name = "ttyS0";
	u->con.write = uart_con_write;
	u->con.getc = uart_con_getc;
	register_console(&u->con);
}
