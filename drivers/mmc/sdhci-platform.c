// SPDX-License-Identifier: MIT
/*
 * SDHCI hosts named by the device tree: the Pi 4's EMMC2 (its SD card
 * slot, "brcm,bcm2711-emmc2") and its Arasan controller
 * ("brcm,bcm2835-sdhci", wired to the Wi-Fi chip on a real board; QEMU's
 * `-drive if=sd` puts a card there). EMMC2 is probed first, so the SD
 * slot's card is mmcblk0 as on Linux.
 *
 * The EMMC2 sits under emmc2bus, whose dma-ranges show RAM at bus address
 * 0xc0000000: that window becomes the host's dma_range_map, so the DMA API
 * hands the controller bus addresses. Both run in PIO mode here (QEMU's
 * models have no DMA engine).
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/drivers.h>
#include <pagoda/fdt.h>
#include <pagoda/mm.h>
#include <pagoda/mmc.h>
#include <pagoda/pci.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/vmalloc.h>

#define MAX_DMA_WINDOWS 4

/* The parent bus's dma-ranges as a dma_range_map; NULL when it has none. */
static struct bus_dma_region *dma_windows(const void *fdt, int node)
{
	int bus = fdt_parent(fdt, node), up = bus >= 0 ? fdt_parent(fdt, bus) : -1;
	int cac, pac, sc, stride, n = 0;
	struct bus_dma_region *map;
	const u8 *r;
	u32 len;

	if (bus < 0 || up < 0 || !(r = fdt_getprop(fdt, bus, "dma-ranges", &len)) || !len)
		return NULL;
	cac = fdt_address_cells(fdt, bus);
	pac = fdt_address_cells(fdt, up);
	sc = fdt_size_cells(fdt, bus);
	if (cac < 1 || cac > 2 || pac < 1 || pac > 2 || sc < 1 || sc > 2)
		return NULL;
	stride = 4 * (cac + pac + sc);
	map = kcalloc(MAX_DMA_WINDOWS + 1, sizeof(*map), GFP_KERNEL);
	if (!map)
		return NULL;
	for (u32 off = 0; off + stride <= len && n < MAX_DMA_WINDOWS; off += stride, n++) {
		map[n].dma_start = fdt_cells(r + off, cac);
		map[n].cpu_start = fdt_cells(r + off + 4 * cac, pac);
		map[n].size = fdt_cells(r + off + 4 * (cac + pac), sc);
	}
	return map;
}

static void probe_node(const void *fdt, int node)
{
	struct mmc_host *h;
	u64 pa, size;
	int irq;

	if (!fdt_node_enabled(fdt, node) || fdt_reg_cpu(fdt, node, 0, &pa, &size))
		return;
	irq = arch_fdt_irq(fdt, node, 0);
	if (irq < 0) {
		pr_warn("sdhci %llx: no usable interrupt (%d)\n", (unsigned long long)pa, irq);
		return;
	}
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return;
	h->ioaddr = ioremap(pa, MAX(size, 0x100ULL));
	if (!h->ioaddr) {
		kfree(h);
		return;
	}
	h->irq = (unsigned int)irq;
	device_initialize(&h->dev, "sdhci");
	h->dev.dma_coherent = fdt_getprop(fdt, node, "dma-coherent", NULL) != NULL;
	h->dev.dma_range_map = dma_windows(fdt, node);
	h->assume_card = fdt_getprop(fdt, node, "broken-cd", NULL) ||
			 fdt_getprop(fdt, node, "non-removable", NULL);
	mmc_add_host(h);
}

static void sdhci_platform_init(void)
{
	static const char *const compatibles[] = { "brcm,bcm2711-emmc2", "brcm,bcm2835-sdhci" };
	const void *fdt = boot_info.dtb ? __va(boot_info.dtb) : NULL;

	if (!fdt)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(compatibles); i++)
		for (int n = fdt_node_by_compatible(fdt, -1, compatibles[i]); n >= 0;
		     n = fdt_node_by_compatible(fdt, n, compatibles[i]))
			probe_node(fdt, n);
}

/* ---- sdhci-pci: a PCI function of class "SD host controller" ---- */

static int sdhci_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct mmc_host *h;
	int n;

	(void)id;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	pci_enable_device(pdev);
	pci_set_master(pdev);
	h->ioaddr = pci_iomap(pdev, 0, 0x100);
	n = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_ALL_TYPES);
	if (!h->ioaddr || n < 1) {
		kfree(h);
		return -ENODEV;
	}
	h->irq = (unsigned int)pci_irq_vector(pdev, 0);
	h->dev = pdev->dev; /* its DMA mask and coherency */
	h->use_adma = true;
	return mmc_add_host(h);
}

static const struct pci_device_id sdhci_pci_ids[] = {
	{ PCI_DEVICE_CLASS(0x080500, 0xffff00) },
	{}
};

static struct pci_driver sdhci_pci_driver = {
	.name = "sdhci-pci",
	.id_table = sdhci_pci_ids,
	.probe = sdhci_pci_probe,
};

void sdhci_init(void)
{
	sdhci_platform_init();
	pci_register_driver(&sdhci_pci_driver);
}
