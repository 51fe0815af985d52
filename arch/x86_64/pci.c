// SPDX-License-Identifier: MIT
/*
 * What x86 firmware tells about PCI: where the memory-mapped configuration
 * space is (ACPI's MCFG table: one entry per segment and bus range), or,
 * on a chipset without one, the port-I/O configuration mechanism; and how
 * the chipset routes INTx pins to I/O APIC inputs. Firmware (SeaBIOS,
 * OVMF) has already assigned every BAR, so no memory window is given.
 */
#include <pagoda/arch.h>
#include <pagoda/printk.h>
#include <pagoda/spinlock.h>
#include <asm/x86.h>
#include "acpi.h"

#define PCI_CONF1_ADDRESS 0xcf8
#define PCI_CONF1_DATA 0xcfc

/* q35 (ICH9) describes ECAM in MCFG; the i440FX (`pc`) has none. */
static bool have_mcfg;

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
		have_mcfg = true;
		return 0;
	}
	pr_warn("pci: MCFG lists no usable entry for segment 0\n");
	return -ENODEV;
}

/*
 * Mechanism #1: bit 31 enables, then bus, device/function and the dword
 * offset; the data port's low bits select the byte lanes. The address and
 * data accesses are two instructions, so one lock keeps CPUs (and an
 * interrupt handler reading config space) from interleaving them.
 */
static DEFINE_SPINLOCK(conf1_lock);

static u32 conf1_address(u8 bus, u8 devfn, unsigned int off)
{
	return 1u << 31 | (u32)bus << 16 | (u32)devfn << 8 | (off & 0xfc);
}

/* One access under the lock: the address, then the data at PCI_CONF1_DATA + (off & 3). */
static int conf1_access(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 *val,
			bool write)
{
	unsigned long flags;
	u16 port = PCI_CONF1_DATA + (off & 3);

	if (off > 0xff || (size != 1 && size != 2 && size != 4) || (off & (size - 1)))
		return -EINVAL;
	spin_lock_irqsave(&conf1_lock, flags);
	outl(PCI_CONF1_ADDRESS, conf1_address(bus, devfn, off));
	if (!write)
		*val = size == 4 ? inl(port) : size == 2 ? inw(port) : inb(port);
	else if (size == 4)
		outl(port, *val);
	else if (size == 2)
		outw(port, (u16)*val);
	else
		outb(port, (u8)*val);
	spin_unlock_irqrestore(&conf1_lock, flags);
	return 0;
}

int arch_pci_conf1_read(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 *val)
{
	return conf1_access(bus, devfn, off, size, val, false);
}

int arch_pci_conf1_write(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 val)
{
	return conf1_access(bus, devfn, off, size, &val, true);
}

/*
 * The ICH9 (QEMU q35) routes INTx of a device in slot s on the root bus to
 * PIRQ E-H by (s + pin) mod 4, and PIRQ n reaches the I/O APIC at GSI
 * 16 + n; that is what the _PRT of its DSDT describes. Without an AML
 * interpreter, that routing is taken as a fact of the chipset MCFG implies.
 */
int arch_pci_intx_irq(u8 bus, u8 slot, u8 pin, u8 line)
{
	if (pin < 1 || pin > 4)
		return -ENODEV;
	if (!have_mcfg) {
		/*
		 * The i440FX's PIIX3 steers its four links to ISA lines of
		 * the firmware's choosing and SeaBIOS records each function's
		 * in PCI_INTERRUPT_LINE (0 or 0xff: none), as on real PCs.
		 */
		if (!line || line >= 16)
			return -ENODEV;
		ioapic_mark_pci_isa_line(isa_irq_to_gsi(line));
		return (int)isa_irq_to_gsi(line);
	}
	if (bus != 0)
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
