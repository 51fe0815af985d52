// SPDX-License-Identifier: MIT
/*
 * The I/O APIC: routes device interrupt lines (GSIs) to a CPU's local APIC
 * as a vector. Pagoda's portable irq number is the GSI, delivered as vector
 * IRQ_VECTOR_BASE + GSI to the boot CPU. ISA interrupts keep their number
 * unless the MADT overrides it (QEMU moves the PIT's IRQ 0 to GSI 2); ISA
 * lines are edge-triggered, active high, unless the override says not.
 * The legacy 8259 PICs are remapped away from the exception vectors and
 * masked: everything goes through the I/O APIC.
 */
#include <pagoda/arch.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/vmalloc.h>
#include <asm/x86.h>

#define MAX_IOAPICS 4
#define IOREGSEL 0
#define IOWIN 4 /* in u32 units: offset 0x10 */
#define IOAPIC_VER 1
#define REDTBL(n) (0x10 + 2 * (n))
#define RTE_MASKED (1u << 16)
#define RTE_LEVEL (1u << 15)
#define RTE_ACTIVE_LOW (1u << 13)

static struct ioapic {
	volatile u32 *regs;
	u32 gsi_base, nr_lines;
	u8 id;
} ioapics[MAX_IOAPICS];
static unsigned int nr_ioapics;

static struct { u32 gsi; u16 flags; bool set; } isa_override[16];
static u16 pci_isa_lines; /* bit n: GSI n < 16 carries PCI INTx */

static u32 io_read(struct ioapic *a, u32 reg)
{
	a->regs[IOREGSEL] = reg;
	return a->regs[IOWIN];
}

static void io_write(struct ioapic *a, u32 reg, u32 v)
{
	a->regs[IOREGSEL] = reg;
	a->regs[IOWIN] = v;
}

void ioapic_add(u8 id, u64 addr, u32 gsi_base)
{
	struct ioapic *a;

	if (nr_ioapics == MAX_IOAPICS)
		return;
	a = &ioapics[nr_ioapics];
	a->regs = ioremap(addr & ~0xfffULL, PAGE_SIZE);
	if (!a->regs) {
		pr_err("ioapic: cannot map %#llx\n", (unsigned long long)addr);
		return;
	}
	a->regs = (volatile u32 *)((u8 *)a->regs + (addr & 0xfff));
	nr_ioapics++;
	a->gsi_base = gsi_base;
	a->id = id;
	a->nr_lines = ((io_read(a, IOAPIC_VER) >> 16) & 0xff) + 1;
}

void ioapic_add_override(u8 isa_irq, u32 gsi, u16 flags)
{
	if (isa_irq < 16)
		isa_override[isa_irq] = (typeof(isa_override[0])){ gsi, flags, true };
}

unsigned int isa_irq_to_gsi(unsigned int isa_irq)
{
	return isa_irq < 16 && isa_override[isa_irq].set ? isa_override[isa_irq].gsi : isa_irq;
}

static struct ioapic *ioapic_for(unsigned int gsi, unsigned int *pin)
{
	for (unsigned int i = 0; i < nr_ioapics; i++) {
		struct ioapic *a = &ioapics[i];

		if (gsi >= a->gsi_base && gsi < a->gsi_base + a->nr_lines) {
			*pin = gsi - a->gsi_base;
			return a;
		}
	}
	return NULL;
}

/*
 * On the i440FX (QEMU's `pc`) the PCI interrupt links are steered onto ISA
 * lines (firmware picks 5, 9, 10 or 11). They are shared and level
 * triggered, active high as QEMU's DSDT describes the links: programmed
 * as ISA edges, a second device's interrupt on a line still held high
 * would never be seen.
 */
void ioapic_mark_pci_isa_line(unsigned int gsi)
{
	if (gsi < 16)
		pci_isa_lines |= (u16)(1u << gsi);
}

/* Polarity and trigger of a GSI: from an ISA override, else ISA defaults. */
static u32 rte_flags(unsigned int gsi)
{
	if (gsi < 16 && (pci_isa_lines & (1u << gsi)))
		return RTE_LEVEL;
	for (unsigned int i = 0; i < 16; i++) {
		u16 f = isa_override[i].flags;

		if (!isa_override[i].set || isa_override[i].gsi != gsi)
			continue;
		return ((f & 3) == 3 ? RTE_ACTIVE_LOW : 0) | (((f >> 2) & 3) == 3 ? RTE_LEVEL : 0);
	}
	/* ISA lines 0-15 are edge/high; PCI lines above are level/low. */
	return gsi < 16 ? 0 : RTE_ACTIVE_LOW | RTE_LEVEL;
}

/* Is gsi wired to an I/O APIC pin (else it is free for MSI)? */
bool ioapic_has_gsi(unsigned int gsi)
{
	unsigned int pin;

	return ioapic_for(gsi, &pin) != NULL;
}

int arch_irq_unmask(unsigned int irq)
{
	unsigned int pin;
	struct ioapic *a = ioapic_for(irq, &pin);

	if (!a && msi_line_allocated(irq))
		return 0; /* the device masks it, not the I/O APIC */
	if (!a || irq >= NR_GSI_VECTORS)
		return -EINVAL;
	io_write(a, REDTBL(pin) + 1, x86_apic_ids[0] << 24);
	io_write(a, REDTBL(pin), (IRQ_VECTOR_BASE + irq) | rte_flags(irq));
	return 0;
}

void arch_irq_mask(unsigned int irq)
{
	unsigned int pin;
	struct ioapic *a = ioapic_for(irq, &pin);

	if (a)
		io_write(a, REDTBL(pin), RTE_MASKED);
}

static void pic_disable(void)
{
	/* ICW1-4: cascade, vectors 0x20/0x28, then mask every line. */
	outb(0x20, 0x11);
	outb(0xa0, 0x11);
	outb(0x21, 0x20);
	outb(0xa1, 0x28);
	outb(0x21, 4);
	outb(0xa1, 2);
	outb(0x21, 1);
	outb(0xa1, 1);
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
}

void ioapic_init(void)
{
	pic_disable();
	for (unsigned int i = 0; i < nr_ioapics; i++)
		for (unsigned int pin = 0; pin < ioapics[i].nr_lines; pin++)
			io_write(&ioapics[i], REDTBL(pin), RTE_MASKED);
	if (nr_ioapics)
		pr_info("ioapic: %u I/O APIC(s), %u lines from GSI %u\n", nr_ioapics,
			ioapics[0].nr_lines, ioapics[0].gsi_base);
	else
		pr_warn("ioapic: none found; device interrupts stay off\n");
}
