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
#include <pagoda/of_dma.h>
#include <pagoda/pci.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/swiotlb.h>
#include <pagoda/vmalloc.h>

#define MAX_DMA_WINDOWS 4

static void probe_node(const void *fdt, int node)
{
	struct bus_dma_region *map;
	struct mmc_host *h;
	u64 pa, size;
	int irq, n;

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
	map = kcalloc(MAX_DMA_WINDOWS + 1, sizeof(*map), GFP_KERNEL);
	n = map ? of_dma_range_map(fdt, node, map, MAX_DMA_WINDOWS) : -ENOMEM;
	if (n < 0)
		pr_warn("sdhci %llx: dma-ranges unreadable (%d); assuming bus address = CPU address\n",
			(unsigned long long)pa, n);
	if (n > 0)
		h->dev.dma_range_map = map;
	else
		kfree(map);
	of_swiotlb_dev_init(&h->dev, fdt, node);
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
