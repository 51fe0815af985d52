// SPDX-License-Identifier: MIT
/*
 * PL011 UART console. Output waits while the transmit FIFO is full
 * (FR.TXFF), so up to 16 bytes leave without waiting. Input starts polled
 * (one byte when FR.RXFE is clear) and switches to the receive interrupt
 * once the kernel has interrupts (pl011_enable_rx_irq): the handler drains
 * the FIFO into a ring and wakes whoever waits for console input. Two
 * sources raise it: the FIFO reaching its trigger level (RX) and bytes
 * sitting below that level for a while (receive timeout, RT).
 *
 * The baud rate divisor is reference clock / (16 x baud), kept as a
 * 16.6 fixed-point number: IBRD takes the integer part, FBRD the 6-bit
 * fraction. On QEMU the rate does not matter; on a Pi the clock is the
 * firmware's 48 MHz UART clock. LCR_H may only change while the UART is
 * disabled, and only after it has finished sending.
 */
#include <pagoda/arch.h>
#include <pagoda/irq.h>
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

static void rx_lock(struct pl011 *u, unsigned long *flags)
{
	*flags = arch_irq_save();
	while (__atomic_exchange_n(&u->rx_lock, 1, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

static void rx_unlock(struct pl011 *u, unsigned long flags)
{
	__atomic_store_n(&u->rx_lock, 0, __ATOMIC_RELEASE);
	arch_irq_restore(flags);
}

static int pl011_con_getc(struct console *con)
{
	struct pl011 *u = container_of(con, struct pl011, con);
	unsigned long flags;
	int c = -1;

	if (!u->rx_irq) {
		if (rd(u, UART_FR) & FR_RXFE)
			return -1;
		return rd(u, UART_DR) & 0xff;
	}
	rx_lock(u, &flags);
	if (u->rx_tail != u->rx_head) {
		c = (u8)u->rx_buf[u->rx_tail % sizeof(u->rx_buf)];
		u->rx_tail++;
	}
	rx_unlock(u, flags);
	return c;
}

static void pl011_rx_interrupt(unsigned int irq, void *dev)
{
	struct pl011 *u = dev;
	unsigned long flags;
	bool got = false;

	(void)irq;
	rx_lock(u, &flags);
	/* Clear first: a byte arriving while we drain raises it again. */
	wr(u, UART_ICR, INT_RX | INT_RT);
	while (!(rd(u, UART_FR) & FR_RXFE)) {
		char c = (char)(rd(u, UART_DR) & 0xff);

		/* A full ring drops the newest byte, as a full FIFO would. */
		if (u->rx_head - u->rx_tail < sizeof(u->rx_buf))
			u->rx_buf[u->rx_head++ % sizeof(u->rx_buf)] = c;
		got = true;
	}
	rx_unlock(u, flags);
	if (got)
		console_input_notify();
}

int pl011_enable_rx_irq(struct pl011 *u, unsigned int irq)
{
	int err;

	u->rx_head = u->rx_tail = 0;
	u->rx_irq = true;
	err = request_irq(irq, pl011_rx_interrupt, u->con.name, u);
	if (err) {
		u->rx_irq = false;
		return err;
	}
	wr(u, UART_IMSC, INT_RX | INT_RT);
	console_input_irq = true;
	/* Bytes that arrived before the switch. */
	pl011_rx_interrupt(irq, u);
	return 0;
}

static void pl011_setup(struct pl011 *u, u32 baud)
{
	wr(u, UART_IMSC, u->rx_irq ? INT_RX | INT_RT : 0); /* polled until switched */
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
