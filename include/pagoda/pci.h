/* SPDX-License-Identifier: MIT */
/*
 * PCI (drivers/pci/): functions found through the memory-mapped
 * configuration space (ECAM), their BARs and capabilities, MSI-X or INTx
 * interrupts, and drivers matched by vendor/device/class, with Linux's
 * names:
 *
 *	static const struct pci_device_id ids[] = { { PCI_DEVICE(0x1af4, 0x1042) }, {} };
 *	static struct pci_driver drv = { "virtio-pci", ids, probe };
 *	pci_register_driver(&drv);	// probe() runs for each match
 */
#ifndef PAGODA_PCI_H
#define PAGODA_PCI_H

#include <pagoda/device.h>
#include <pagoda/list.h>

#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define  PCI_COMMAND_IO 0x1
#define  PCI_COMMAND_MEMORY 0x2
#define  PCI_COMMAND_MASTER 0x4
#define  PCI_COMMAND_INTX_DISABLE 0x400
#define PCI_STATUS 0x06
#define  PCI_STATUS_CAP_LIST 0x10
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_HEADER_TYPE 0x0e
#define PCI_BASE_ADDRESS_0 0x10
#define  PCI_BASE_ADDRESS_SPACE_IO 0x1
#define  PCI_BASE_ADDRESS_MEM_TYPE_64 0x4
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_INTERRUPT_PIN 0x3d
#define PCI_SECONDARY_BUS 0x19

#define PCI_CAP_ID_MSI 0x05
#define PCI_CAP_ID_VNDR 0x09
#define PCI_CAP_ID_MSIX 0x11

#define PCI_ANY_ID 0xffffffffu
#define PCI_NUM_RESOURCES 6

struct pci_dev {
	struct device dev;
	struct list_head node;		/* on the list of all functions */
	char name[16];			/* "0000:00:03.0" */
	u8 bus, devfn;
	u16 vendor, device, subsystem_device;
	u32 class;			/* base << 16 | sub << 8 | prog-if */
	u8 revision, hdr_type, pin;
	volatile u8 *cfg;		/* its 4 KiB of ECAM; NULL: port I/O */
	struct {
		phys_addr_t start;	/* CPU address; 0 when unused */
		u64 len;
		bool io, is64;
	} resource[PCI_NUM_RESOURCES];
	/* Interrupts: pci_alloc_irq_vectors() fills these. */
	unsigned int nr_irqs;
	unsigned int irqs[32];
	bool msix_enabled;
	u8 msix_cap;
	volatile u8 *msix_table;
	/* What each MSI-X entry was given, to write again after a hibernation. */
	u64 msix_addr[32];
	u32 msix_data[32];
	struct pci_driver *driver;
	void *driver_data;
};

#define to_pci_dev(d) container_of(d, struct pci_dev, dev)
#define PCI_SLOT(devfn) (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn) ((devfn) & 7)

struct pci_device_id {
	u32 vendor, device;		/* PCI_ANY_ID matches any */
	u32 class, class_mask;
};

#define PCI_DEVICE(v, d) .vendor = (v), .device = (d)
#define PCI_DEVICE_CLASS(c, m) .vendor = PCI_ANY_ID, .device = PCI_ANY_ID, \
			       .class = (c), .class_mask = (m)

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;	/* ends with vendor 0 */
	int (*probe)(struct pci_dev *pdev, const struct pci_device_id *id);
	struct list_head node;
};

/* Enumerate the buses (once, at boot); the number of functions found. */
int pci_init(void);
int pci_register_driver(struct pci_driver *drv);
/* Every function found, for the `lspci` command and tests. */
extern struct list_head pci_devices;

u8 pci_read_config_byte(struct pci_dev *pdev, unsigned int off);
u16 pci_read_config_word(struct pci_dev *pdev, unsigned int off);
u32 pci_read_config_dword(struct pci_dev *pdev, unsigned int off);
void pci_write_config_byte(struct pci_dev *pdev, unsigned int off, u8 v);
void pci_write_config_word(struct pci_dev *pdev, unsigned int off, u16 v);
void pci_write_config_dword(struct pci_dev *pdev, unsigned int off, u32 v);

/* Capability offsets in config space; 0 when absent. */
u8 pci_find_capability(struct pci_dev *pdev, u8 cap);
u8 pci_find_next_capability(struct pci_dev *pdev, u8 pos, u8 cap);

/* Turn on memory decoding; pci_set_master() lets it do DMA. */
int pci_enable_device(struct pci_dev *pdev);
void pci_set_master(struct pci_dev *pdev);
static inline phys_addr_t pci_resource_start(struct pci_dev *p, int bar)
{
	return p->resource[bar].start;
}
static inline u64 pci_resource_len(struct pci_dev *p, int bar)
{
	return p->resource[bar].len;
}
/* Map a memory BAR (maxlen 0: all of it); NULL for I/O or empty BARs. */
void *pci_iomap(struct pci_dev *pdev, int bar, u64 maxlen);
void *pci_iomap_range(struct pci_dev *pdev, int bar, u64 offset, u64 len);

/*
 * Interrupt vectors: MSI-X when the function has it and the platform can
 * deliver messages (flags PCI_IRQ_MSIX), else its INTx line (PCI_IRQ_INTX,
 * one vector, possibly shared). Returns the number allocated (>= min) or a
 * negative errno; pci_irq_vector() gives vector n's irq for request_irq().
 */
#define PCI_IRQ_INTX 1u
#define PCI_IRQ_MSIX 4u
#define PCI_IRQ_ALL_TYPES (PCI_IRQ_INTX | PCI_IRQ_MSIX)
int pci_alloc_irq_vectors(struct pci_dev *pdev, unsigned int min, unsigned int max,
			  unsigned int flags);
void pci_free_irq_vectors(struct pci_dev *pdev);
int pci_irq_vector(struct pci_dev *pdev, unsigned int nr);
/* Write the MSI-X entries and enable bits again (after a resume from hibernation). */
void pci_msix_restore(struct pci_dev *pdev);
/* MSI-X vector nr's messages to cpu (where the arch can aim them), kept across a restore. */
void pci_irq_set_cpu(struct pci_dev *pdev, unsigned int nr, unsigned int cpu);

#endif
