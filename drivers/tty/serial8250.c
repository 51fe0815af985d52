// SPDX-License-Identifier: MIT
/*
 * 16550 UART console. Output polls the line status register; once the
 * transmitter reports empty we may write a whole FIFO's worth (16 bytes)
 * before polling again, which matters under virtualization where every
 * register access is a trap to the emulator.
 *
 * Input starts polled; once the kernel has interrupts, the serial core
 * (serial_core.c) switches it to the receive interrupt, which it acks by
 * draining the FIFO.
 */
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

static struct uart8250 *to_uart8250(struct uart_port *port)
{
	return container_of(port, struct uart8250, port);
}

static void serial8250_put_char(struct uart_port *port, char c)
{
	struct uart8250 *u = to_uart8250(port);

	if (u->tx_room == 0) {
		while (!(u->read(u->base, UART_LSR) & LSR_THR_EMPTY))
			;
		u->tx_room = FIFO_SIZE;
	}
	u->write(u->base, UART_THR, (u8)c);
	u->tx_room--;
}

static int serial8250_get_char(struct uart_port *port)
{
	struct uart8250 *u = to_uart8250(port);

	if (!(u->read(u->base, UART_LSR) & LSR_DATA_READY))
		return -1;
	return u->read(u->base, UART_RBR);
}

static void serial8250_enable_rx(struct uart_port *port)
{
	struct uart8250 *u = to_uart8250(port);

	u->write(u->base, UART_IER, 0x01); /* received data available */
}

static const struct uart_ops serial8250_ops = {
	.poll_put_char = serial8250_put_char,
	.poll_get_char = serial8250_get_char,
	.enable_rx_irq = serial8250_enable_rx,
};

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
	uart_add_one_port(&u->port, "ttyS0", &serial8250_ops);
}
