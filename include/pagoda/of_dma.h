/* SPDX-License-Identifier: MIT */
/*
 * What a device tree says about a device's DMA (lib/of_dma.c), after
 * Linux's drivers/of/address.c and of_reserved_mem.c:
 *
 *   of_dma_range_map()         the parent bus's dma-ranges as the windows
 *                              struct device's dma_range_map lists
 *   of_restricted_dma_region() the restricted-dma-pool its memory-region
 *                              names, the only memory it may bounce through
 */
#ifndef PAGODA_OF_DMA_H
#define PAGODA_OF_DMA_H

#include <pagoda/device.h>

/*
 * Fill map[0..max-1] from the dma-ranges of node's parent bus and end it
 * with a zero-sized entry (map has room for max + 1). Returns the number
 * of windows: 0 when the bus has none (or an empty one: bus address is CPU
 * address), -EINVAL for cell counts it cannot read, -E2BIG for more
 * windows than max.
 */
int of_dma_range_map(const void *fdt, int node, struct bus_dma_region *map, int max);

/*
 * The restricted-dma-pool among node's memory-region phandles: 1 with its
 * CPU range in *base and *size, 0 when there is none, or a negative errno
 * with the reason in *why (a region marked no-map or reusable cannot be a
 * bounce pool: the kernel must reach it, and nobody else may use it).
 */
int of_restricted_dma_region(const void *fdt, int node, u64 *base, u64 *size,
			     const char **why);

#endif
