/* SPDX-License-Identifier: MIT */
/*
 * memblock: the boot-time physical memory manager, as in Linux.
 *
 * Two sorted lists of ranges: `memory` (what exists and the kernel may use)
 * and `reserved` (what is taken: the kernel image, boot modules, the device
 * tree, firmware tables, early allocations). Until the page allocator runs,
 * memblock_alloc() carves early memory (the struct page array itself) out of
 * memory minus reserved. mm_init() then hands every free range to the buddy
 * allocator and memblock retires.
 */
#ifndef PAGODA_MEMBLOCK_H
#define PAGODA_MEMBLOCK_H

#include <pagoda/types.h>

#define MEMBLOCK_MAX_REGIONS 128

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
};

struct memblock_type {
	const char *name;
	unsigned long cnt;
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
};

struct memblock {
	struct memblock_type memory;
	struct memblock_type reserved;
	bool overflow; /* a list was full: reported, ranges dropped */
};

extern struct memblock memblock;

void memblock_reset(struct memblock *mb);
int memblock_add(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
/* Release a reservation (or a part of one). */
int memblock_phys_free(phys_addr_t base, phys_addr_t size);
bool memblock_is_reserved(phys_addr_t addr);
bool memblock_is_memory(phys_addr_t addr);

/*
 * Find and reserve size bytes aligned to align inside [start, end), from the
 * top down (low memory is precious: the DMA zone, the SMP trampoline).
 * Returns the physical address, or 0 when nothing fits.
 */
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);
/* The same anywhere in the direct map, zeroed, by virtual address. */
void *memblock_alloc(phys_addr_t size, phys_addr_t align);
/* The same, not zeroed: for the struct page array, whose every entry is
 * written by its initialisation (zeroing 192 MiB at 16 GiB cost as much). */
void *memblock_alloc_raw(phys_addr_t size, phys_addr_t align);

/* Call fn on each free range (memory minus reserved), ascending. */
void memblock_for_each_free(void (*fn)(phys_addr_t start, phys_addr_t end,
				       void *arg), void *arg);
phys_addr_t memblock_phys_mem_size(void);
phys_addr_t memblock_reserved_size(void);
phys_addr_t memblock_start_of_DRAM(void);
phys_addr_t memblock_end_of_DRAM(void);
void memblock_dump(void);

#endif
