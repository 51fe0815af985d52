/* SPDX-License-Identifier: MIT */
/*
 * struct device: what the DMA API needs to know about a bus master. A
 * driver embeds one in its own state (virtio, SDHCI, a PCI function) and
 * hands it to dma_map_*() and dma_alloc_coherent().
 *
 * A device sees memory through its bus: dma_mask says how many address
 * bits it drives, and dma_range_map (when not NULL) lists the windows in
 * which a bus address differs from the CPU physical address (the Pi 4's
 * emmc2bus shows physical 0 at bus 0xc0000000). dma_coherent tells whether
 * the device snoops the CPU caches; when it does not, the DMA API cleans and
 * invalidates them around each transfer.
 */
#ifndef PAGODA_DEVICE_H
#define PAGODA_DEVICE_H

#include <pagoda/types.h>

typedef u64 dma_addr_t;

struct io_tlb_mem;

/* One window of a bus: [cpu_start, cpu_start + size) is dma_start onward. */
struct bus_dma_region {
	phys_addr_t cpu_start;
	dma_addr_t dma_start;
	u64 size;		/* 0 ends a table */
};

struct device {
	const char *name;	/* "virtio0", "0000:00:03.0", "mmc0" */
	u64 dma_mask;		/* streaming mappings (dma_map_*) */
	u64 coherent_dma_mask;	/* dma_alloc_coherent() */
	/* Addresses above this never reach the device, whatever its mask. */
	u64 bus_dma_limit;	/* 0: no limit */
	const struct bus_dma_region *dma_range_map;
	bool dma_coherent;
	/* Address bits a bounce buffer must keep from the original (NVMe-like). */
	unsigned int dma_min_align_mask;
	/* Its bounce buffers: the default ones, a restricted pool, or NULL. */
	struct io_tlb_mem *dma_io_tlb_mem;
	/*
	 * Set at its first bounce and never cleared: until then an address
	 * it unmaps cannot be a bounce slot, and the pool lists are not
	 * searched (the seed's last patch).
	 */
	bool dma_uses_io_tlb;
	void *driver_data;
};

/*
 * Give a device Linux's defaults: a 32-bit DMA mask (until the driver
 * raises it) and the platform's coherency (x86 snoops; an arm64 device is
 * non-coherent unless its firmware description says "dma-coherent").
 */
void device_initialize(struct device *dev, const char *name);

static inline const char *dev_name(const struct device *dev)
{
	return dev->name ? dev->name : "(device)";
}

#endif
