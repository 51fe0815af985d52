// SPDX-License-Identifier: MIT
/*
 * Interrupt vectors for PCI functions. MSI-X gives each queue of a device
 * its own message: a table in one of the function's BARs holds, per entry,
 * the address and data to write and a mask bit. Each entry gets a line of
 * its own from the arch (arch_msi_alloc()), so request_irq() works on it
 * as on any wire. Where messages cannot be delivered (no MSI-X capability,
 * or an arch without an MSI controller driver) the function's INTx pin is
 * used: one level-triggered line, routed by the platform.
 */
#include <pagoda/arch.h>
#include <pagoda/io.h>
#include <pagoda/pci.h>
#include <pagoda/printk.h>
#include <pagoda/vmalloc.h>

#define PCI_MSIX_FLAGS 2
#define  PCI_MSIX_FLAGS_QSIZE 0x7ff
#define  PCI_MSIX_FLAGS_MASKALL 0x4000
#define  PCI_MSIX_FLAGS_ENABLE 0x8000
#define PCI_MSIX_TABLE 4
#define  PCI_MSIX_TABLE_BIR 7
#define PCI_MSIX_ENTRY_SIZE 16
#define PCI_MSIX_ENTRY_LOWER_ADDR 0
#define PCI_MSIX_ENTRY_UPPER_ADDR 4
#define PCI_MSIX_ENTRY_DATA 8
#define PCI_MSIX_ENTRY_VECTOR_CTRL 12
#define  PCI_MSIX_ENTRY_CTRL_MASKBIT 1

static int enable_msix(struct pci_dev *p, unsigned int min, unsigned int max)
{
	u8 cap = pci_find_capability(p, PCI_CAP_ID_MSIX);
	u16 ctrl;
	u32 table;
	unsigned int n, i;

	if (!cap)
		return -ENODEV;
	ctrl = pci_read_config_word(p, cap + PCI_MSIX_FLAGS);
	table = pci_read_config_dword(p, cap + PCI_MSIX_TABLE);
	n = MIN(max, (unsigned int)(ctrl & PCI_MSIX_FLAGS_QSIZE) + 1);
	n = MIN(n, (unsigned int)ARRAY_SIZE(p->irqs));
	if (n < min)
		return -ENOSPC;
	p->msix_table = pci_iomap_range(p, table & PCI_MSIX_TABLE_BIR,
					table & ~PCI_MSIX_TABLE_BIR, n * PCI_MSIX_ENTRY_SIZE);
	if (!p->msix_table)
		return -ENODEV;
	/* Enabled but all masked while the entries are written. */
	pci_write_config_word(p, cap + PCI_MSIX_FLAGS,
			      ctrl | PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	for (i = 0; i < n; i++) {
		volatile u8 *e = p->msix_table + i * PCI_MSIX_ENTRY_SIZE;
		u64 addr;
		u32 data;
		int err = arch_msi_alloc(&p->irqs[i], &addr, &data);

		if (err) {
			if (i >= min)
				break; /* fewer than asked, still enough */
			while (i--)
				arch_msi_free(p->irqs[i]);
			pci_write_config_word(p, cap + PCI_MSIX_FLAGS, ctrl & ~PCI_MSIX_FLAGS_ENABLE);
			iounmap((void *)p->msix_table);
			p->msix_table = NULL;
			return err;
		}
		p->msix_addr[i] = addr;
		p->msix_data[i] = data;
		writel((u32)addr, e + PCI_MSIX_ENTRY_LOWER_ADDR);
		writel((u32)(addr >> 32), e + PCI_MSIX_ENTRY_UPPER_ADDR);
		writel(data, e + PCI_MSIX_ENTRY_DATA);
		writel(0, e + PCI_MSIX_ENTRY_VECTOR_CTRL); /* unmasked */
	}
	p->nr_irqs = i;
	p->msix_cap = cap;
	p->msix_enabled = true;
	/* INTx off: a device must not signal both ways. */
	pci_write_config_word(p, PCI_COMMAND,
			      pci_read_config_word(p, PCI_COMMAND) | PCI_COMMAND_INTX_DISABLE);
	pci_write_config_word(p, cap + PCI_MSIX_FLAGS,
			      (ctrl | PCI_MSIX_FLAGS_ENABLE) & ~PCI_MSIX_FLAGS_MASKALL);
	return (int)i;
}

void pci_irq_set_cpu(struct pci_dev *p, unsigned int nr, unsigned int cpu)
{
	volatile u8 *e;
	u64 addr;

	if (!p->msix_enabled || nr >= p->nr_irqs)
		return;
	addr = p->msix_addr[nr];
	if (!arch_msi_target(&addr, cpu))
		return;
	e = p->msix_table + nr * PCI_MSIX_ENTRY_SIZE;
	/* Masked while the address changes: no message goes out half written. */
	writel(1, e + PCI_MSIX_ENTRY_VECTOR_CTRL);
	writel((u32)addr, e + PCI_MSIX_ENTRY_LOWER_ADDR);
	writel((u32)(addr >> 32), e + PCI_MSIX_ENTRY_UPPER_ADDR);
	writel(0, e + PCI_MSIX_ENTRY_VECTOR_CTRL);
	p->msix_addr[nr] = addr;
}

void pci_msix_restore(struct pci_dev *p)
{
	u16 ctrl;

	if (!p->msix_enabled)
		return;
	ctrl = pci_read_config_word(p, p->msix_cap + PCI_MSIX_FLAGS);
	pci_write_config_word(p, p->msix_cap + PCI_MSIX_FLAGS,
			      ctrl | PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	for (unsigned int i = 0; i < p->nr_irqs; i++) {
		volatile u8 *e = p->msix_table + i * PCI_MSIX_ENTRY_SIZE;

		writel((u32)p->msix_addr[i], e + PCI_MSIX_ENTRY_LOWER_ADDR);
		writel((u32)(p->msix_addr[i] >> 32), e + PCI_MSIX_ENTRY_UPPER_ADDR);
		writel(p->msix_data[i], e + PCI_MSIX_ENTRY_DATA);
		writel(0, e + PCI_MSIX_ENTRY_VECTOR_CTRL);
	}
	pci_write_config_word(p, PCI_COMMAND,
			      pci_read_config_word(p, PCI_COMMAND) | PCI_COMMAND_INTX_DISABLE);
	pci_write_config_word(p, p->msix_cap + PCI_MSIX_FLAGS,
			      (ctrl | PCI_MSIX_FLAGS_ENABLE) & ~PCI_MSIX_FLAGS_MASKALL);
}

static int enable_intx(struct pci_dev *p)
{
	int irq;

	if (!p->pin)
		return -ENODEV;
	irq = arch_pci_intx_irq(p->bus, PCI_SLOT(p->devfn), p->pin,
				pci_read_config_byte(p, PCI_INTERRUPT_LINE));
	if (irq < 0)
		return irq;
	p->irqs[0] = (unsigned int)irq;
	p->nr_irqs = 1;
	pci_write_config_word(p, PCI_COMMAND,
			      pci_read_config_word(p, PCI_COMMAND) & ~PCI_COMMAND_INTX_DISABLE);
	return 1;
}

int pci_alloc_irq_vectors(struct pci_dev *p, unsigned int min, unsigned int max,
			  unsigned int flags)
{
	int n = -ENODEV;

	if (!min || min > max)
		return -EINVAL;
	if (flags & PCI_IRQ_MSIX) {
		n = enable_msix(p, min, max);
		if (n > 0)
			return n;
	}
	if ((flags & PCI_IRQ_INTX) && min == 1)
		n = enable_intx(p);
	if (n < 0)
		pr_warn("pci %s: no interrupt vectors (%d)\n", p->name, n);
	return n;
}

void pci_free_irq_vectors(struct pci_dev *p)
{
	if (p->msix_enabled) {
		u16 ctrl = pci_read_config_word(p, p->msix_cap + PCI_MSIX_FLAGS);

		pci_write_config_word(p, p->msix_cap + PCI_MSIX_FLAGS,
				      ctrl & ~PCI_MSIX_FLAGS_ENABLE);
		for (unsigned int i = 0; i < p->nr_irqs; i++)
			arch_msi_free(p->irqs[i]);
		iounmap((void *)p->msix_table);
		p->msix_table = NULL;
		p->msix_enabled = false;
	}
	p->nr_irqs = 0;
}

int pci_irq_vector(struct pci_dev *p, unsigned int nr)
{
	return nr < p->nr_irqs ? (int)p->irqs[nr] : -EINVAL;
}
