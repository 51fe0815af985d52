// SPDX-License-Identifier: MIT
/*
 * What x86 firmware tells about PCI: where the memory-mapped configuration
 * space is (ACPI's MCFG table: one entry per segment and bus range), and
 * how the chipset routes INTx pins to I/O APIC inputs. Firmware (SeaBIOS,
 * OVMF) has already assigned every BAR, so no memory window is given.
 */
#include <pagoda/arch.h>
#include <pagoda/printk.h>
#include "acpi.h"

struct mcfg_entry {
	u64 base;
	u16 segment;
	u8 bus_start, bus_end;
	u32 reserved;
} __packed;

int arch_pci_ecam(struct pci_ecam_window *w)
{
	const struct acpi_header *h = acpi_find_table("MCFG");
	const struct mcfg_entry *e;
	u32 n;

	if (!h || h->length < sizeof(*h) + 8 + sizeof(*e))
		return -ENODEV;
	/* The table: the header, 8 reserved bytes, then the entries. */
	e = (const struct mcfg_entry *)((const u8 *)h + sizeof(*h) + 8);
	n = (h->length - sizeof(*h) - 8) / sizeof(*e);
	for (u32 i = 0; i < n; i++, e++) {
		if (e->segment != 0 || e->bus_start > e->bus_end)
			continue;
		*w = (struct pci_ecam_window){
			.base = e->base + ((u64)e->bus_start << 20),
			.bus_start = e->bus_start,
			.bus_end = e->bus_end,
		};
		return 0;
	}
	pr_warn("pci: MCFG lists no usable entry for segment 0\n");
	return -ENODEV;
}

/*
 * The ICH9 (QEMU q35) routes INTx of a device in slot s on the root bus to
 * PIRQ E-H by (s + pin) mod 4, and PIRQ n reaches the I/O APIC at GSI
 * 16 + n; that is what the _PRT of its DSDT describes. Without an AML
 * interpreter, that routing is taken as a fact of the chipset MCFG implies.
 */
int arch_pci_intx_irq(u8 bus, u8 slot, u8 pin)
{
	if (bus != 0 || pin < 1 || pin > 4)
		return -ENODEV;
	return 16 + 4 + (slot + pin - 1) % 4;
}

int arch_fdt_irq(const void *fdt, int node, int index)
{
	(void)fdt;
	(void)node;
	(void)index;
	return -ENOSYS;
}
