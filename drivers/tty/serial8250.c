// SPDX-License-Identifier: MIT
/*
 * 16550 UART console. Output polls the line status register; once the
 * transmitter reports empty we may write a whole FIFO's worth (16 bytes)
 * before polling again, which matters under virtualization where every
 * register access is a trap to the emulator.
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

static int uart_con_getc(struct console *con)
{
	struct uart8250 *u = container_of(con, struct uart8250, con);

	if (!(u->read(u->base, UART_LSR) & LSR_DATA_READY))
		return -1;
	return u->read(u->base, UART_RBR);
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
