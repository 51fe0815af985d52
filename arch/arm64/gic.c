// SPDX-License-Identifier: MIT
/*
 * Which GIC: the device tree's interrupt controller node says, by its
 * compatible string ("arm,gic-v3" or "arm,gic-400"/"arm,cortex-a15-gic",
 * read into boot_info.gic by lib/fdt_boot_info.c). Without one, the
 * platform's known GICv2 addresses are tried.
 */
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include "gic.h"
#include "platform.h"

const struct gic_ops *gic;

void gic_probe(void)
{
	const struct boot_irqchip *g = &boot_info.gic;

	switch (g->version) {
	case BOOT_GIC_V2:
		gic = gic_v2_probe(g->dist_base, g->cpu_base);
		break;
	case BOOT_GIC_V3:
		gic = gic_v3_probe(g->dist_base, g->redist_base, g->redist_size);
		break;
	default:
		pr_warn("gic: the device tree names no GIC; trying %s's usual GICv2\n",
			platform->name);
		gic = gic_v2_probe(platform->gicd, platform->gicc);
	}
}
