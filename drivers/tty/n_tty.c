// SPDX-License-Identifier: MIT
/*
 * The serial console as a terminal for programs: Linux's line discipline
 * (drivers/tty/n_tty.c), cut to what a shell and its tools need.
 *
 * Its settings (struct termios) start as a Linux serial console's: 115200
 * 8N1, ICRNL, OPOST|ONLCR, and ISIG ICANON ECHO... in the local modes.
 * TCSETS changes them and a read follows them:
 *
 *   canonical (ICANON): a line is gathered, echoed when ECHO is on, with
 *   the erase key (DEL or Backspace) taking a character back and the kill
 *   key (Ctrl-U) the whole line; Enter ends it (CR read as NL under
 *   ICRNL), Ctrl-D at the start of a line is end-of-file. A read takes
 *   what it asked for of the line; the rest waits for the next read.
 *
 *   raw (what a line editor such as busybox's sets): a read waits for
 *   one key and takes any others already typed, with no echo.
 *
 * Ctrl-C is the kernel's (kernel/console_input.c: SIGINT to the program
 * in the foreground and everything it forked). There is one console, so
 * one set of settings, as Linux's ttyS0 has.
 *
 * The console is every session's controlling terminal (there is one, and
 * each program the kernel starts leads a session). A job-control shell
 * names the foreground group with TIOCSPGRP; it is kept with its session,
 * and Ctrl-C goes to it (kernel/signal.c, kill_process_group()). A
 * session that named none sees its caller's group in front (TIOCGPGRP).
 */
#include <pagoda/pipe.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>
#include "../../kernel/syscalls.h"

#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TIOCSCTTY 0x540e
#define TIOCGPGRP 0x540f
#define TIOCSPGRP 0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541b
#define TIOCNOTTY 0x5422
#define TIOCGSID 0x5429

#define ICRNL 0000400
#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define VERASE 2
#define VKILL 3
#define VEOF 4

/* The kernel's struct termios: four flag words, c_line, 19 control characters. */
struct ktermios {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[19];
};

static struct ktermios termios = {
	.c_iflag = 0x0500,  /* ICRNL | IXON */
	.c_oflag = 0x0005,  /* OPOST | ONLCR */
	.c_cflag = 0x14b2,  /* B115200 | CS8 | CREAD | HUPCL */
	.c_lflag = 0x8a3b,  /* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */
	.c_cc = { 3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22 },
};
static int fg_pgrp, fg_sid; /* the foreground group, and whose session named it */

/* A finished line not yet all read. */
static char line[256];
static size_t line_len, line_pos;

static void echo(const char *s, size_t n)
{
	if (termios.c_lflag & ECHO)
		console_write_locked(s, n);
}

static int key(bool wait)
{
	int c = wait ? console_getc_interruptible() : console_getc_nowait();

	if (c == '\r' && (termios.c_iflag & ICRNL))
		c = '\n';
	return c;
}

/* Gather a line (canonical mode): its length, 0 at Ctrl-D on an empty line, or -EINTR. */
static long read_line(void)
{
	size_t n = 0;

	for (;;) {
		int c = key(true);

		if (c < 0)
			return c;
		if (c == termios.c_cc[VEOF]) {
			if (!n)
				return 0;
			continue;
		}
		if (c == termios.c_cc[VERASE] || c == 8) {
			if (n) {
				n--;
				echo("\b \b", 3);
			}
			continue;
		}
		if (c == termios.c_cc[VKILL]) {
			while (n) {
				n--;
				echo("\b \b", 3);
			}
			continue;
		}
		if (c == '\n' || n < sizeof(line) - 1) {
			line[n++] = (char)c;
			echo(&line[n - 1], 1);
		}
		if (c == '\n')
			return (long)n;
	}
}

long tty_read(struct file *f, struct iov_iter *to)
{
	long n;
	size_t copied;

	(void)f;
	if (!iov_iter_count(to))
		return 0;
	if (!(termios.c_lflag & ICANON)) {
		char buf[64];
		int c = key(true);
		size_t got = 0;

		if (c < 0)
			return c;
		buf[got++] = (char)c;
		while (got < MIN(sizeof(buf), iov_iter_count(to)) && (c = key(false)) >= 0)
			buf[got++] = (char)c;
		copied = copy_to_iter(buf, got, to);
		return copied ? (long)copied : -EFAULT;
	}
	if (line_pos == line_len) {
		n = read_line();
		if (n <= 0)
			return n;
		line_len = (size_t)n;
		line_pos = 0;
	}
	copied = copy_to_iter(line + line_pos, line_len - line_pos, to);
	line_pos += copied;
	return copied ? (long)copied : -EFAULT;
}

long tty_ioctl(unsigned long cmd, u64 arg)
{
	switch (cmd) {
	case TCGETS:
		return copy_to_user(arg, &termios, sizeof(termios)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF: {
		struct ktermios t;

		if (copy_from_user(&t, arg, sizeof(t)))
			return -EFAULT;
		termios = t;
		if (cmd == TCSETSF)
			line_pos = line_len = 0; /* flush what was typed and not read */
		return 0;
	}
	case TIOCGWINSZ: {
		u16 ws[4] = { 24, (u16)shell_width(), 0, 0 };

		return copy_to_user(arg, ws, sizeof(ws)) ? -EFAULT : 0;
	}
	case TIOCSWINSZ:
	case TIOCSCTTY:
	case TIOCNOTTY:
		return 0;
	case TIOCGPGRP: {
		struct process *me = current_process();
		int pg = tty_foreground_pgrp(me->sid);

		if (!pg)
			pg = me->pgid;
		return copy_to_user(arg, &pg, 4) ? -EFAULT : 0;
	}
	case TIOCGSID:
		return copy_to_user(arg, &current_process()->sid, 4) ? -EFAULT : 0;
	case TIOCSPGRP: {
		struct process *me = current_process();
		long err = 0;
		int pg;

		if (copy_from_user(&pg, arg, 4))
			return -EFAULT;
		if (pg < 0)
			return -EINVAL;
		mutex_lock(&process_lock);
		if (!pgrp_exists_locked(pg, 0))
			err = -ESRCH;
		else if (!pgrp_exists_locked(pg, me->sid))
			err = -EPERM; /* another session's group */
		else {
			WRITE_ONCE(fg_pgrp, pg);
			WRITE_ONCE(fg_sid, me->sid);
		}
		mutex_unlock(&process_lock);
		return err;
	}
	case FIONREAD: {
		int n = (int)(line_len - line_pos);

		return copy_to_user(arg, &n, 4) ? -EFAULT : 0;
	}
	default:
		return -ENOTTY;
	}
}

int tty_foreground_pgrp(int sid)
{
	return READ_ONCE(fg_sid) == sid ? READ_ONCE(fg_pgrp) : 0;
}

/* poll(): readable with a line part-read or a key waiting; always writable. */
unsigned int tty_poll(void)
{
	unsigned int mask = POLLOUT | POLLWRNORM;

	if (line_pos < line_len || console_input_ready())
		mask |= POLLIN | POLLRDNORM;
	return mask;
}
