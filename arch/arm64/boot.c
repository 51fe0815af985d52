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
#include <pagoda/init.h>
#include <pagoda/pl011.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <asm/arm64.h>
#include "platform.h"

#define FDT_MAGIC_BE 0xedfe0dd0 /* 0xd00dfeed as a little-endian load sees it */
#define DTB_MAX_SIZE (2 * SZ_1M)

extern char _head[], __kernel_end[];
long arm64_semihost(u64 op, const void *block);
void gic_probe(phys_addr_t dist, phys_addr_t cpu);
int arm64_read_dtb(void *fdt, size_t size, struct boot_info *bi);

const char arch_name[] = "arm64";
static struct pl011 uart;
static bool semihosting;
static unsigned int entry_el;

const char *arch_platform(void)
{
	return platform->name;
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
	uart.base = ioremap(platform->uart, 0x1000);
	uart.clock_hz = platform->uart_clock;
	pl011_init(&uart, 115200);
	/* Firmware may leave its cursor mid-line. */
	console_write("\n", 1);
}

static u32 be32(u32 v)
{
	return __builtin_bswap32(v);
}

/* Map the DTB the loader left at pa and read it into boot_info. */
static int read_device_tree(phys_addr_t pa)
{
	const u32 *hdr;
	u32 size;
	int err;

	if (!pa || !IS_ALIGNED(pa, 8)) {
		pr_err("boot: no device tree (x0 = %#llx)\n", (unsigned long long)pa);
		return -EINVAL;
	}
	err = mmu_map_dtb(pa, 8);
	if (err)
		return err;
	hdr = __va(pa);
	if (hdr[0] != FDT_MAGIC_BE) {
		pr_err("boot: x0 = %#llx holds no device tree (magic %#x)\n",
		       (unsigned long long)pa, be32(hdr[0]));
		return -EINVAL;
	}
	size = be32(hdr[1]);
	if (size < 40 || size > DTB_MAX_SIZE) {
		pr_err("boot: device tree at %#llx claims %u bytes; refusing it\n",
		       (unsigned long long)pa, size);
		return -EINVAL;
	}
	err = mmu_map_dtb(pa, size);
	if (err)
		return err;
	boot_info.dtb = pa;
	return arm64_read_dtb(__va(pa), size, &boot_info);
}

static void probe_semihosting(void)
{
	/* SYS_ERRNO: harmless, and answered by any semihosting host. */
	semihosting = arm64_semihost(0x13, NULL) >= 0;
}

void arm64_start(u64 dtb_pa, u64 image_pa, u64 entry_cycles, u64 el)
{
	const char *counter_source;
	int err;

	boot_entry_cycles = entry_cycles;
	boot_mark("entry");
	entry_el = (unsigned int)el;
	counter_source = arm64_counter_init(0);
	paging_early(image_pa);
	platform = platform_by_name(ARM64_PLATFORM);
	arch_early_console_init();
	boot_info.loader = entry_el == 2 ? "arm64 Image, entered at EL2" : "arm64 Image, entered at EL1";
	boot_info.kernel_start = image_pa;
	boot_info.kernel_end = image_pa + (u64)(__kernel_end - _head);
	err = read_device_tree(dtb_pa);
	if (err)
		panic("boot: cannot go on without a device tree: it is the only source of "
		      "the memory map (%d)", err);
	boot_info_sort_mem(&boot_info);
	boot_mark("early setup");
	paging_map_direct();
	boot_mark("page tables");

	/* TEMPORARY until the device tree's psci node is read. */
	arm64_power_init(strcmp(platform->name, "virt") ? NULL : entry_el == 2 ? "smc" : "hvc",
			 platform->pm);
	gic_probe(platform->gicd, platform->gicc);
	probe_semihosting();
	pr_info("arm64: entered at EL%u, now EL1; counter %llu Hz (from %s); power: %s\n",
		entry_el, (unsigned long long)arch_cycles_hz(), counter_source,
		arm64_power_method());
	pr_info("arm64: image at %llx (KERNEL_VIRT %llx), direct map of %llu MiB, semihosting %s\n",
		(unsigned long long)image_pa, (unsigned long long)KERNEL_VIRT,
		(unsigned long long)(arch_direct_map_end() >> 20),
		semihosting ? "answers" : "absent");
	boot_mark("devices");
	arm64_mmu_boot_done();
	start_kernel();
}
