// SPDX-License-Identifier: MIT
/*
 * PL011 UART console, polled. Output waits while the transmit FIFO is
 * full (FR.TXFF), so up to 16 bytes leave without waiting; input reads
 * one byte when the receive FIFO is not empty (FR.RXFE clear).
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

void pl011_putc(struct pl011 *u, char c)
{
	while (rd(u, UART_FR) & FR_TXFF)
		;
	wr(u, UART_DR, (u8)c);
}

static void pl011_con_write(struct console *con, const char *s, size_t n)
{
	struct pl011 *u = container_of(con, struct pl011, con);

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			pl011_putc(u, '\r');
		pl011_putc(u, s[i]);
	}
}

static int pl011_con_getc(struct console *con)
{
	struct pl011 *u = container_of(con, struct pl011, con);

	if (rd(u, UART_FR) & FR_RXFE)
		return -1;
	return rd(u, UART_DR) & 0xff;
}

static void pl011_setup(struct pl011 *u, u32 baud)
{
	wr(u, UART_IMSC, 0); /* polled: no interrupts yet */
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
	u->con.name = "ttyAMA0";
	u->con.write = pl011_con_write;
	u->con.getc = pl011_con_getc;
	register_console(&u->con);
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
