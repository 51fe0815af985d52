// SPDX-License-Identifier: MIT
/*
 * From head.S to start_kernel(): the MMU is on with head.S's temporary
 * tables and nothing else is set up. In order:
 *   1. the real page tables for the image (mmu.c), then the early console
 *      at the platform's fixed UART address, so everything after can talk;
 *   2. the device tree from x0: mapped, checked and turned into struct
 *      boot_info (memory, command line, UART, GIC, PSCI...);
 *   3. the direct map of the RAM it names, the devices it names, the
 *      counter frequency, and a probe for semihosting;
 * then the portable kernel.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/errname.h>
#include <pagoda/fdt.h>
#include <pagoda/init.h>
#include <pagoda/pl011.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <asm/arm64.h>
#include "gic.h"
#include "platform.h"

#define FDT_MAGIC_BE 0xedfe0dd0 /* 0xd00dfeed as a little-endian load sees it */
#define DTB_MAX_SIZE (2 * SZ_1M)

extern char _head[], __kernel_end[];
long arm64_semihost(u64 op, const void *block);

const char arch_name[] = "arm64";
static struct pl011 uart;
static phys_addr_t uart_pa; /* where the console's registers are */
static unsigned int uart_irq; /* its receive interrupt (GIC INTID), 0 if unknown */
static bool semihosting;
static unsigned int entry_el;

const char *arch_platform(void)
{
	return platform->name;
}

/* QEMU's virt board exists only as a virtual machine; a Pi 4 may be either. */
bool arch_cpus_virtual(void)
{
	return !strcmp(platform->name, "virt");
}

/*
 * Only an emulator answers semihosting calls (KVM does not implement
 * them, hardware without a debugger treats HLT as undefined), so an
 * answer means TCG.
 */
const char *arch_accelerator(void)
{
	if (semihosting)
		return "tcg";
	return strcmp(platform->name, "virt") ? "hardware" : "unknown (QEMU without -semihosting)";
}

void arch_early_console_init(void)
{
	platform_console_pins(platform);
	uart_pa = platform->uart;
	uart.base = early_ioremap(uart_pa, 0x1000);
	uart.clock_hz = platform->uart_clock;
	pl011_init(&uart, 115200);
	/* Firmware may leave its cursor mid-line. */
	console_write("\n", 1);
}

static u32 be32(u32 v)
{
	return __builtin_bswap32(v);
}

/*
 * Map the DTB the loader left at pa and read it into boot_info. Only the
 * header is trusted before fdt_check() (inside fdt_fill_boot_info) has
 * looked at the whole blob.
 */
static const void *read_device_tree(phys_addr_t pa)
{
	const u32 *hdr;
	u32 size;

	if (!pa || !IS_ALIGNED(pa, 8)) {
		pr_err("boot: no device tree (x0 = %#llx)\n", (unsigned long long)pa);
		return NULL;
	}
	if (mmu_map_dtb(pa, 8))
		return NULL;
	hdr = __va(pa);
	if (hdr[0] != FDT_MAGIC_BE) {
		/* QEMU raspi4b without -dtb passes ATAGS at 0x100, for instance. */
		pr_err("boot: x0 = %#llx holds no device tree (magic %#x, want 0xd00dfeed)\n",
		       (unsigned long long)pa, be32(hdr[0]));
		return NULL;
	}
	size = be32(hdr[1]);
	if (size < 40 || size > DTB_MAX_SIZE) {
		pr_err("boot: device tree at %#llx claims %u bytes; refusing it\n",
		       (unsigned long long)pa, size);
		return NULL;
	}
	if (mmu_map_dtb(pa, size))
		return NULL;
	if (fdt_fill_boot_info(__va(pa), size, &boot_info))
		return NULL;
	boot_info.dtb = pa;
	/* The blob stays where it is: nobody may hand its pages out. */
	boot_info_add_mem(&boot_info, ALIGN_DOWN(pa, PAGE_SIZE),
			  ALIGN_UP(pa + size, PAGE_SIZE) - ALIGN_DOWN(pa, PAGE_SIZE),
			  BOOT_MEM_FW_RESERVED);
	return __va(pa);
}

/*
 * The console: the UART /chosen/stdout-path names when it is a PL011,
 * else the first enabled PL011 in the tree (the Pi 4's stdout-path names
 * the mini UART, which this kernel does not drive), else the early one.
 * Returns its node (or -1) and its address (or 0) in *pa.
 */
static int find_pl011(const void *fdt, phys_addr_t *pa)
{
	u64 base, size;

	*pa = 0;
	for (int n = fdt_node_by_compatible(fdt, -1, "arm,pl011"); n >= 0;
	     n = fdt_node_by_compatible(fdt, n, "arm,pl011")) {
		if (!fdt_node_enabled(fdt, n) || fdt_reg_cpu(fdt, n, 0, &base, &size))
			continue;
		if (boot_info.uart.base && !strcmp(boot_info.uart.compatible, "arm,pl011") &&
		    base != boot_info.uart.base)
			continue; /* not the one stdout-path names */
		*pa = base;
		return n;
	}
	if (boot_info.uart.base && !strcmp(boot_info.uart.compatible, "arm,pl011"))
		*pa = boot_info.uart.base;
	return -1;
}

static void setup_console(const void *fdt)
{
	phys_addr_t pa;
	int node = find_pl011(fdt, &pa);
	void *va;

	if (boot_info.uart.base && boot_info.uart.base != pa)
		pr_info("console: stdout-path names a %s at %llx; using the PL011 at %llx\n",
			boot_info.uart.compatible, (unsigned long long)boot_info.uart.base,
			(unsigned long long)pa);
	uart_irq = node >= 0 && arch_fdt_irq(fdt, node, 0) > 0 ? arch_fdt_irq(fdt, node, 0) : 0;
	if (!pa || pa == uart_pa)
		return;
	va = early_ioremap(pa, 0x1000);
	if (!va) {
		pr_warn("console: cannot map the PL011 at %llx; staying on %llx\n",
			(unsigned long long)pa, (unsigned long long)uart_pa);
		uart_irq = 0;
		return;
	}
	pr_info("console: moving to the PL011 at %llx\n", (unsigned long long)pa);
	uart_pa = pa;
	pl011_set_base(&uart, va, platform->uart_clock, boot_info.uart.baud ?: 115200);
}

/* The power manager/watchdog of Broadcom's Raspberry Pi chips, if any. */
static phys_addr_t find_bcm_pm(const void *fdt)
{
	int n = fdt_node_by_compatible(fdt, -1, "brcm,bcm2835-pm-wdt");
	u64 base, size;

	if (n < 0)
		n = fdt_node_by_compatible(fdt, -1, "brcm,bcm2835-pm");
	if (n >= 0 && fdt_node_enabled(fdt, n) && !fdt_reg_cpu(fdt, n, 0, &base, &size))
		return base;
	return 0;
}

static void probe_semihosting(void)
{
	/* SYS_ERRNO: harmless, and answered by any semihosting host. */
	semihosting = arm64_semihost(0x13, NULL) >= 0;
}

static const char *const psci_names[] = {
	[BOOT_PSCI_NONE] = NULL, [BOOT_PSCI_HVC] = "hvc", [BOOT_PSCI_SMC] = "smc",
};

void arm64_start(u64 dtb_pa, u64 image_pa, u64 entry_cycles, u64 el)
{
	const struct arm64_platform *dt_platform;
	const char *counter_source;
	const void *fdt;

	/* Per-CPU registers (TPIDR_EL1, SP_EL0) before anything takes a lock. */
	percpu_init_boot_cpu();
	arm64_fpsimd_cpu_init();
	arm64_debug_cpu_init();
	boot_entry_cycles = entry_cycles;
	boot_mark("entry");
	entry_el = (unsigned int)el;
	counter_source = arm64_counter_init(0); /* printk's timestamps need it */
	paging_init(image_pa);
	platform = platform_by_name(ARM64_PLATFORM);
	arch_early_console_init();
	boot_mark("early console");
	/* Fallbacks, so that even a boot without a device tree can end. */
	arm64_power_init(!platform->psci ? NULL : entry_el == 2 ? "smc" : "hvc", platform->pm);
	boot_info.loader = entry_el == 2 ? "arm64 Image, entered at EL2" : "arm64 Image, entered at EL1";
	boot_info.kernel_start = image_pa;
	boot_info.kernel_end = image_pa + (u64)(__kernel_end - _head);
	fdt = read_device_tree(dtb_pa);
	if (!fdt)
		panic("boot: cannot go on without a valid device tree: it is the only source of "
		      "the memory map");
	dt_platform = platform_by_compatible(fdt);
	if (dt_platform && dt_platform != platform) {
		pr_info("boot: built for %s, but the device tree says %s; following it\n",
			platform->name, dt_platform->name);
		platform = dt_platform;
	}
	boot_mark("device tree");
	paging_map_direct();
	boot_mark("page tables");

	setup_console(fdt);
	if (strcmp(counter_source, "CNTFRQ_EL0"))
		counter_source = arm64_counter_init(boot_info.timer.frequency);
	arm64_power_init(boot_info.psci_method < ARRAY_SIZE(psci_names) ?
			 psci_names[boot_info.psci_method] : NULL, find_bcm_pm(fdt));
	gic_probe();
	arm64_rtc_probe(fdt);
	probe_semihosting();
	pr_info("arm64: %s, entered at EL%u, now EL1; %u CPUs in the device tree, CPU 0 runs\n",
		boot_info.model[0] ? boot_info.model : platform->name, entry_el, boot_info.nr_cpus);
	pr_info("arm64: counter %llu Hz (from %s); power: %s; semihosting %s\n",
		(unsigned long long)arch_cycles_hz(), counter_source, arm64_power_method(),
		semihosting ? "answers" : "absent");
	pr_info("arm64: image at %llx (KERNEL_VIRT %llx), direct map up to %llx\n",
		(unsigned long long)image_pa, (unsigned long long)KERNEL_VIRT,
		(unsigned long long)arch_direct_map_end());
	boot_mark("devices");
	paging_boot_done();
	start_kernel();
}

/* Interrupts and threads work: let the console's input interrupt wake the shell. */
void arch_late_init(void)
{
	int err;

	arm64_crc32c_init();
	if (!uart_irq) {
		pr_info("arm64: console input stays polled (the device tree names no GIC "
			"interrupt for the PL011)\n");
		return;
	}
	err = uart_enable_rx_irq(&uart.port, uart_irq);
	if (err)
		pr_warn("arm64: console input stays polled (%s)\n", errmsg(err));
	else
		pr_info("arm64: console input on interrupt %u\n", uart_irq);
}
