// SPDX-License-Identifier: MIT
/*
 * Restricted DMA pools on the running kernel: a device given a region
 * bounces every mapping through it and nowhere else, runs out cleanly
 * (no transient pool, no growth: memory outside the region is what it
 * must not see), shares the region with a second device naming it, and
 * leaves the default pools untouched. Bad regions and bad
 * swiotlb.restricted= values are refused with a reason.
 */
#include <pagoda/dma-mapping.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>

#define REGION_ORDER 8		/* 1 MiB: 512 slots */
#define NMAP ((PAGE_SIZE << REGION_ORDER) / 4096)

static void test_restricted_pool_is_the_only_memory(struct ktest *t)
{
	static dma_addr_t dmas[NMAP];
	static u8 *bufs[NMAP];
	struct device dev, dev2;
	struct io_tlb_mem *mem;
	struct page *region;
	unsigned long def_used = swiotlb_initialized ? io_tlb_default_mem.total_used : 0;
	unsigned long def_transient = swiotlb_initialized ? io_tlb_default_mem.transient_total : 0;
	phys_addr_t base;
	u64 size = PAGE_SIZE << REGION_ORDER;
	unsigned int i, j, bad = 0, outside = 0;
	dma_addr_t extra;

	region = alloc_pages(GFP_KERNEL | __GFP_DMA32, REGION_ORDER);
	KASSERT_TRUE(t, region != NULL);
	base = page_to_phys(region);
	device_initialize(&dev, "rmem-test");
	KASSERT_EQ(t, dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64)), 0);
	KASSERT_EQ(t, rmem_swiotlb_device_init(&dev, base, size), 0);
	mem = dev.dma_io_tlb_mem;
	KASSERT_TRUE(t, mem != NULL && mem != &io_tlb_default_mem);
	KEXPECT_TRUE(t, mem->restricted);
	KEXPECT_TRUE(t, is_swiotlb_force_bounce(&dev));
	KEXPECT_FALSE(t, mem->can_grow);
	KEXPECT_EQ(t, mem->nslabs, size >> IO_TLB_SHIFT);

	/* A second device naming the same region shares its io_tlb_mem. */
	device_initialize(&dev2, "rmem-test2");
	KEXPECT_EQ(t, rmem_swiotlb_device_init(&dev2, base, size), 0);
	KEXPECT_TRUE(t, dev2.dma_io_tlb_mem == mem);

	ktest_expect_reports(t, true); /* the full pool and the bad regions are reported */
	for (i = 0; i < NMAP; i++) {
		bufs[i] = kmalloc(4096, GFP_KERNEL);
		KASSERT_TRUE(t, bufs[i] != NULL);
		memset(bufs[i], (u8)i, 4096);
		dmas[i] = dma_map_single(&dev, bufs[i], 4096, DMA_BIDIRECTIONAL);
		KASSERT_EQ(t, dma_mapping_error(&dev, dmas[i]), 0);
		outside += dma_to_phys(&dev, dmas[i]) < base ||
			   dma_to_phys(&dev, dmas[i]) + 4096 > base + size;
	}
	KEXPECT_EQ(t, outside, 0);
	/* Full: the next mapping fails cleanly, from either device. */
	extra = dma_map_single(&dev2, bufs[0], 64, DMA_TO_DEVICE);
	KEXPECT_EQ(t, dma_mapping_error(&dev2, extra), -ENOMEM);
	KEXPECT_EQ(t, mem->transient_total, 0);
	KEXPECT_EQ(t, mem->pools_grown, 0);
	KEXPECT_EQ(t, mem->map_failed, 1);
	/* The device writes its answer into the region; it arrives home. */
	for (i = 0; i < NMAP; i++)
		memset(__va(dma_to_phys(&dev, dmas[i])), (u8)~i, 4096);
	for (i = 0; i < NMAP; i++) {
		dma_unmap_single(&dev, dmas[i], 4096, DMA_BIDIRECTIONAL);
		for (j = 0; j < 4096; j++)
			bad += bufs[i][j] != (u8)~i;
		kfree(bufs[i]);
	}
	KEXPECT_EQ(t, bad, 0);
	KEXPECT_EQ(t, mem->total_used, 0);
	KEXPECT_EQ(t, mem->used_hiwater, NMAP * 2);
	if (swiotlb_initialized) {
		KEXPECT_EQ(t, io_tlb_default_mem.total_used, def_used);
		KEXPECT_EQ(t, io_tlb_default_mem.transient_total, def_transient);
	}

	/* Overlapping another region, misaligned, or too small: refused. */
	KEXPECT_EQ(t, rmem_swiotlb_device_init(&dev2, base + size / 2, size), -EBUSY);
	KEXPECT_EQ(t, rmem_swiotlb_device_init(&dev2, base + 64, size / 2), -EINVAL);
	KEXPECT_EQ(t, rmem_swiotlb_device_init(&dev2, base, 64 * 1024), -EINVAL);
	KEXPECT_TRUE(t, dev2.dma_io_tlb_mem == mem); /* nothing changed */

	rmem_swiotlb_device_release(&dev2);
	KEXPECT_TRUE(t, dev2.dma_io_tlb_mem != mem);
	rmem_swiotlb_device_release(&dev);
	KEXPECT_TRUE(t, dev.dma_io_tlb_mem == (swiotlb_initialized ? &io_tlb_default_mem : NULL));
	__free_pages(region, REGION_ORDER);
}

static void test_restricted_cmdline_refuses_bad_values(struct ktest *t)
{
	static const char *const bad[] = {
		"1M", "@0000:00:04.0", "1M@", "3M@0000:00:04.0", "8M@virtio0",
		"64K@virtio0", "1M@a,1M@b,1M@c,1M@d,1M@e", "x@virtio0",
	};
	struct kernel_param *p = param_find("swiotlb.restricted");
	unsigned int i;

	KASSERT_TRUE(t, p != NULL);
	ktest_expect_reports(t, true);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KEXPECT_NE(t, param_set(p, bad[i]), 0);
}

static struct ktest_case swiotlb_restricted_cases[] = {
	KTEST_CASE(test_restricted_pool_is_the_only_memory),
	KTEST_CASE(test_restricted_cmdline_refuses_bad_values),
	{}
};
KTEST_SUITE(swiotlb_restricted, swiotlb_restricted_cases);
