// SPDX-License-Identifier: MIT
/*
 * SWIOTLB behind the DMA API on the running kernel (boot with
 * `swiotlb=force swiotlb=512`: a 1 MiB pool, every mapping bounced). Holds
 * more mappings than the boot pool has slots, so transient pools appear
 * and the worker grows the pool; plays the device by writing the slots,
 * and checks every byte arrives home and nothing is left mapped.
 */
#include <pagoda/dma-mapping.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>

#define NBUF 320
#define BUFSZ 4096

static void test_force_bounce_grows(struct ktest *t)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	static u8 *bufs[NBUF];
	static dma_addr_t dmas[NBUF];
	unsigned long nslabs0, grown0, used0, freed0;
	struct device dev;
	int i, j, bad = 0;

	device_initialize(&dev, "swiotlb-dma");
	if (!is_swiotlb_force_bounce(&dev)) {
		ktest_skip(t, "boot with swiotlb=force");
		return;
	}
	KASSERT_EQ(t, dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64)), 0);
	nslabs0 = mem->nslabs;
	grown0 = mem->pools_grown;
	freed0 = mem->pools_freed;
	used0 = mem->total_used;
	/* 320 x 4 KiB = 640 slots: more than a 512-slot boot pool. */
	for (i = 0; i < NBUF; i++) {
		bufs[i] = kmalloc(BUFSZ, GFP_KERNEL);
		KASSERT_TRUE(t, bufs[i] != NULL);
		memset(bufs[i], i, BUFSZ);
		dmas[i] = dma_map_single(&dev, bufs[i], BUFSZ, DMA_BIDIRECTIONAL);
		KASSERT_EQ(t, dma_mapping_error(&dev, dmas[i]), 0);
		KEXPECT_TRUE(t, is_swiotlb_buffer(&dev, dma_to_phys(&dev, dmas[i])));
	}
	/* The "device" read what the CPU wrote, then writes its answer. */
	for (i = 0; i < NBUF; i++) {
		u8 *slot = __va(dma_to_phys(&dev, dmas[i]));

		for (j = 0; j < BUFSZ; j++)
			bad += slot[j] != (u8)i;
		memset(slot, (u8)~i, BUFSZ);
	}
	KEXPECT_EQ(t, bad, 0);
	for (i = 0; i < NBUF; i++) {
		dma_unmap_single(&dev, dmas[i], BUFSZ, DMA_BIDIRECTIONAL);
		for (j = 0; j < BUFSZ; j++)
			bad += bufs[i][j] != (u8)~i;
		kfree(bufs[i]);
	}
	KEXPECT_EQ(t, bad, 0);
	swiotlb_flush_grow();
	KEXPECT_EQ(t, mem->total_used, used0);
	KEXPECT_EQ(t, mem->transient_live, 0);
	/* (The pool's size now depends on whether the shrink worker has passed.) */
	if (nslabs0 < NBUF * (BUFSZ / IO_TLB_SIZE))
		KEXPECT_GT(t, mem->pools_grown, grown0);
	/*
	 * Idle at two passes in a row, the grown pools go (here or in the
	 * shrink worker, whichever passes first); the boot pool stays.
	 */
	swiotlb_shrink(mem);
	KEXPECT_EQ(t, swiotlb_shrink(mem), 0);
	if (mem->pools_grown > grown0)
		KEXPECT_GT(t, mem->pools_freed, freed0);
	KEXPECT_EQ(t, mem->total_used, used0);
	ktest_log(t, "pool %lu KiB, grew %lu pools, gave back %lu, %lu transient pools so far, high-water %lu slots",
		  (nslabs0 << IO_TLB_SHIFT) >> 10, mem->pools_grown - grown0,
		  mem->pools_freed - freed0, mem->transient_total, mem->used_hiwater);
}

static struct ktest_case swiotlb_dma_cases[] = {
	KTEST_CASE(test_force_bounce_grows),
	{}
};
KTEST_SUITE(swiotlb_dma, swiotlb_dma_cases);
