// SPDX-License-Identifier: MIT
/*
 * Device-tree interrupt specifiers to GIC INTIDs: a node's "interrupts"
 * holds three cells per interrupt for a GIC parent (type: 0 SPI, 1 PPI;
 * number; trigger flags). SPI n is INTID 32 + n, PPI n is 16 + n.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/fdt.h>
#include <pagoda/irq.h>

int arch_fdt_irq(const void *fdt, int node, int index)
{
	int intc = node >= 0 ? fdt_interrupt_parent(fdt, node) : -1;
	const u8 *irqs;
	u32 len, cells, type, num, intid;

	if (intc < 0 || !boot_info.gic.compatible[0] ||
	    !fdt_node_is_compatible(fdt, intc, boot_info.gic.compatible) ||
	    fdt_read_u32(fdt, intc, "#interrupt-cells", &cells) || cells != 3)
		return -ENODEV;
	irqs = fdt_getprop(fdt, node, "interrupts", &len);
	if (!irqs || index < 0 || len < 12 * (u32)(index + 1))
		return -ENOENT;
	type = fdt32_ld(irqs + 12 * index);
	num = fdt32_ld(irqs + 12 * index + 4);
	if (type == 0 && num <= 987)
		intid = 32 + num;
	else if (type == 1 && num < 16)
		intid = 16 + num;
	else
		return -EINVAL;
	return intid < NR_IRQS ? (int)intid : -ERANGE;
}

int arch_msi_alloc(unsigned int *irq, u64 *addr, u32 *data)
{
	(void)irq;
	(void)addr;
	(void)data;
	return -ENOSYS; /* no GICv2m/ITS driver yet: PCI uses INTx here */
}

bool arch_msi_target(u64 *addr, unsigned int cpu)
{
	(void)addr;
	(void)cpu;
	return false;
}

void arch_msi_free(unsigned int irq)
{
	(void)irq;
}
