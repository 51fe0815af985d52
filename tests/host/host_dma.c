// SPDX-License-Identifier: MIT
/*
 * The host test runner's stand-ins for kmalloc and the DMA API, so that
 * drivers' pure logic (the virtqueue) runs under ASan: a "bus address" is
 * simply the host pointer, and every map and unmap is counted so tests can
 * check that each mapping is undone exactly once. host_dma_fail_after makes
 * the Nth next mapping fail, to exercise the error paths.
 */
#include <pagoda/dma-mapping.h>
#include <pagoda/slab.h>
#include "host_dma.h"

extern void *calloc(unsigned long n, unsigned long size);
extern void free(void *p);
extern int posix_memalign(void **p, unsigned long align, unsigned long size);

long host_dma_maps, host_dma_unmaps;
long host_dma_fail_after = -1;

void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

dma_addr_t dma_map_page(struct device *dev, struct page *page, size_t offset, size_t size,
			enum dma_data_direction dir)
{
	(void)dev;
	(void)size;
	(void)dir;
	if (host_dma_fail_after >= 0 && host_dma_fail_after-- == 0)
		return DMA_MAPPING_ERROR;
	host_dma_maps++;
	return (dma_addr_t)(uintptr_t)page + offset;
}

void dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir)
{
	(void)dev;
	(void)addr;
	(void)size;
	(void)dir;
	host_dma_unmaps++;
}

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *dma, gfp_t gfp)
{
	void *p = NULL;

	(void)dev;
	(void)gfp;
	if (posix_memalign(&p, 4096, size))
		return NULL;
	__builtin_memset(p, 0, size);
	*dma = (dma_addr_t)(uintptr_t)p;
	return p;
}

void dma_free_coherent(struct device *dev, size_t size, void *cpu, dma_addr_t dma)
{
	(void)dev;
	(void)size;
	(void)dma;
	free(cpu);
}
