// SPDX-License-Identifier: MIT
/*
 * The DMA API's front door: the calls drivers make (pagoda/dma-mapping.h).
 * Each turns its arguments into one physical range and hands it to the
 * direct mapping (dma/direct.c), which diverts what the device cannot
 * reach to the bounce buffers (dma/swiotlb.c).
 */
#include <pagoda/arch.h>
#include <pagoda/dma-debug.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/swiotlb.h>
#include <pagoda/vmalloc.h>

void device_initialize(struct device *dev, const char *name)
{
	*dev = (struct device){
		.name = name,
		.dma_mask = DMA_BIT_MASK(32),
		.coherent_dma_mask = DMA_BIT_MASK(32),
		.dma_coherent = arch_dma_default_coherent(),
	};
	swiotlb_dev_init(dev);
}

static bool valid_dir(enum dma_data_direction dir)
{
	return dir == DMA_BIDIRECTIONAL || dir == DMA_TO_DEVICE || dir == DMA_FROM_DEVICE;
}

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset,
			size_t size, enum dma_data_direction dir)
{
	dma_addr_t addr;

	if (!valid_dir(dir)) {
		pr_err("dma: %s: map with direction %d\n", dev_name(dev), dir);
		return DMA_MAPPING_ERROR;
	}
	addr = dma_direct_map_page(dev, page, offset, size, dir);
	debug_dma_map_page(dev, page_to_phys(page) + offset, size, dir, addr);
	return addr;
}

void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir)
{
	debug_dma_unmap_page(dev, addr, size, dir);
	dma_direct_unmap_page(dev, addr, size, dir);
}

dma_addr_t dma_map_single(struct device *dev, void *ptr, size_t size,
			  enum dma_data_direction dir)
{
	/* Only the direct map is physically contiguous: a vmalloc buffer is not. */
	if (is_vmalloc_addr(ptr)) {
		pr_err("dma: %s: dma_map_single() of vmalloc address %p\n", dev_name(dev), ptr);
		return DMA_MAPPING_ERROR;
	}
	return dma_map_page(dev, virt_to_page(ptr), (unsigned long)ptr & (PAGE_SIZE - 1),
			    size, dir);
}

void dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir)
{
	dma_unmap_page(dev, addr, size, dir);
}

int dma_map_sg(struct device *dev, struct scatterlist *sgl, int nents,
	       enum dma_data_direction dir)
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i) {
		sg->dma_address = dma_map_page(dev, sg->page, sg->offset, sg->length, dir);
		if (sg->dma_address == DMA_MAPPING_ERROR) {
			dma_unmap_sg(dev, sgl, i, dir);
			return 0;
		}
		sg->dma_length = sg->length;
	}
	return nents;
}

/*
 * Unmapping and syncing a scatterlist are the single-buffer calls, made
 * for each entry over the bus address and length dma_map_sg() gave it.
 */
static void for_each_mapped_sg(struct device *dev, struct scatterlist *sgl, int nents,
			       enum dma_data_direction dir,
			       void (*op)(struct device *dev, dma_addr_t addr, size_t size,
					  enum dma_data_direction dir))
{
	struct scatterlist *sg;
	int i;

	for_each_sg(sgl, sg, nents, i)
		op(dev, sg->dma_address, sg->dma_length, dir);
}

void dma_unmap_sg(struct device *dev, struct scatterlist *sgl, int nents,
		  enum dma_data_direction dir)
{
	for_each_mapped_sg(dev, sgl, nents, dir, dma_unmap_page);
}

void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	debug_dma_sync(dev, addr, size, dir, true);
	dma_direct_sync_single_for_cpu(dev, addr, size, dir);
}

void dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size,
				enum dma_data_direction dir)
{
	debug_dma_sync(dev, addr, size, dir, false);
	dma_direct_sync_single_for_device(dev, addr, size, dir);
}

void dma_sync_sg_for_cpu(struct device *dev, struct scatterlist *sgl, int nents,
			 enum dma_data_direction dir)
{
	for_each_mapped_sg(dev, sgl, nents, dir, dma_sync_single_for_cpu);
}

void dma_sync_sg_for_device(struct device *dev, struct scatterlist *sgl, int nents,
			    enum dma_data_direction dir)
{
	for_each_mapped_sg(dev, sgl, nents, dir, dma_sync_single_for_device);
}

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma_handle,
			 gfp_t gfp)
{
	if (!size)
		return NULL;
	return dma_direct_alloc(dev, size, dma_handle, gfp);
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu_addr,
		       dma_addr_t dma_handle)
{
	if (cpu_addr)
		dma_direct_free(dev, size, cpu_addr, dma_handle);
}

/*
 * A mask narrower than 24 bits cannot be served by any zone (the ISA
 * limit is the lowest one); Linux refuses those too.
 */
int dma_set_mask(struct device *dev, u64 mask)
{
	if (mask < DMA_BIT_MASK(24))
		return -EIO;
	dev->dma_mask = mask;
	return 0;
}

int dma_set_coherent_mask(struct device *dev, u64 mask)
{
	if (mask < DMA_BIT_MASK(24))
		return -EIO;
	dev->coherent_dma_mask = mask;
	return 0;
}

int dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	int err = dma_set_mask(dev, mask);

	return err ? err : dma_set_coherent_mask(dev, mask);
}

/*
 * A bounced mapping must fit one SWIOTLB segment: limit devices that may
 * bounce (forced, or with a mask narrower than 64 bits).
 */
size_t dma_max_mapping_size(struct device *dev)
{
	if (is_swiotlb_active(dev) &&
	    (is_swiotlb_force_bounce(dev) || dev->dma_mask < DMA_BIT_MASK(64)))
		return swiotlb_max_mapping_size(dev);
	return SIZE_MAX; /* direct mapping: any contiguous buffer */
}

/*
 * Not in Linux: the most a device may have mapped by one request and still
 * be sure it fits some day. A pool that never grows (restricted, or
 * swiotlb.dynamic=0) can be smaller than a request, which would then wait
 * for room forever; a quarter of the pool leaves room for the device's
 * other queues and for devices sharing it. Block drivers cap their
 * max_hw_sectors with it.
 */
size_t dma_max_request_size(struct device *dev)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;

	if (!mem || mem->can_grow)
		return SIZE_MAX;
	return (mem->nslabs << IO_TLB_SHIFT) / 4;
}
