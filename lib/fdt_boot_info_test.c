// SPDX-License-Identifier: MIT
/*
 * Tests for lib/fdt_boot_info.c: each tree goes through
 * fdt_fill_boot_info() and every field an arm64 boot uses is compared with
 * what the tree says. Trees: our two boards (tests/fixtures), QEMU virt as
 * QEMU itself writes it (GICv2, GICv3 with 4 CPUs, EL2), and when the build
 * could fetch it, the real Raspberry Pi 4 tree and QEMU raspi4b's edit of it.
 */
#include <pagoda/boot_info.h>
#include <pagoda/fdt.h>
#include <pagoda/ktest.h>
#include <pagoda/string.h>

#include "fdt_test.h"

static struct boot_info bi;	/* too big for a kernel stack */

/* Fill bi from a fixture; returns fdt_fill_boot_info()'s result or 1. */
static int fill(struct ktest *t, const char *name)
{
	size_t size;
	const u8 *f = fdt_test_fixture(name, &size);

	memset(&bi, 0, sizeof(bi));
	if (!f) {
		ktest_fail(t, __FILE__, __LINE__, "fixture %s missing", name);
		return 1;
	}
	return fdt_fill_boot_info(f, size, &bi);
}

/* The n-th region of type (in address order), or NULL. */
static const struct boot_mem_region *region(u32 type, int n)
{
	for (u32 i = 0; i < bi.nr_mem; i++)
		if (bi.mem[i].type == type && n-- == 0)
			return &bi.mem[i];
	return NULL;
}

/*
 * Fill bi from the tree the test built with fdtb_*(), as fill() does from
 * a fixture: fdt_fill_boot_info()'s result, or 1 when the tree did not
 * build.
 */
static int fill_built(struct ktest *t)
{
	size_t size;
	u8 *b;

	b = fdtb_finish(true, &size);
	memset(&bi, 0, sizeof(bi));
	if (!b) {
		ktest_fail(t, __FILE__, __LINE__, "fdtb_finish() gave no tree (its buffers overflowed)");
		return 1;
	}
	return fdt_fill_boot_info(b, size, &bi);
}

#define EXPECT_REGION(t, type, n, b, s)                                     \
	do {                                                                \
		const struct boot_mem_region *__r = region(type, n);        \
		KEXPECT_TRUE(t, __r != NULL);                               \
		if (__r) {                                                  \
			KEXPECT_EQ(t, __r->base, b);                        \
			KEXPECT_EQ(t, __r->size, s);                        \
		}                                                           \
	} while (0)

static void test_boot_pi4_shape(struct ktest *t)
{
	KASSERT_EQ(t, fill(t, "board-pi4"), 0);
	KEXPECT_STREQ(t, bi.loader, "device tree");
	KEXPECT_STREQ(t, bi.model, "Pagoda test board (Pi 4 shape)");
	KEXPECT_STREQ(t, bi.cmdline, "console=serial0 test=all loglevel=7");
	KEXPECT_FALSE(t, bi.truncated);

	/* Three usable banks (the disabled one left out), sorted. */
	EXPECT_REGION(t, BOOT_MEM_USABLE, 0, 0, 0x3b400000);
	EXPECT_REGION(t, BOOT_MEM_USABLE, 1, 0x40000000, 0xbc000000);
	EXPECT_REGION(t, BOOT_MEM_USABLE, 2, 0x100000000ULL, 0x80000000);
	KEXPECT_TRUE(t, region(BOOT_MEM_USABLE, 3) == NULL);
	/* Two /memreserve/ entries and the fixed /reserved-memory child. */
	EXPECT_REGION(t, BOOT_MEM_FW_RESERVED, 0, 0, 0x1000);
	EXPECT_REGION(t, BOOT_MEM_FW_RESERVED, 1, 0x3b400000, 0xc00000);
	EXPECT_REGION(t, BOOT_MEM_FW_RESERVED, 2, 0x3ef00000, 0x100000);
	KEXPECT_TRUE(t, region(BOOT_MEM_FW_RESERVED, 3) == NULL);
	KEXPECT_STREQ(t, boot_mem_type_name(BOOT_MEM_FW_RESERVED),
		      "firmware reserved");

	KASSERT_EQ(t, bi.nr_modules, 1);
	KEXPECT_STREQ(t, bi.modules[0].name, "initrd");
	KEXPECT_EQ(t, bi.modules[0].base, 0x2a000000);
	KEXPECT_EQ(t, bi.modules[0].size, 0x123456);

	/* serial0 through the alias, and 0x7e201000 through /soc's ranges. */
	KEXPECT_STREQ(t, bi.uart.compatible, "arm,pl011");
	KEXPECT_EQ(t, bi.uart.base, 0xfe201000);
	KEXPECT_EQ(t, bi.uart.size, 0x200);
	KEXPECT_EQ(t, bi.uart.baud, 115200);

	KASSERT_EQ(t, bi.nr_cpus, 4);
	for (u32 i = 0; i < 4; i++) {
		KEXPECT_EQ(t, bi.cpus[i].hwid, i);
		KEXPECT_EQ(t, bi.cpus[i].enable_method, BOOT_CPU_ENABLE_SPIN_TABLE);
		KEXPECT_EQ(t, bi.cpus[i].release_addr, 0xd8 + 8 * i);
	}
	KEXPECT_EQ(t, bi.psci_method, BOOT_PSCI_NONE);

	KEXPECT_EQ(t, bi.gic.version, BOOT_GIC_V2);
	KEXPECT_STREQ(t, bi.gic.compatible, "arm,gic-400");
	KEXPECT_EQ(t, bi.gic.dist_base, 0xff841000);
	KEXPECT_EQ(t, bi.gic.dist_size, 0x1000);
	KEXPECT_EQ(t, bi.gic.cpu_base, 0xff842000);
	KEXPECT_EQ(t, bi.gic.cpu_size, 0x2000);
	KEXPECT_EQ(t, bi.gic.redist_base, 0);

	KEXPECT_EQ(t, bi.timer.nr_irqs, 4);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_SEC_PHYS], 29);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_PHYS], 30);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_VIRT], 27);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_HYP_PHYS], 26);
	KEXPECT_EQ(t, bi.timer.irq_flags[BOOT_TIMER_PHYS], 0xf08);
	KEXPECT_EQ(t, bi.timer.frequency, 0);

	/* 30-bit DMA masters see RAM at 0xc0000000, for one GiB. */
	KASSERT_EQ(t, bi.nr_dma_ranges, 1);
	KEXPECT_STREQ(t, bi.dma_ranges[0].node, "soc");
	KEXPECT_EQ(t, bi.dma_ranges[0].child_base, 0xc0000000);
	KEXPECT_EQ(t, bi.dma_ranges[0].parent_base, 0);
	KEXPECT_EQ(t, bi.dma_ranges[0].size, 0x40000000);
	KEXPECT_EQ(t, bi.zone_dma_limit, SZ_1G);
}

static void test_boot_gicv3_board(struct ktest *t)
{
	KASSERT_EQ(t, fill(t, "board-gicv3"), 0);
	KEXPECT_STREQ(t, bi.cmdline, "");
	EXPECT_REGION(t, BOOT_MEM_USABLE, 0, 0x80000000, 0x80000000);
	KEXPECT_EQ(t, bi.nr_mem, 1);
	KASSERT_EQ(t, bi.nr_modules, 1);
	KEXPECT_EQ(t, bi.modules[0].base, 0x48000000);
	KEXPECT_EQ(t, bi.modules[0].size, 0x100000);
	KEXPECT_EQ(t, bi.uart.base, 0x09000000);
	KEXPECT_EQ(t, bi.uart.baud, 0);
	KEXPECT_EQ(t, bi.psci_method, BOOT_PSCI_SMC);
	KASSERT_EQ(t, bi.nr_cpus, 3);
	KEXPECT_EQ(t, bi.cpus[1].hwid, 0x100);
	KEXPECT_EQ(t, bi.cpus[1].enable_method, BOOT_CPU_ENABLE_PSCI);
	KEXPECT_EQ(t, bi.cpus[2].enable_method, BOOT_CPU_ENABLE_NONE);
	KEXPECT_EQ(t, bi.gic.version, BOOT_GIC_V3);
	KEXPECT_EQ(t, bi.gic.dist_base, 0x08000000);
	KEXPECT_EQ(t, bi.gic.redist_base, 0x080a0000);
	KEXPECT_EQ(t, bi.gic.redist_size, 0x100000);
	/* After both redistributor regions: the legacy CPU interface. */
	KEXPECT_EQ(t, bi.gic.cpu_base, 0x08010000);
	KEXPECT_EQ(t, bi.timer.nr_irqs, 4);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_VIRT], 27);
	KEXPECT_EQ(t, bi.timer.frequency, 62500000);
	KASSERT_EQ(t, bi.nr_dma_ranges, 1);
	KEXPECT_EQ(t, bi.dma_ranges[0].child_base, 0);
	KEXPECT_EQ(t, bi.dma_ranges[0].parent_base, 0x1000000000ULL);
	KEXPECT_EQ(t, bi.dma_ranges[0].size, 0x100000000ULL);
	KEXPECT_EQ(t, bi.zone_dma_limit, 0x1100000000ULL);
}

/* What every QEMU virt tree has: the PL011, the timer PPIs, a GIC. */
static void expect_qemu_virt_common(struct ktest *t)
{
	KEXPECT_STREQ(t, bi.model, "linux,dummy-virt");
	KEXPECT_STREQ(t, bi.uart.compatible, "arm,pl011");
	KEXPECT_EQ(t, bi.uart.base, 0x09000000);
	KEXPECT_EQ(t, bi.uart.size, 0x1000);
	KEXPECT_EQ(t, bi.gic.dist_base, 0x08000000);
	KEXPECT_EQ(t, bi.timer.nr_irqs, 4);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_PHYS], 30);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_VIRT], 27);
	KEXPECT_EQ(t, bi.nr_dma_ranges, 0);
	KEXPECT_EQ(t, bi.zone_dma_limit, 0);	/* no separate DMA zone */
	KEXPECT_FALSE(t, bi.truncated);
}

static void test_boot_qemu_virt(struct ktest *t)
{
	KASSERT_EQ(t, fill(t, "qemu-virt"), 0);	/* -m 1G, one CPU */
	expect_qemu_virt_common(t);
	EXPECT_REGION(t, BOOT_MEM_USABLE, 0, 0x40000000, SZ_1G);
	KEXPECT_EQ(t, bi.nr_cpus, 1);
	KEXPECT_EQ(t, bi.psci_method, BOOT_PSCI_HVC);
	KEXPECT_EQ(t, bi.gic.version, BOOT_GIC_V2);
	KEXPECT_STREQ(t, bi.gic.compatible, "arm,cortex-a15-gic");
	KEXPECT_EQ(t, bi.gic.cpu_base, 0x08010000);
	KEXPECT_EQ(t, bi.nr_modules, 0);
}

static void test_boot_qemu_virt_gicv3_smp4(struct ktest *t)
{
	KASSERT_EQ(t, fill(t, "qemu-virt-gicv3-smp4"), 0);
	expect_qemu_virt_common(t);
	EXPECT_REGION(t, BOOT_MEM_USABLE, 0, 0x40000000, 2 * SZ_1G);
	KEXPECT_STREQ(t, bi.cmdline, "console=ttyAMA0 test=all");
	KASSERT_EQ(t, bi.nr_cpus, 4);
	for (u32 i = 0; i < 4; i++) {
		KEXPECT_EQ(t, bi.cpus[i].hwid, i);
		KEXPECT_EQ(t, bi.cpus[i].enable_method, BOOT_CPU_ENABLE_PSCI);
	}
	KEXPECT_EQ(t, bi.psci_method, BOOT_PSCI_HVC);
	KEXPECT_EQ(t, bi.gic.version, BOOT_GIC_V3);
	KEXPECT_EQ(t, bi.gic.redist_base, 0x080a0000);
	/* The initrd QEMU loaded: our 4 KiB stand-in. */
	KASSERT_EQ(t, bi.nr_modules, 1);
	KEXPECT_EQ(t, bi.modules[0].size, 4096);
	KEXPECT_GE(t, bi.modules[0].base, 0x40000000);
}

static void test_boot_qemu_virt_el2(struct ktest *t)
{
	/* With EL2 emulated, PSCI goes to QEMU's firmware by SMC. */
	KASSERT_EQ(t, fill(t, "qemu-virt-el2"), 0);
	expect_qemu_virt_common(t);
	KEXPECT_EQ(t, bi.psci_method, BOOT_PSCI_SMC);
	EXPECT_REGION(t, BOOT_MEM_USABLE, 0, 0x40000000, 512 * SZ_1M);
}

/* The real Raspberry Pi 4 tree, from Debian's kernel package. */
static void test_boot_pi4_debian(struct ktest *t)
{
	size_t size;
	const u8 *f = fdt_test_fixture("pi4-debian", &size);
	u64 base, len;

	if (!f) {
		ktest_skip(t, "Pi 4 tree not built in (host only, when "
			      "tools/fetch-pi4-dtb.sh could fetch it)");
		return;
	}
	/* As shipped, memory@0 has size 0: the firmware fills it in. */
	KEXPECT_EQ(t, fill(t, "pi4-debian"), -ENODEV);
	KEXPECT_EQ(t, boot_info_mem_total(&bi, BOOT_MEM_USABLE), 0);
	EXPECT_REGION(t, BOOT_MEM_FW_RESERVED, 0, 0, 0x1000); /* spin tables */
	KEXPECT_STREQ(t, bi.model, "Raspberry Pi 4 Model B");
	KASSERT_EQ(t, bi.nr_cpus, 4);
	for (u32 i = 0; i < 4; i++) {
		KEXPECT_EQ(t, bi.cpus[i].hwid, i);
		KEXPECT_EQ(t, bi.cpus[i].enable_method, BOOT_CPU_ENABLE_SPIN_TABLE);
		KEXPECT_EQ(t, bi.cpus[i].release_addr, 0xd8 + 8 * i);
	}
	/* stdout-path is serial1, the mini UART, behind /soc's ranges. */
	KEXPECT_STREQ(t, bi.uart.compatible, "brcm,bcm2835-aux-uart");
	KEXPECT_EQ(t, bi.uart.base, 0xfe215040);
	KEXPECT_EQ(t, bi.uart.baud, 115200);
	/* And the PL011 the Pagoda console uses: 0x7e201000 -> 0xfe201000. */
	KEXPECT_EQ(t, fdt_reg_cpu(f, fdt_path_offset(f, "serial0"), 0, &base, &len), 0);
	KEXPECT_EQ(t, base, 0xfe201000);
	KEXPECT_TRUE(t, fdt_node_is_compatible(f, fdt_path_offset(f, "serial0"),
					       "arm,pl011"));
	KEXPECT_EQ(t, bi.gic.version, BOOT_GIC_V2);
	KEXPECT_EQ(t, bi.gic.dist_base, 0xff841000);
	KEXPECT_EQ(t, bi.gic.cpu_base, 0xff842000);
	KEXPECT_EQ(t, bi.timer.nr_irqs, 4);
	KEXPECT_EQ(t, bi.timer.irq[BOOT_TIMER_PHYS], 30);
	KEXPECT_EQ(t, bi.psci_method, BOOT_PSCI_NONE);
	/* /soc's window for 30-bit DMA, then emmc2bus's own. */
	KASSERT_TRUE(t, bi.nr_dma_ranges >= 1);
	KEXPECT_STREQ(t, bi.dma_ranges[0].node, "soc");
	KEXPECT_EQ(t, bi.dma_ranges[0].child_base, 0xc0000000);
	KEXPECT_EQ(t, bi.dma_ranges[0].parent_base, 0);
	KEXPECT_EQ(t, bi.dma_ranges[0].size, SZ_1G);
	KEXPECT_EQ(t, bi.zone_dma_limit, SZ_1G);
}

/* The same tree after QEMU raspi4b added memory and bootargs to it. */
static void test_boot_qemu_raspi4b(struct ktest *t)
{
	size_t size;

	if (!fdt_test_fixture("qemu-raspi4b", &size)) {
		ktest_skip(t, "QEMU raspi4b tree not built in (host only, "
			      "needs the fetched Pi 4 tree)");
		return;
	}
	KASSERT_EQ(t, fill(t, "qemu-raspi4b"), 0);
	KEXPECT_STREQ(t, bi.cmdline, "console=ttyAMA0 test=all");
	KEXPECT_GT(t, boot_info_mem_total(&bi, BOOT_MEM_USABLE), 512 * SZ_1M);
	KEXPECT_TRUE(t, region(BOOT_MEM_USABLE, 0) &&
			region(BOOT_MEM_USABLE, 0)->base == 0);
	KEXPECT_EQ(t, bi.uart.base, 0xfe215040);
	KEXPECT_EQ(t, bi.gic.dist_base, 0xff841000);
	KEXPECT_EQ(t, bi.nr_cpus, 4);
	KEXPECT_EQ(t, bi.zone_dma_limit, SZ_1G);
}

static void test_boot_rejects_invalid(struct ktest *t)
{
	static u8 blob[4096] __aligned(8);
	size_t size;
	const u8 *f = fdt_test_fixture("board-pi4", &size);

	KASSERT_TRUE(t, f && size <= sizeof(blob));
	ktest_expect_reports(t, true);	/* each refusal is logged */
	memcpy(blob, f, size);
	blob[0] ^= 1;
	memset(&bi, 0, sizeof(bi));
	KEXPECT_EQ(t, fdt_fill_boot_info(blob, size, &bi), -EINVAL);
	KEXPECT_EQ(t, bi.nr_mem, 0);
	KEXPECT_TRUE(t, bi.loader == NULL);
	memset(&bi, 0, sizeof(bi));
	KEXPECT_EQ(t, fdt_fill_boot_info(f, size - 4, &bi), -EINVAL);
	KEXPECT_EQ(t, bi.nr_mem, 0);
}

/* Tables that do not fit are cut, and bi->truncated says so. */
static void test_boot_truncation(struct ktest *t)
{
	static char args[BOOT_CMDLINE_MAX + 100];
	static u8 reg[12 * (BOOT_MAX_MEM + 5)];
	static u8 dma[16 * (BOOT_MAX_DMA_RANGES + 2)];

	ktest_expect_reports(t, true);	/* "bootargs ... cut" */
	memset(args, 'x', sizeof(args) - 1);
	args[sizeof(args) - 1] = '\0';
	for (u32 i = 0; i < BOOT_MAX_MEM + 5; i++) {
		fdt_test_st32(reg + 12 * i, 0);
		fdt_test_st32(reg + 12 * i + 4, i * 0x100000);
		fdt_test_st32(reg + 12 * i + 8, 0x1000);
	}
	for (u32 i = 0; i < BOOT_MAX_DMA_RANGES + 2; i++) {
		/* child (1 cell), parent (2 cells, the root's), size */
		fdt_test_st32(dma + 16 * i, i << 20);
		fdt_test_st32(dma + 16 * i + 4, 0);
		fdt_test_st32(dma + 16 * i + 8, 0);
		fdt_test_st32(dma + 16 * i + 12, 0x1000);
	}

	fdtb_start();
	fdtb_begin("");
	fdtb_begin("chosen");
	fdtb_prop_str("bootargs", args);
	fdtb_end();
	fdtb_begin("memory@0");
	fdtb_prop_str("device_type", "memory");
	fdtb_prop("reg", reg, sizeof(reg));
	fdtb_end();
	fdtb_begin("bus");
	fdtb_prop_u32("#address-cells", 1);
	fdtb_prop_u32("#size-cells", 1);
	fdtb_prop("dma-ranges", dma, sizeof(dma));
	fdtb_end();
	fdtb_begin("cpus");
	fdtb_prop_u32("#address-cells", 1);
	fdtb_prop_u32("#size-cells", 0);
	for (u32 i = 0; i < BOOT_MAX_CPUS + 4; i++) {
		fdtb_begin("cpu");
		fdtb_prop_str("device_type", "cpu");
		fdtb_prop_u32("reg", i);
		fdtb_end();
	}
	fdtb_end();
	fdtb_end();
	KASSERT_EQ(t, fill_built(t), 0);
	KEXPECT_TRUE(t, bi.truncated);
	KEXPECT_EQ(t, strlen(bi.cmdline), BOOT_CMDLINE_MAX - 1);
	KEXPECT_EQ(t, bi.nr_mem, BOOT_MAX_MEM);
	KEXPECT_EQ(t, bi.nr_cpus, BOOT_MAX_CPUS);
	KEXPECT_EQ(t, bi.cpus[BOOT_MAX_CPUS - 1].hwid, BOOT_MAX_CPUS - 1);
	KEXPECT_EQ(t, bi.nr_dma_ranges, BOOT_MAX_DMA_RANGES);
	KEXPECT_EQ(t, bi.dma_ranges[BOOT_MAX_DMA_RANGES - 1].child_base,
		   (u64)(BOOT_MAX_DMA_RANGES - 1) << 20);
	KEXPECT_EQ(t, bi.zone_dma_limit, 0x1000);	/* all windows end there */
}

/* Malformed parts are skipped, not misread: the rest still comes through. */
static void test_boot_bad_parts_skipped(struct ktest *t)
{
	static const u8 short_reg[6] = { 0 };
	static const u8 timer_irqs[12] = { 0, 0, 0, 7, 0, 0, 3, 0xe8, 0, 0, 0, 4 };

	ktest_expect_reports(t, true);	/* each skipped part is logged */
	fdtb_start();
	fdtb_begin("");
	fdtb_prop_u32("interrupt-parent", 1);
	fdtb_begin("chosen");
	fdtb_prop_str("stdout-path", "/nowhere:9600");
	fdtb_prop_u32("linux,initrd-start", 0x2000);
	fdtb_prop_u32("linux,initrd-end", 0x1000);	/* before its start */
	fdtb_end();
	fdtb_begin("memory@0");
	fdtb_prop_str("device_type", "memory");
	fdtb_prop("reg", short_reg, sizeof(short_reg));	/* not whole cells */
	fdtb_end();
	fdtb_begin("memory@1000");
	fdtb_prop_str("device_type", "memory");
	fdtb_prop("reg", (const u8[]){ 0, 0, 0, 0, 0, 0, 0x10, 0,
				       0, 0, 0x10, 0 }, 12);
	fdtb_end();
	fdtb_begin("gic");
	fdtb_prop_str("compatible", "arm,gic-400");
	fdtb_prop_u32("phandle", 1);
	fdtb_prop_u32("#interrupt-cells", 3);
	fdtb_end();
	fdtb_begin("timer");
	fdtb_prop_str("compatible", "arm,armv8-timer");
	fdtb_prop("interrupts", timer_irqs, sizeof(timer_irqs)); /* type 7 */
	fdtb_end();
	fdtb_end();
	KASSERT_EQ(t, fill_built(t), 0);
	KEXPECT_EQ(t, bi.nr_mem, 1);
	EXPECT_REGION(t, BOOT_MEM_USABLE, 0, 0x1000, 0x1000);
	KEXPECT_EQ(t, bi.nr_modules, 0);
	KEXPECT_EQ(t, bi.uart.base, 0);
	KEXPECT_EQ(t, bi.timer.nr_irqs, 0);
	KEXPECT_EQ(t, bi.gic.version, 0);	/* GIC without reg: unusable */
	KEXPECT_FALSE(t, bi.truncated);
}

static struct ktest_case fdt_boot_cases[] = {
	KTEST_CASE(test_boot_pi4_shape),
	KTEST_CASE(test_boot_gicv3_board),
	KTEST_CASE(test_boot_qemu_virt),
	KTEST_CASE(test_boot_qemu_virt_gicv3_smp4),
	KTEST_CASE(test_boot_qemu_virt_el2),
	KTEST_CASE(test_boot_pi4_debian),
	KTEST_CASE(test_boot_qemu_raspi4b),
	KTEST_CASE(test_boot_rejects_invalid),
	KTEST_CASE(test_boot_truncation),
	KTEST_CASE(test_boot_bad_parts_skipped),
	{}
};
KTEST_SUITE(fdt_boot, fdt_boot_cases);
