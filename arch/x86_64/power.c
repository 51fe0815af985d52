// SPDX-License-Identifier: MIT
/* Leaving the machine: power off, reset, or an emulator exit status. */
#include <pagoda/arch.h>
#include <pagoda/time.h>
#include <asm/x86.h>
#include "acpi.h"

/* QEMU's isa-debug-exit device: writing v exits QEMU with (v << 1) | 1. */
#define DEBUG_EXIT_PORT 0xf4

/*
 * isa-debug-exit cannot make QEMU exit 0, and its 1 (our 0) is QEMU's own
 * error status too. So success returns and the caller powers off through
 * ACPI, which QEMU ends with 0, as on arm64; only failures take the port.
 */
void arch_emulator_exit(int status)
{
	if (status)
		outl(DEBUG_EXIT_PORT, (u32)status);
}

void arch_irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
void arch_irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }
/* arch_irq_save() and arch_irq_restore() are inline: asm/irqflags.h. */

void arch_cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }

void arch_halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

void arch_cpu_die(void)
{
	/* Halted with interrupts off, only INIT (a restart) moves it again. */
	arch_halt_forever();
}

/* INIT and a start-up IPI start any CPU again, wherever it stopped. */
bool arch_cpu_can_restart(unsigned int cpu)
{
	(void)cpu;
	return true;
}

void arch_poweroff(void)
{
	arch_irq_disable();
	acpi_poweroff();
	udelay(100000);
	arch_halt_forever();
}

void arch_reboot(void)
{
	struct { u16 limit; u64 base; } __packed null_idt = { 0, 0 };

	arch_irq_disable();
	acpi_reset();
	udelay(50000);
	outb(0xcf9, 0x02); /* PCI reset control: hard reset */
	outb(0xcf9, 0x06);
	udelay(50000);
	outb(0x64, 0xfe); /* the keyboard controller's reset line */
	udelay(50000);
	/* Last resort: a triple fault. */
	__asm__ volatile("lidt %0; int3" ::"m"(null_idt));
	arch_halt_forever();
}
