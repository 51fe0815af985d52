// SPDX-License-Identifier: MIT
/*
 * From head.asm to start_kernel(): read the loader's information while the
 * early identity map still makes physical addresses usable as pointers,
 * bring up the console, exceptions and the real page tables, and hand over.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/errname.h>
#include <pagoda/init.h>
#include <pagoda/printk.h>
#include <pagoda/serial8250.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <asm/x86.h>
#include "acpi.h"
#include "boot.h"

#define PVH_START_MAGIC 0x336ec578

extern u64 boot_tsc_low; /* written by head.asm before paging */
extern char __kernel_phys_start[], __kernel_phys_end[];

const char arch_name[] = "x86_64";

const char *arch_platform(void) { return "pc"; }

bool arch_cpus_virtual(void)
{
	return cpu.hypervisor;
}

const char *arch_accelerator(void)
{
	if (!strcmp(cpu.hv_vendor, "KVMKVMKVM"))
		return "kvm";
	if (!strcmp(cpu.hv_vendor, "TCGTCGTCGTCG"))
		return "tcg";
	return cpu.hypervisor ? cpu.hv_vendor : "none (TCG or bare metal)";
}

static u8 pio_read(uptr base, int reg) { return inb(base + reg); }
static void pio_write(uptr base, int reg, u8 v) { outb(base + reg, v); }
static struct uart8250 com1 = { .base = 0x3f8, .read = pio_read, .write = pio_write };

void arch_early_console_init(void)
{
	serial8250_init(&com1, 115200);
	/* Firmware leaves its cursor mid-line ("Booting from ROM.."). */
	console_write("\n", 1);
}

void arch_irq_init(void)
{
	lapic_init_boot();
	ioapic_init();
}

/* Interrupts and threads work: let the console's input interrupt wake the shell. */
void arch_late_init(void)
{
	int err = uart_enable_rx_irq(&com1.port, isa_irq_to_gsi(4));

	x86_crc32c_init();
	if (err)
		pr_warn("x86: COM1 stays polled (%s)\n", errmsg(err));
}

void x86_64_start(u32 magic, u32 info)
{
	int err;

	boot_entry_cycles = boot_tsc_low;
	boot_mark("entry");
	arch_early_console_init();
	cpu_detect();
	/* Per-CPU data (GS base) before anything takes a lock. */
	percpu_init_boot_cpu();
	mtrr_init();
	gdt_init();
	idt_init();
	if (magic == PVH_START_MAGIC)
		err = pvh_parse(info, &boot_info);
	else
		err = multiboot2_parse(magic, info, &boot_info);
	boot_info.kernel_start = (u64)__kernel_phys_start;
	boot_info.kernel_end = (u64)__kernel_phys_end;
	/* ISA DMA reaches 24 address bits: ZONE_DMA is the first 16 MiB. */
	boot_info.zone_dma_limit = 16 * SZ_1M;
	boot_info_sort_mem(&boot_info);
	tsc_init();
	boot_mark("early setup");
	paging_init();
	x86_user_init();
	boot_mark("page tables");
	if (err)
		pr_err("boot: loader information unusable (%d, magic %#x)\n", err, magic);
	pr_info("x86: %s CPU, MTRRs %s, TSC %llu kHz (from %s), %s pages in the direct map\n",
		cpu.vendor, mtrr_describe(), (unsigned long long)(arch_cycles_hz() / 1000),
		tsc_calibration_source(), cpu.pdpe1gb ? "1 GiB" : "2 MiB");
	acpi_init();
	hmat_init();
	boot_mark("acpi");
	smp_reserve_trampoline();
	start_kernel();
}
