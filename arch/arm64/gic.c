// SPDX-License-Identifier: MIT
/*
 * The GICv2 interrupt controller (GIC-400 on the Pi 4, QEMU virt with
 * gic-version=2): mapped and identified at boot so its registers are known
 * to answer; interrupts stay masked until the interrupt issue drives it.
 */
#include <pagoda/printk.h>
#include <asm/arm64.h>

#define GICD_CTLR 0x000
#define GICD_TYPER 0x004
#define GICD_IIDR 0x008

static void *gicd, *gicc;

void gic_probe(phys_addr_t dist, phys_addr_t cpu)
{
	u32 typer;

	if (!dist) {
		pr_warn("gic: no interrupt controller known\n");
		return;
	}
	gicd = early_ioremap(dist, 0x1000);
	gicc = cpu ? early_ioremap(cpu, 0x2000) : NULL;
	if (!gicd) {
		pr_warn("gic: cannot map the distributor at %llx\n", (unsigned long long)dist);
		return;
	}
	typer = readl(gicd + GICD_TYPER);
	/* ITLinesNumber counts blocks of 32 lines; CPUNumber is one less. */
	pr_info("gic: GICv2 distributor at %llx (IIDR %#x), %u interrupt lines, %u CPU interfaces\n",
		(unsigned long long)dist, readl(gicd + GICD_IIDR), 32 * ((typer & 0x1f) + 1),
		((typer >> 5) & 7) + 1);
}
