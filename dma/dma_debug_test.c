// SPDX-License-Identifier: MIT
/*
 * The DMA API debugger, turned on for the duration: each mistake it knows
 * is made once, on purpose, with a fake coherent device that reaches all
 * memory (so the calls themselves stay harmless), and its count must move
 * by exactly one; correct use must move none.
 */
#include <pagoda/dma-debug.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/slab.h>
#include <pagoda/swiotlb.h>

static unsigned long counts[DMA_DEBUG_NR_ERRORS];

static void snapshot(void)
{
	for (unsigned int i = 0; i < DMA_DEBUG_NR_ERRORS; i++)
		counts[i] = dma_debug_count(i);
}

/* Only error e moved, by one (or nothing moved, for e = NR_ERRORS). */
static bool only(enum dma_debug_error e)
{
	for (unsigned int i = 0; i < DMA_DEBUG_NR_ERRORS; i++)
		if (dma_debug_count(i) - counts[i] != (i == e ? 1u : 0u))
			return false;
	return true;
}

static void test_each_mistake_is_counted(struct ktest *t)
{
	struct device dev;
	bool was = dma_debug_enabled();
	struct page *page = alloc_page(GFP_KERNEL);
	u8 *buf = kmalloc(512, GFP_KERNEL);
	dma_addr_t a;

	KASSERT_TRUE(t, page && buf);
	device_initialize(&dev, "dma-debug-test");
	dev.dma_mask = dev.coherent_dma_mask = ~0ULL;
	dev.dma_coherent = true;
	if (is_swiotlb_force_bounce(&dev)) {
		/* The stray unmaps below would release real bounce slots. */
		ktest_skip(t, "swiotlb=force: every mapping bounces, a wrong unmap is not harmless");
		__free_page(page);
		kfree(buf);
		return;
	}
	dma_debug_set(true);

	snapshot();	/* correct use: nothing */
	a = dma_map_single(&dev, buf, 512, DMA_TO_DEVICE);
	dma_sync_single_for_device(&dev, a, 512, DMA_TO_DEVICE);
	dma_unmap_single(&dev, a, 512, DMA_TO_DEVICE);
	KEXPECT_TRUE(t, only(DMA_DEBUG_NR_ERRORS));
	/* From here each mistake is reported on purpose: marked "# expected:". */
	ktest_expect_reports(t, true);

	snapshot();
	dma_unmap_single(&dev, a, 512, DMA_TO_DEVICE);
	KEXPECT_TRUE(t, only(DMA_DEBUG_DOUBLE_UNMAP));

	snapshot();
	dma_unmap_single(&dev, a + 4096 * 7, 64, DMA_TO_DEVICE);
	KEXPECT_TRUE(t, only(DMA_DEBUG_UNMAP_UNKNOWN));

	snapshot();
	a = dma_map_single(&dev, buf, 512, DMA_FROM_DEVICE);
	dma_unmap_single(&dev, a, 256, DMA_FROM_DEVICE);
	KEXPECT_TRUE(t, only(DMA_DEBUG_WRONG_SIZE));

	snapshot();
	a = dma_map_single(&dev, buf, 512, DMA_FROM_DEVICE);
	dma_unmap_single(&dev, a, 512, DMA_TO_DEVICE);
	KEXPECT_TRUE(t, only(DMA_DEBUG_WRONG_DIR));

	snapshot();
	a = dma_map_single(&dev, buf, 512, DMA_TO_DEVICE);
	dma_sync_single_for_cpu(&dev, a, 512, DMA_FROM_DEVICE);
	KEXPECT_TRUE(t, only(DMA_DEBUG_SYNC_DIR));
	dma_unmap_single(&dev, a, 512, DMA_TO_DEVICE);

	snapshot();
	dma_sync_single_for_cpu(&dev, a, 512, DMA_TO_DEVICE);
	KEXPECT_TRUE(t, only(DMA_DEBUG_SYNC_UNKNOWN));

	snapshot();	/* a page freed while its mapping lives */
	a = dma_map_page(&dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL);
	__free_page(page);
	KEXPECT_TRUE(t, only(DMA_DEBUG_FREED_MAPPED));
	dma_unmap_page(&dev, a, PAGE_SIZE, DMA_BIDIRECTIONAL);

	dma_debug_set(was);
	kfree(buf);
}

static struct ktest_case dma_debug_cases[] = {
	KTEST_CASE(test_each_mistake_is_counted),
	{}
};
KTEST_SUITE_FULL(dma_debug, .cases = dma_debug_cases, .kernel_only = true);
