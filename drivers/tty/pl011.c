// SPDX-License-Identifier: MIT
/*
 * PL011 UART console. Output waits while the transmit FIFO is full
 * (FR.TXFF), so up to 16 bytes leave without waiting. Input starts polled
 * (one byte when FR.RXFE is clear); once the kernel has interrupts, the
 * serial core (serial_core.c) switches it to the receive interrupt. Two
 * sources raise it: the FIFO reaching its trigger level (RX) and bytes
 * sitting below that level for a while (receive timeout, RT).
 *
 * The baud rate divisor is reference clock / (16 x baud), kept as a
 * 16.6 fixed-point number: IBRD takes the integer part, FBRD the 6-bit
 * fraction. On QEMU the rate does not matter; on a Pi the clock is the
 * firmware's 48 MHz UART clock. LCR_H may only change while the UART is
 * disabled, and only after it has finished sending.
 */
#include <pagoda/pl011.h>

enum {
	UART_DR = 0x00,
	UART_FR = 0x18,
	UART_IBRD = 0x24,
	UART_FBRD = 0x28,
	UART_LCR_H = 0x2c,
	UART_CR = 0x30,
	UART_IMSC = 0x38,
	UART_ICR = 0x44,
};
#define INT_RX (1 << 4)
#define INT_RT (1 << 6)
#define FR_BUSY (1 << 3)
#define FR_RXFE (1 << 4)
#define FR_TXFF (1 << 5)
#define LCR_H_FEN (1 << 4)
#define LCR_H_WLEN8 (3 << 5)
#define CR_UARTEN (1 << 0)
#define CR_TXE (1 << 8)
#define CR_RXE (1 << 9)

static u32 rd(struct pl011 *u, int reg)
{
	return *(volatile u32 *)((volatile u8 *)u->base + reg);
}

static void wr(struct pl011 *u, int reg, u32 v)
{
	*(volatile u32 *)((volatile u8 *)u->base + reg) = v;
}

static struct pl011 *to_pl011(struct uart_port *port)
{
	return container_of(port, struct pl011, port);
}

static void pl011_put_char(struct uart_port *port, char c)
{
	struct pl011 *u = to_pl011(port);

	while (rd(u, UART_FR) & FR_TXFF)
		;
	wr(u, UART_DR, (u8)c);
}

static int pl011_get_char(struct uart_port *port)
{
	struct pl011 *u = to_pl011(port);

	if (rd(u, UART_FR) & FR_RXFE)
		return -1;
	return rd(u, UART_DR) & 0xff;
}

static void pl011_enable_rx(struct uart_port *port)
{
	wr(to_pl011(port), UART_IMSC, INT_RX | INT_RT);
}

/* Clear both causes; draining the FIFO then removes what raised them. */
static void pl011_ack_rx(struct uart_port *port)
{
	wr(to_pl011(port), UART_ICR, INT_RX | INT_RT);
}

static const struct uart_ops pl011_ops = {
	.poll_put_char = pl011_put_char,
	.poll_get_char = pl011_get_char,
	.enable_rx_irq = pl011_enable_rx,
	.ack_rx_irq = pl011_ack_rx,
};

static void pl011_setup(struct pl011 *u, u32 baud)
{
	wr(u, UART_IMSC, u->port.rx_irq ? INT_RX | INT_RT : 0); /* polled until switched */
	wr(u, UART_ICR, 0x7ff);
	if (u->clock_hz && baud) {
		u64 div = ((u64)u->clock_hz * 4 + baud / 2) / baud; /* 64 * clock / (16 * baud) */

		while (rd(u, UART_FR) & FR_BUSY)
			;
		wr(u, UART_CR, 0);
		wr(u, UART_IBRD, (u32)(div >> 6));
		wr(u, UART_FBRD, (u32)(div & 63));
		wr(u, UART_LCR_H, LCR_H_WLEN8 | LCR_H_FEN); /* 8N1, FIFOs on */
	}
	wr(u, UART_CR, CR_UARTEN | CR_TXE | CR_RXE);
}

void pl011_init(struct pl011 *u, u32 baud)
{
	pl011_setup(u, baud);
	uart_add_one_port(&u->port, "ttyAMA0", &pl011_ops);
}

void pl011_set_base(struct pl011 *u, volatile void *base, u32 clock_hz, u32 baud)
{
	if (u->base && u->base != base)
		while (rd(u, UART_FR) & FR_BUSY)
			;
	u->base = base;
	u->clock_hz = clock_hz;
	pl011_setup(u, baud);
}
