// SPDX-License-Identifier: MIT
/*
 * panic(): the kernel cannot go on. Print why and where, then stop, or
 * reboot when panic=N says so (N < 0: at once; N > 0: after N seconds),
 * which is how the test harness turns a panic into a prompt QEMU exit.
 */
#include <pagoda/arch.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/smp.h>
#include <pagoda/time.h>

static s64 panic_timeout;
PARAM_INT("panic", panic_timeout, -1, 3600,
	  "after a panic: 0 halt, N reboot after N seconds, -1 reboot at once");

static bool in_panic;

void print_stack_frame(u64 pc, void *arg)
{
	(void)arg;
	printk(KERN_EMERG "  [<%016llx>] %pS\n", (unsigned long long)pc, (void *)pc);
}

void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	arch_irq_disable();
	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!in_panic) {
		in_panic = true;
		smp_send_stop();
		printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
		printk(KERN_EMERG "Call trace (panic):\n");
		arch_stack_walk(print_stack_frame, NULL);
		printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", msg);
	}
	if (panic_timeout < 0)
		arch_reboot();
	if (panic_timeout > 0) {
		printk(KERN_EMERG "Rebooting in %lld seconds..\n", (long long)panic_timeout);
		udelay((u64)panic_timeout * 1000000);
		arch_reboot();
	}
	/* A halted machine looks hung: say how to get out of it. */
	printk(KERN_EMERG "The machine is halted. In QEMU, Ctrl-A X quits; boot with "
	       "panic=N to reboot N seconds after a panic (panic=-1: at once).\n");
	arch_halt_forever();
}

/* Kept in a variable so the compiler cannot see (and reject) the NULL. */
static volatile u64 *volatile null_pointer;

/* A deliberate NULL-pointer write: shows the whole exception report. */
static int noinline cmd_panic(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	kprintf("panic: writing through a NULL pointer on purpose\n");
	*null_pointer = 0xdead;
	return 0;
}
SHELL_CMD(panic, "panic", "crash on purpose: a NULL write and its exception report",
	  cmd_panic);

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	arch_reboot();
}
SHELL_CMD(reboot, "reboot", "reset the machine", cmd_reboot);

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	kprintf("Power down.\n");
	arch_poweroff();
}
SHELL_CMD(poweroff, "poweroff", "turn the machine off (QEMU exits)", cmd_poweroff);
