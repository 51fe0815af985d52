// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the SWIOTLB slot allocator (dma/swiotlb.c): the input is a
 * program of maps (size, min_align_mask, alloc_align_mask, CPU), unmaps,
 * grow-worker runs and shrink passes against a small growing pool with a
 * memory budget. After
 * every step each pool's free counts must match its used slots, the slots
 * in use must add up, and every mapping must hold its buffer's bytes.
 * `make fuzz-swiotlb` runs it FUZZ_SECONDS.
 */
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>

#include "fuzz.h"
#include "../../dma/swiotlb_test_ops.h"

#define SRC_SIZE (512 << 10)
#define NLIVE 32

static u8 src[SRC_SIZE];
static unsigned long check_pool(struct io_tlb_pool *pool)
{
	unsigned long i, run = 0, used = 0;

	for (i = pool->nslabs; i-- > 0;) {
		if ((i + 1) % IO_TLB_SEGSIZE == 0)
			run = 0;
		if (pool->slots[i].orig_addr != INVALID_PHYS_ADDR) {
			run = 0;
			used++;
		} else {
			run++;
		}
		if (pool->slots[i].list != run)
			abort();
	}
	if (used != swiotlb_pool_used(pool))
		abort();
	return used;
}

static void check_all(struct io_tlb_mem *mem)
{
	struct io_tlb_pool *pool;
	unsigned long used = 0;

	list_for_each_entry(pool, &mem->pools, node)
		used += check_pool(pool);
	list_for_each_entry(pool, &mem->transient, node)
		used += check_pool(pool);
	if (used != mem->total_used)
		abort();
}

struct live {
	phys_addr_t tlb;
	size_t size;
	size_t off;
	unsigned int min_mask;
};

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const unsigned int min_masks[] = { 0, 0x3f, 0x7ff, 0xfff };
	static const unsigned int align_masks[] = { 0, 0x7ff, 0xfff, 0x3fff };
	struct live live[NLIVE] = {};
	struct io_tlb_mem mem;
	struct io_tlb_pool *pool;
	struct device dev = { .name = "fuzz", .dma_mask = ~0ULL };
	size_t pos = 0;
	int i;

	for (i = 0; i < SRC_SIZE; i++)
		src[i] = (u8)(i ^ (i >> 8));
	tlb_state.budget = 2 << 20;
	tlb_state.grow_requests = 0;
	swiotlb_mem_init(&mem, &swiotlb_test_ops, 2 * IO_TLB_SEGSIZE, 2, true);
	pool = swiotlb_alloc_pool(&mem, 2 * IO_TLB_SEGSIZE, 2, ~0ULL, true);
	if (!pool)
		abort();
	swiotlb_add_pool(&mem, pool);
	/* An empty pool has room for one byte: a map that fails here is an
	 * allocator that never finds anything (the lab's stub), not a full pool. */
	live[0] = (struct live){ swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)src,
							1, 1, 0, DMA_TO_DEVICE), 1, 0, 0 };
	if (live[0].tlb == INVALID_PHYS_ADDR)
		abort();
	while (pos + 4 <= size) {
		u8 op = data[pos], a = data[pos + 1];
		u16 v = data[pos + 2] | data[pos + 3] << 8;
		struct live *l = &live[a % NLIVE];

		pos += 4;
		tlb_state.cpu = op >> 4;
		if ((op & 3) == 3 && (v & 1)) {
			swiotlb_shrink(&mem);
		} else if ((op & 3) == 3) {
			if (tlb_state.grow_requests) {
				tlb_state.grow_requests = 0;
				swiotlb_dyn_alloc(&mem);
			}
		} else if (l->size) {
			u8 *orig = src + l->off;

			memset((void *)(uintptr_t)l->tlb, 0x5a, l->size);
			swiotlb_tbl_unmap_single(&dev, &mem, l->tlb, l->size, DMA_FROM_DEVICE);
			for (size_t k = 0; k < l->size; k++) {
				if (orig[k] != 0x5a)
					abort();
				orig[k] = (u8)((l->off + k) ^ ((l->off + k) >> 8));
			}
			l->size = 0;
		} else {
			size_t max, len, off;
			phys_addr_t tlb;
			unsigned int align = align_masks[(op >> 2) & 3];

			dev.dma_min_align_mask = min_masks[a >> 6];
			max = swiotlb_max_mapping_size(&dev);
			len = 1 + ((size_t)v * 8) % max;
			off = ((size_t)v * 131 + a) % (SRC_SIZE - len);
			tlb = swiotlb_tbl_map_single(&dev, &mem, (phys_addr_t)(uintptr_t)(src + off),
						     len, len, align, DMA_TO_DEVICE);
			if (tlb != INVALID_PHYS_ADDR) {
				if ((tlb & dev.dma_min_align_mask) !=
				    ((uintptr_t)(src + off) & dev.dma_min_align_mask))
					abort();
				if (memcmp((void *)(uintptr_t)tlb, src + off, len))
					abort();
				*l = (struct live){ tlb, len, off, dev.dma_min_align_mask };
			}
		}
		check_all(&mem);
	}
	for (i = 0; i < NLIVE; i++)
		if (live[i].size)
			swiotlb_tbl_unmap_single(&dev, &mem, live[i].tlb, live[i].size,
						 DMA_TO_DEVICE);
	check_all(&mem);
	if (mem.total_used || mem.transient_live)
		abort();
	swiotlb_mem_destroy(&mem);
	if (tlb_state.budget != 2 << 20)
		abort();
	return 0;
}
