// SPDX-License-Identifier: MIT
/*
 * printk: the kernel's log. A message may start with a level (KERN_ERR...);
 * each line gets a "[seconds.micros]" timestamp since boot, goes into a ring
 * buffer that `dmesg` replays, and is written to every console when its
 * level is below loglevel=. kprintf() is the unadorned variant for the shell
 * and test output.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

static u64 console_loglevel = 7;
PARAM_UINT("loglevel", console_loglevel, 0, 8,
	   "print messages with a level below this (0 emerg .. 7 debug)");
static bool quiet;
PARAM_BOOL("quiet", quiet, "only warnings and worse on the console (loglevel=4)");

static struct console *consoles;

/* The log ring: lines kept for dmesg, oldest overwritten first. */
#define LOG_BUF_SIZE (64 * 1024)
static char log_buf[LOG_BUF_SIZE];
static size_t log_head; /* total bytes ever written */

static bool at_line_start = true;

/*
 * While a test provokes a report on purpose (a bad free, a lock inversion),
 * each line of the log is marked as a KTAP diagnostic, "# expected: ...",
 * so a passing run does not look broken and a reader of the KTAP output
 * (or a harness) can tell a wanted report from a real one.
 */
static int expect_reports;
#define EXPECTED_PREFIX "        # expected: "

void printk_expect_reports(bool on)
{
	__atomic_add_fetch(&expect_reports, on ? 1 : -1, __ATOMIC_RELAXED);
}

void printk_expect_reports_reset(void)
{
	__atomic_store_n(&expect_reports, 0, __ATOMIC_RELAXED);
}

/*
 * One CPU prints at a time, so lines from several CPUs do not mix. The
 * lock notes its owner: the same CPU coming back (an exception while
 * printing, panic) goes straight through rather than deadlock, and a
 * holder that never lets go (a stopped CPU) is overridden after a second.
 */
static int printk_owner = -1;

static unsigned long printk_lock(bool *nested)
{
	unsigned long flags = arch_irq_save();
	int me = (int)smp_processor_id(), none = -1;
	u64 start = arch_cycles(), hz = arch_cycles_hz();

	*nested = __atomic_load_n(&printk_owner, __ATOMIC_RELAXED) == me;
	if (*nested)
		return flags;
	while (!__atomic_compare_exchange_n(&printk_owner, &none, me, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		none = -1;
		if (hz && arch_cycles() - start > hz) {
			__atomic_store_n(&printk_owner, me, __ATOMIC_SEQ_CST);
			break;
		}
		arch_cpu_relax();
	}
	return flags;
}

static void printk_unlock(unsigned long flags, bool nested)
{
	if (!nested)
		smp_store_release(&printk_owner, -1);
	arch_irq_restore(flags);
}

void register_console(struct console *con)
{
	con->next = consoles;
	consoles = con;
}

void console_write(const char *s, size_t n)
{
	for (struct console *c = consoles; c; c = c->next)
		c->write(c, s, n);
}

/*
 * The other writers to the console (the shell's line editor, programs'
 * output through the tty, seq_file's dumps) take printk's lock too, so no
 * two CPUs' bytes mix: a prompt one CPU wrote once came out interleaved
 * letter by letter with a line printk wrote on the other. Long writes go
 * a piece at a time, so interrupts are never off for longer than a line's
 * worth. (console_write() itself stays lock-free: the earliest boot code
 * writes before there is a CPU number to own the lock.)
 */
#define CONSOLE_PIECE 256

void console_write_locked(const char *s, size_t n)
{
	while (n) {
		size_t piece = MIN(n, (size_t)CONSOLE_PIECE);
		bool nested;
		unsigned long flags = printk_lock(&nested);

		console_write(s, piece);
		printk_unlock(flags, nested);
		s += piece;
		n -= piece;
	}
}

int console_getc(void)
{
	for (struct console *c = consoles; c; c = c->next) {
		int ch = c->getc ? c->getc(c) : -1;

		if (ch >= 0)
			return ch;
	}
	return -1;
}

static void log_store(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) % LOG_BUF_SIZE] = s[i];
	log_head += n;
}

void log_replay(void (*out)(const char *s, size_t n))
{
	size_t start = log_head > LOG_BUF_SIZE ? log_head - LOG_BUF_SIZE : 0;

	for (size_t i = start; i < log_head; i++)
		out(&log_buf[i % LOG_BUF_SIZE], 1);
}

static int effective_loglevel(void)
{
	return quiet && console_loglevel > 4 ? 4 : (int)console_loglevel;
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512], stamp[32];
	int level = LOGLEVEL_DEFAULT, len;
	bool cont = false, nested;
	const char *p = buf, *end;
	unsigned long flags;

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] == 'c')
			cont = true;
		else if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		fmt += 2;
	}
	len = vscnprintf(buf, sizeof(buf), fmt, ap);
	end = buf + len;
	flags = printk_lock(&nested);
	/* A new message that is not a continuation starts a fresh line. */
	if (!cont && !at_line_start) {
		log_store("\n", 1);
		if (level < effective_loglevel())
			console_write("\n", 1);
		at_line_start = true;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);
		bool show = level < effective_loglevel();

		if (at_line_start && __atomic_load_n(&expect_reports, __ATOMIC_RELAXED) > 0) {
			log_store(EXPECTED_PREFIX, sizeof(EXPECTED_PREFIX) - 1);
			if (show)
				console_write(EXPECTED_PREFIX, sizeof(EXPECTED_PREFIX) - 1);
		}
		if (at_line_start) {
			u64 ns = ktime_get_ns();
			int sl = scnprintf(stamp, sizeof(stamp), "[%5llu.%06llu] ",
					   (unsigned long long)(ns / 1000000000),
					   (unsigned long long)(ns / 1000 % 1000000));

			log_store(stamp, sl);
			if (show)
				console_write(stamp, sl);
		}
		log_store(p, n);
		if (show)
			console_write(p, n);
		at_line_start = nl != NULL;
		p += n;
	}
	printk_unlock(flags, nested);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

int vkprintf(const char *fmt, va_list ap)
{
	char buf[512];
	int len = vscnprintf(buf, sizeof(buf), fmt, ap);
	bool nested;
	unsigned long flags = printk_lock(&nested);

	console_write(buf, len);
	printk_unlock(flags, nested);
	return len;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(fmt, ap);
	va_end(ap);
	return n;
}

static void print_frame_err(u64 pc, void *arg)
{
	(void)arg;
	printk(KERN_ERR "  [<%016llx>] %pS\n", (unsigned long long)pc, (void *)pc);
}

void dump_stack(void)
{
	printk(KERN_ERR "Call trace:\n");
	arch_stack_walk(print_frame_err, NULL);
}
