/* SPDX-License-Identifier: MIT */
/*
 * The DMA mapping API (dma/mapping.c, dma/direct.c), with Linux's names.
 *
 * A driver never hands a device a physical address. It asks this API for a
 * bus address ("DMA address") and, around each transfer, tells it who owns
 * the buffer:
 *
 *	dma = dma_map_single(dev, buf, len, DMA_TO_DEVICE);
 *	if (dma_mapping_error(dev, dma))
 *		return -ENOMEM;
 *	...device reads buf...
 *	dma_unmap_single(dev, dma, len, DMA_TO_DEVICE);
 *
 * A mapping is direct: the bus address is the physical address, moved by
 * the device's dma_range_map. A buffer the device cannot reach (above its
 * mask), or any buffer under swiotlb=force, is bounced through SWIOTLB
 * slots (dma/swiotlb.c, docs/swiotlb.md) behind these same calls.
 * On a non-coherent device, mapping cleans the CPU caches (the device reads
 * memory, not caches) and unmapping from-device buffers invalidates them
 * (the CPU must not read stale lines); on a coherent one both are free.
 */
#ifndef PAGODA_DMA_MAPPING_H
#define PAGODA_DMA_MAPPING_H

#include <pagoda/device.h>
#include <pagoda/gfp.h>
#include <pagoda/scatterlist.h>

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,	/* the device reads the buffer */
	DMA_FROM_DEVICE = 2,	/* the device writes it */
	DMA_NONE = 3,
};

#define DMA_MAPPING_ERROR (~(dma_addr_t)0)
#define DMA_BIT_MASK(n) ((n) >= 64 ? ~0ULL : ((1ULL << (n)) - 1))

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset,
			size_t size, enum dma_data_direction dir);
void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir);
dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
			  enum dma_data_direction dir);
void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir);
/*
 * Map every entry of a scatterlist: returns the number of DMA segments
 * (nents here: direct mapping merges nothing), or 0 when any entry cannot be
 * mapped (then none is left mapped).
 */
int dma_map_sg(struct device *dev, struct scatterlist *sg, int nents,
	       enum dma_data_direction dir);
void dma_unmap_sg(struct device *dev, struct scatterlist *sg, int nents,
		  enum dma_data_direction dir);

/* Hand a still-mapped buffer back to the CPU, or to the device again. */
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir);
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir);
void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sg, int nents,
			 enum dma_data_direction dir);
void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sg, int nents,
			    enum dma_data_direction dir);

/*
 * Memory both sides use at once (descriptor rings): zeroed, reachable by
 * the device under its coherent mask, and mapped uncached for the CPU when
 * the device does not snoop.
 */
void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle,
			 gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t dma_handle);

int dma_set_mask(struct device *dev, u64 mask);
int dma_set_coherent_mask(struct device *dev, u64 mask);
int dma_set_mask_and_coherent(struct device *dev, u64 mask);

static inline int dma_mapping_error(struct device *dev, dma_addr_t addr)
{
	(void)dev;
	return addr == DMA_MAPPING_ERROR ? -ENOMEM : 0;
}

/* The largest single mapping the device can be given. */
size_t dma_max_mapping_size(struct device *dev);
/* The most one request should map through a pool that cannot grow (SIZE_MAX: no limit). */
size_t dma_max_request_size(struct device *dev);

/* ---- dma/direct.c: the direct mapping, and bus address translation ---- */

dma_addr_t phys_to_dma(struct device *dev, phys_addr_t paddr);
phys_addr_t dma_to_phys(struct device *dev, dma_addr_t addr);
/* Can the device reach [addr, addr + size) under its streaming mask? */
bool dma_capable(struct device *dev, dma_addr_t addr, size_t size);
bool dev_is_dma_coherent(struct device *dev);

dma_addr_t dma_direct_map_page(struct device *dev, struct page *page,
			       size_t offset, size_t size,
			       enum dma_data_direction dir);
void dma_direct_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			   enum dma_data_direction dir);
void dma_direct_sync_single_for_cpu(struct device *dev, dma_addr_t addr,
				    size_t size, enum dma_data_direction dir);
void dma_direct_sync_single_for_device(struct device *dev, dma_addr_t addr,
				       size_t size, enum dma_data_direction dir);
void *dma_direct_alloc(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp);
void dma_direct_free(struct device *dev, size_t size, void *cpu_addr,
		     dma_addr_t dma_handle);

/* Mappings refused because the device could not reach the buffer. */
extern unsigned long dma_direct_refused;

#endif
