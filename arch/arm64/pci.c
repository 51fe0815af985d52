// SPDX-License-Identifier: MIT
/*
 * A generic PCIe host bridge from the device tree (QEMU virt's
 * "pci-host-ecam-generic"): the ECAM window from reg, the buses from
 * bus-range, the 32-bit memory window from ranges (nobody has assigned BARs
 * on arm64: the kernel does, in that window), and INTx routing from
 * interrupt-map. The Pi 4's PCIe (a Broadcom bridge) is not this, and QEMU
 * disables it.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/fdt.h>
#include <pagoda/irq.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>

#define PCI_SPACE_MEM32 0x02000000u

static const void *dt(void)
{
	return boot_info.dtb ? __va(boot_info.dtb) : NULL;
}

static int host_node(const void *fdt)
{
	int n = fdt ? fdt_node_by_compatible(fdt, -1, "pci-host-ecam-generic") : -1;

	return n >= 0 && fdt_node_enabled(fdt, n) ? n : -ENODEV;
}

int arch_pci_ecam(struct pci_ecam_window *w)
{
	const void *fdt = dt();
	int node = host_node(fdt), parent;
	const u8 *r;
	u32 len, bus[2] = { 0, 255 };
	u64 base, size;
	int pac, stride;

	if (node < 0 || fdt_reg_cpu(fdt, node, 0, &base, &size))
		return -ENODEV;
	r = fdt_getprop(fdt, node, "bus-range", &len);
	if (r && len == 8) {
		bus[0] = fdt32_ld(r);
		bus[1] = fdt32_ld(r + 4);
	}
	if (bus[0] > bus[1] || bus[1] > 255)
		return -EINVAL;
	*w = (struct pci_ecam_window){ .base = base, .bus_start = (u8)bus[0],
				       .bus_end = (u8)bus[1] };
	/* ranges: (3 PCI address cells, parent address cells, 2 size cells). */
	parent = fdt_parent(fdt, node);
	pac = fdt_address_cells(fdt, parent);
	stride = (3 + pac + 2) * 4;
	r = fdt_getprop(fdt, node, "ranges", &len);
	for (u32 off = 0; r && pac >= 1 && pac <= 2 && off + stride <= len; off += stride) {
		u32 space = fdt32_ld(r + off) & 0x03000000;
		u64 pci = fdt_cells(r + off + 4, 2);
		u64 cpu = fdt_cells(r + off + 12, pac);
		u64 sz = fdt_cells(r + off + 12 + 4 * pac, 2);

		if (space != PCI_SPACE_MEM32 || fdt_translate(fdt, parent, &cpu))
			continue;
		w->mem_base = cpu;
		w->mem_bus_base = pci;
		w->mem_size = sz;
		break;
	}
	return 0;
}

/* arm64 has no I/O ports: configuration space is ECAM or nothing. */
int arch_pci_conf1_read(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 *val)
{
	return -ENODEV;
}

int arch_pci_conf1_write(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 val)
{
	return -ENODEV;
}

int arch_pci_intx_irq(u8 bus, u8 slot, u8 pin, u8 line)
{
	const void *fdt = dt();
	int node = host_node(fdt), intc;
	const u8 *map, *mask;
	u32 len, mlen, want[4], m[4] = { ~0u, ~0u, ~0u, ~0u };
	u32 pac, pic, off = 0;

	if (node < 0 || pin < 1 || pin > 4)
		return -ENODEV;
	map = fdt_getprop(fdt, node, "interrupt-map", &len);
	if (!map)
		return -ENODEV;
	mask = fdt_getprop(fdt, node, "interrupt-map-mask", &mlen);
	if (mask && mlen == 16)
		for (int i = 0; i < 4; i++)
			m[i] = fdt32_ld(mask + 4 * i);
	want[0] = ((u32)bus << 16 | (u32)slot << 11) & m[0];
	want[1] = 0;
	want[2] = 0;
	want[3] = pin & m[3];
	while (off + 20 <= len) {
		u32 ph = fdt32_ld(map + off + 16);
		bool hit = true;

		intc = fdt_node_by_phandle(fdt, ph);
		if (intc < 0 || fdt_read_u32(fdt, intc, "#interrupt-cells", &pic))
			return -EINVAL;
		if (fdt_read_u32(fdt, intc, "#address-cells", &pac))
			pac = 0;
		if (pac > 3 || pic != 3 || off + 20 + 4 * (pac + pic) > len)
			return -EINVAL;
		for (int i = 0; i < 4; i++)
			hit &= (fdt32_ld(map + off + 4 * i) & m[i]) == want[i];
		if (hit) {
			const u8 *spec = map + off + 20 + 4 * pac;

			if (fdt32_ld(spec) != 0) /* an SPI */
				return -EINVAL;
			return 32 + (int)fdt32_ld(spec + 4) < NR_IRQS ?
				       32 + (int)fdt32_ld(spec + 4) : -ERANGE;
		}
		off += 20 + 4 * (pac + pic);
	}
	return -ENOENT;
}
