/* SPDX-License-Identifier: MIT */
/*
 * DMA API debugging (dma/debug.c), Linux's dma.debug: with dma.debug=1
 * every mapping is recorded, and a driver's mistakes are reported with a
 * stack trace and counted, while the call itself still goes through.
 */
#ifndef PAGODA_DMA_DEBUG_H
#define PAGODA_DMA_DEBUG_H

#include <pagoda/dma-mapping.h>

enum dma_debug_error {
	DMA_DEBUG_UNMAP_UNKNOWN,	/* unmap of something never mapped */
	DMA_DEBUG_DOUBLE_UNMAP,		/* unmap of what was just unmapped */
	DMA_DEBUG_WRONG_SIZE,		/* unmap with another size */
	DMA_DEBUG_WRONG_DIR,		/* unmap with another direction */
	DMA_DEBUG_SYNC_UNKNOWN,		/* sync of something not mapped */
	DMA_DEBUG_SYNC_DIR,		/* sync in a direction the mapping has not */
	DMA_DEBUG_FREED_MAPPED,		/* memory freed while still mapped */
	DMA_DEBUG_NR_ERRORS,
};

/* At boot, after the allocators: dma.debug=1 turns checking on. */
void dma_debug_init(void);
bool dma_debug_enabled(void);
void dma_debug_set(bool on);
unsigned long dma_debug_count(enum dma_debug_error e);

void debug_dma_map_page(struct device *dev, phys_addr_t paddr, size_t size,
			enum dma_data_direction dir, dma_addr_t addr);
void debug_dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir);
void debug_dma_sync(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, bool for_cpu);

/* The debugger's state and its counts (shell `dmadebug`). */
void dma_debug_print(void);

#endif
