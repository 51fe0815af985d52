// SPDX-License-Identifier: MIT
/*
 * What the portable kernel code expects from an architecture, provided by
 * the host: a clock, a console on stdout, panic as abort. Compiled with
 * host_prefix.h like the kernel sources, so it uses no libc headers that
 * declare the renamed functions.
 */
#include <pagoda/arch.h>
#include <pagoda/ksyms.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/task.h>

/* libc, declared by hand to stay clear of the renamed names. */
extern long write(int fd, const void *buf, unsigned long n);
extern void abort(void);
struct timespec_host { long tv_sec, tv_nsec; };
extern int clock_gettime(int clk, struct timespec_host *ts);

u64 boot_entry_cycles;

/* One CPU, one task: what asm/percpu.h hands out on the host. */
struct cpu_local cpu_locals[NR_CPUS] = {
	[0] = { .self = &cpu_locals[0], .online = true },
};
struct cpu_local *host_cpu_local = &cpu_locals[0];
static struct task host_task = { .name = "host" };
struct task *host_current = &host_task;
unsigned long host_page_offset;

u64 arch_cycles(void)
{
	struct timespec_host ts;

	clock_gettime(1 /* CLOCK_MONOTONIC */, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

u64 arch_cycles_hz(void) { return 1000000000ULL; }
void arch_cpu_relax(void) { }
/* No soft-lockup watchdog on the host: long walks' touches go nowhere. */
void touch_softlockup_watchdog(void) { }
bool arch_get_random_seed_u64(u64 *v) { (void)v; return false; }
void arch_stack_walk(void (*fn)(u64 pc, void *arg), void *arg) { (void)fn; (void)arg; }
/* The architecture's page zeroing (arch/: clear_page.c), for the page allocator's __GFP_ZERO. */
void clear_page(void *page) { memset(page, 0, PAGE_SIZE); }

/* No kernel image on the host: an empty symbol table. */
const struct ksym_table kernel_ksyms = { 0 };

static void stdout_write(struct console *con, const char *s, size_t n)
{
	(void)con;
	while (n) {
		long w = write(1, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static struct console host_console = { .name = "stdout", .write = stdout_write };

void host_env_init(void)
{
	boot_entry_cycles = arch_cycles();
	register_console(&host_console);
}

void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kprintf("host panic: %s\n", msg);
	abort();
	for (;;)
		;
}

/* mm/memsim.h: simulated nodes' memory comes from the C library here. */
extern void *calloc(unsigned long n, unsigned long size);
extern void free(void *p);

void *memsim_alloc(size_t size)
{
	return calloc(1, size);
}

void memsim_free(void *p)
{
	free(p);
}
