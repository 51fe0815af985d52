/* SPDX-License-Identifier: MIT */
/*
 * printk: leveled, timestamped kernel messages (kernel/printk.c), and the
 * formatting engine under it (lib/vsprintf.c).
 *
 * The format language is C's printf for integers, strings, characters and
 * pointers (flags "-+ #0", width, precision, '*', length modifiers hh h l ll
 * z t j) without floating point, plus Linux-style extensions:
 *   %pS  a kernel text address as symbol+offset
 */
#ifndef PAGODA_PRINTK_H
#define PAGODA_PRINTK_H

#include <pagoda/types.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * Hook for %pS: write the symbol for addr into buf. Returns the length, or 0
 * when addr is not in a known symbol (then the raw address is printed).
 */
size_t ksym_format(char *buf, size_t size, uptr addr);

/* Log levels, as in Linux: a message's level is its first two characters. */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"

#define LOGLEVEL_DEFAULT 6

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

/*
 * Raw console output without level or timestamp: the shell, KTAP and the
 * benchmarks' tables use it.
 */
int kprintf(const char *fmt, ...) __printf(1, 2);
int vkprintf(const char *fmt, va_list ap);
void console_write(const char *s, size_t n);
/* The same, one CPU at a time with printk's lines: for everything but early boot. */
void console_write_locked(const char *s, size_t n);

/* A console driver: printk writes every line to each registered console. */
struct console {
	const char *name;
	void (*write)(struct console *con, const char *s, size_t n);
	int (*getc)(struct console *con); /* -1 when no character waits */
	struct console *next;
};
void register_console(struct console *con);
/* Replay the log ring (every level) through out, oldest first. */
void log_replay(void (*out)(const char *s, size_t n));
/* Read one character from the first console that has one, or -1. */
int console_getc(void);
/*
 * Interrupt-driven input (kernel/console_input.c): a driver whose receive
 * interrupt works sets console_input_irq and calls console_input_notify()
 * from its handler; console_getc_wait() then sleeps instead of polling.
 */
extern bool console_input_irq;
void console_input_notify(void);
int console_getc_wait(void);
/* For a program reading the terminal: the next key or -EINTR; a key now or -1. */
int console_getc_interruptible(void);
int console_getc_nowait(void);
bool console_input_ready(void);
/* Give a key back: the next console_getc_wait() returns it (in order). */
void console_input_push(int c);

/*
 * Between printk_expect_reports(true) and (false), log lines are printed as
 * KTAP diagnostics "# expected: ..." (a test provoking a report on purpose;
 * ktest_expect_reports() is the tests' spelling). Calls nest.
 */
void printk_expect_reports(bool on);
void printk_expect_reports_reset(void);

__noreturn void panic(const char *fmt, ...) __printf(1, 2);
/* One line of a stack trace: "[<address>] symbol+offset" (for arch_stack_walk). */
void print_stack_frame(u64 pc, void *arg);
/* Print the caller's stack trace (Linux's name). */
void dump_stack(void);

#define BUG_ON(cond)                                                        \
	do {                                                                \
		if (unlikely(cond))                                         \
			panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond); \
	} while (0)

#endif
