// SPDX-License-Identifier: MIT
/*
 * The direct DMA mapping: a bus address is the physical address, moved by
 * the device's dma_range_map when its bus sees memory elsewhere. Nothing is
 * copied; the only work is translation, a reachability check against the
 * device's mask, and cache maintenance for devices that do not snoop.
 *
 * A buffer beyond the device's reach, or every buffer with swiotlb=force,
 * is bounced through SWIOTLB slots (dma/swiotlb.c); with no bounce buffers
 * it is refused (DMA_MAPPING_ERROR) with a message naming the device and
 * address: silently handing the device an address it would truncate
 * corrupts some other page.
 */
#include <pagoda/arch.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/swiotlb.h>
#include <pagoda/vmalloc.h>

unsigned long dma_direct_refused;

dma_addr_t phys_to_dma(struct device *dev, phys_addr_t paddr)
{
	const struct bus_dma_region *r = dev->dma_range_map;

	if (!r)
		return paddr;
	for (; r->size; r++)
		if (paddr >= r->cpu_start && paddr - r->cpu_start < r->size)
			return r->dma_start + (paddr - r->cpu_start);
	return DMA_MAPPING_ERROR; /* outside every window the bus decodes */
}

phys_addr_t dma_to_phys(struct device *dev, dma_addr_t addr)
{
	const struct bus_dma_region *r = dev->dma_range_map;

	if (!r)
		return addr;
	for (; r->size; r++)
		if (addr >= r->dma_start && addr - r->dma_start < r->size)
			return r->cpu_start + (addr - r->dma_start);
	return (phys_addr_t)-1;
}

static bool reachable(struct device *dev, u64 mask, dma_addr_t addr, size_t size)
{
	u64 limit = mask;

	if (addr == DMA_MAPPING_ERROR || !size)
		return false;
	if (dev->bus_dma_limit && dev->bus_dma_limit < limit)
		limit = dev->bus_dma_limit;
	return addr <= limit && size - 1 <= limit - addr;
}

bool dma_capable(struct device *dev, dma_addr_t addr, size_t size)
{
	return reachable(dev, dev->dma_mask, addr, size);
}

bool dev_is_dma_coherent(struct device *dev)
{
	return dev->dma_coherent;
}

dma_addr_t dma_direct_map_page(struct device *dev, struct page *page,
			       size_t offset, size_t size,
			       enum dma_data_direction dir)
{
	phys_addr_t phys = page_to_phys(page) + offset;
	dma_addr_t addr = phys_to_dma(dev, phys);

	if (is_swiotlb_force_bounce(dev) ||
	    (!dma_capable(dev, addr, size) && is_swiotlb_active(dev)))
		return swiotlb_map(dev, phys, size, dir);
	if (!dma_capable(dev, addr, size)) {
		dma_direct_refused++;
		pr_err("dma: %s cannot reach %#llx+%#zx (%s); no bounce buffers\n",
		       dev_name(dev), (unsigned long long)phys, size,
		       addr == DMA_MAPPING_ERROR ? "outside its bus's DMA windows" :
						   "above its DMA mask");
		return DMA_MAPPING_ERROR;
	}
	if (!dev_is_dma_coherent(dev))
		arch_sync_dma_for_device(phys, size, dir);
	return addr;
}

void dma_direct_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			   enum dma_data_direction dir)
{
	phys_addr_t phys = dma_to_phys(dev, addr);

	if (!dev_is_dma_coherent(dev) && dir != DMA_TO_DEVICE)
		arch_sync_dma_for_cpu(phys, size, dir);
	if (is_swiotlb_buffer(dev, phys))
		swiotlb_tbl_unmap_single(dev, dev->dma_io_tlb_mem, phys, size, dir);
}

void dma_direct_sync_single_for_cpu(struct device *dev, dma_addr_t addr,
				    size_t size, enum dma_data_direction dir)
{
	phys_addr_t phys = dma_to_phys(dev, addr);

	if (!dev_is_dma_coherent(dev) && dir != DMA_TO_DEVICE)
		arch_sync_dma_for_cpu(phys, size, dir);
	/* The slots now hold what the device wrote: copy it home. */
	if (is_swiotlb_buffer(dev, phys))
		swiotlb_sync_single_for_cpu(dev, dev->dma_io_tlb_mem, phys, size, dir);
}

void dma_direct_sync_single_for_device(struct device *dev, dma_addr_t addr,
				       size_t size, enum dma_data_direction dir)
{
	phys_addr_t phys = dma_to_phys(dev, addr);

	/* Copy the CPU's new bytes into the slots before cleaning them. */
	if (is_swiotlb_buffer(dev, phys))
		swiotlb_sync_single_for_device(dev, dev->dma_io_tlb_mem, phys, size, dir);
	if (!dev_is_dma_coherent(dev))
		arch_sync_dma_for_device(phys, size, dir);
}

/* The lowest zone whose every page the mask covers. */
static gfp_t zone_for_mask(u64 mask)
{
	if (mask >= DMA_BIT_MASK(64) - 1)
		return 0;
	if (mask >= DMA_BIT_MASK(32))
		return mask == DMA_BIT_MASK(32) ? __GFP_DMA32 : 0;
	return __GFP_DMA;
}

void *dma_direct_alloc(struct device *dev, size_t size, dma_addr_t *dma_handle,
		       gfp_t gfp)
{
	unsigned int order = get_order(size);
	struct page *page;
	phys_addr_t phys;
	dma_addr_t addr;
	void *cpu;

	size = ALIGN_UP(size, PAGE_SIZE);
	gfp = (gfp & ~GFP_ZONEMASK) | zone_for_mask(dev->coherent_dma_mask) | __GFP_ZERO;
	page = alloc_pages(gfp, order);
	if (!page)
		return NULL;
	phys = page_to_phys(page);
	addr = phys_to_dma(dev, phys);
	if (!reachable(dev, dev->coherent_dma_mask, addr, size)) {
		pr_err("dma: coherent buffer for %s at %#llx is out of reach (mask %#llx)\n",
		       dev_name(dev), (unsigned long long)phys,
		       (unsigned long long)dev->coherent_dma_mask);
		__free_pages(page, order);
		return NULL;
	}
	cpu = page_address(page);
	if (!dev_is_dma_coherent(dev)) {
		/*
		 * Write back and drop the zeroes' cache lines, then use an
		 * uncached alias: neither side can see the other's stale copy.
		 */
		arch_sync_dma_for_device(phys, PAGE_SIZE << order, DMA_BIDIRECTIONAL);
		arch_sync_dma_for_cpu(phys, PAGE_SIZE << order, DMA_BIDIRECTIONAL);
		cpu = ioremap_prot(phys, size, PROT_PRESENT | PROT_WRITE | PROT_NOCACHE);
		if (!cpu) {
			__free_pages(page, order);
			return NULL;
		}
	}
	*dma_handle = addr;
	return cpu;
}

void dma_direct_free(struct device *dev, size_t size, void *cpu_addr,
		     dma_addr_t dma_handle)
{
	phys_addr_t phys = dma_to_phys(dev, dma_handle);

	if (!dev_is_dma_coherent(dev))
		iounmap(cpu_addr);
	__free_pages(pfn_to_page(PHYS_PFN(phys)), get_order(size));
}
