// SPDX-License-Identifier: MIT
/*
 * The DMA API on the running kernel: bus address translation, refusal of
 * unreachable buffers, coherent allocations within the mask, scatterlists.
 */
#include <pagoda/arch.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/slab.h>
#include <pagoda/swiotlb.h>
#include <pagoda/vmalloc.h>

/* The Pi 4's emmc2bus: bus 0xc0000000 is physical 0, for 1 GiB. */
static const struct bus_dma_region pi4_emmc2bus[] = {
	{ .cpu_start = 0, .dma_start = 0xc0000000, .size = SZ_1G },
	{}
};

static void test_translation(struct ktest *t)
{
	struct device dev;

	device_initialize(&dev, "dmatest");
	dev.dma_range_map = pi4_emmc2bus;
	KEXPECT_EQ(t, phys_to_dma(&dev, 0x1000), 0xc0001000);
	KEXPECT_EQ(t, dma_to_phys(&dev, 0xc0001000), 0x1000);
	KEXPECT_EQ(t, phys_to_dma(&dev, SZ_1G - 1), 0xffffffffULL);
	/* Outside the window the bus decodes: no bus address at all. */
	KEXPECT_EQ(t, phys_to_dma(&dev, SZ_1G), DMA_MAPPING_ERROR);
	KEXPECT_TRUE(t, dma_capable(&dev, 0xc0000000, 0x1000));
	KEXPECT_FALSE(t, dma_capable(&dev, 0xfffff000, 0x2000));
	dev.dma_range_map = NULL;
	KEXPECT_EQ(t, phys_to_dma(&dev, 0x12345000), 0x12345000);
}

static void test_map_single_roundtrip(struct ktest *t)
{
	struct device dev;
	u8 *buf = kmalloc(512, GFP_KERNEL);
	dma_addr_t dma;

	KASSERT_TRUE(t, buf != NULL);
	device_initialize(&dev, "dmatest");
	KASSERT_EQ(t, dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64)), 0);
	dma = dma_map_single(&dev, buf, 512, DMA_TO_DEVICE);
	KEXPECT_EQ(t, dma_mapping_error(&dev, dma), 0);
	/* Direct, unless swiotlb=force bounces everything. */
	if (!is_swiotlb_force_bounce(&dev))
		KEXPECT_EQ(t, dma, __pa(buf));
	dma_unmap_single(&dev, dma, 512, DMA_TO_DEVICE);
	/* A bad direction is an error, not a guess (and says so). */
	ktest_expect_reports(t, true);
	KEXPECT_NE(t, dma_mapping_error(&dev, dma_map_single(&dev, buf, 512, DMA_NONE)), 0);
	ktest_expect_reports(t, false);
	kfree(buf);
}

/*
 * Beyond the mask: bounced into a slot the device reaches when SWIOTLB is
 * up and has one low enough, refused (and counted) otherwise; never a
 * bus address the device would truncate.
 */
static void expect_bounced_or_refused(struct ktest *t, struct device *dev, struct page *page)
{
	unsigned long before = dma_direct_refused;
	dma_addr_t dma = dma_map_page(dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE);

	if (dma_mapping_error(dev, dma)) {
		KEXPECT_EQ(t, dma_direct_refused, before + 1);
		return;
	}
	KEXPECT_TRUE(t, is_swiotlb_buffer(dev, dma_to_phys(dev, dma)));
	KEXPECT_TRUE(t, dma_capable(dev, dma, PAGE_SIZE));
	dma_unmap_page(dev, dma, PAGE_SIZE, DMA_FROM_DEVICE);
}

static void test_unreachable_is_refused(struct ktest *t)
{
	struct device dev;
	struct page *page = alloc_page(GFP_KERNEL);
	dma_addr_t dma;

	KASSERT_TRUE(t, page != NULL);
	device_initialize(&dev, "dmatest");
	ktest_expect_reports(t, true);	/* each refusal is logged */
	/* A mask that ends just below the page. */
	KASSERT_TRUE(t, page_to_phys(page) >= PAGE_SIZE);
	dev.dma_mask = page_to_phys(page) - 1;
	expect_bounced_or_refused(t, &dev, page);
	/* The same page straddling the mask's end by one byte. */
	dev.dma_mask = page_to_phys(page) + PAGE_SIZE - 2;
	expect_bounced_or_refused(t, &dev, page);
	/* Exactly reachable: direct (under swiotlb=force, see expect_...). */
	dev.dma_mask = page_to_phys(page) + PAGE_SIZE - 1;
	if (is_swiotlb_force_bounce(&dev)) {
		expect_bounced_or_refused(t, &dev, page);
	} else {
		dma = dma_map_page(&dev, page, 0, PAGE_SIZE, DMA_FROM_DEVICE);
		KEXPECT_EQ(t, dma_mapping_error(&dev, dma), 0);
		KEXPECT_EQ(t, dma, page_to_phys(page));
		dma_unmap_page(&dev, dma, PAGE_SIZE, DMA_FROM_DEVICE);
	}
	__free_page(page);
	KEXPECT_EQ(t, dma_set_mask(&dev, 0xffff), -EIO);
}

static void test_vmalloc_refused(struct ktest *t)
{
	struct device dev;
	void *v = vmalloc(PAGE_SIZE);

	KASSERT_TRUE(t, v != NULL);
	device_initialize(&dev, "dmatest");
	ktest_expect_reports(t, true);	/* the refusal is logged */
	KEXPECT_NE(t, dma_mapping_error(&dev, dma_map_single(&dev, v, 64, DMA_TO_DEVICE)), 0);
	vfree(v);
}

static void check_coherent(struct ktest *t, bool coherent)
{
	struct device dev;
	dma_addr_t dma;
	u8 *cpu;
	bool zero = true;

	device_initialize(&dev, "dmatest");
	dev.dma_coherent = coherent;
	cpu = dma_alloc_coherent(&dev, 3 * PAGE_SIZE, &dma, GFP_KERNEL);
	KASSERT_TRUE(t, cpu != NULL);
	KEXPECT_LE(t, dma + 3 * PAGE_SIZE - 1, DMA_BIT_MASK(32));
	KEXPECT_TRUE(t, IS_ALIGNED(dma, PAGE_SIZE));
	for (size_t i = 0; i < 3 * PAGE_SIZE; i++)
		zero &= cpu[i] == 0;
	KEXPECT_TRUE(t, zero);
	/* What the CPU writes through its mapping is in memory at dma. */
	cpu[5] = 0xa5;
	cpu[3 * PAGE_SIZE - 1] = 0x5a;
	arch_sync_dma_for_cpu(dma_to_phys(&dev, dma), 3 * PAGE_SIZE, DMA_FROM_DEVICE);
	KEXPECT_EQ(t, ((u8 *)__va(dma_to_phys(&dev, dma)))[5], 0xa5);
	KEXPECT_EQ(t, ((u8 *)__va(dma_to_phys(&dev, dma)))[3 * PAGE_SIZE - 1], 0x5a);
	if (!coherent)
		KEXPECT_TRUE(t, arch_page_prot(&init_mm, (u64)cpu) & PROT_NOCACHE);
	dma_free_coherent(&dev, 3 * PAGE_SIZE, cpu, dma);
}

static void test_alloc_coherent(struct ktest *t)
{
	check_coherent(t, true);
}

static void test_alloc_noncoherent_device(struct ktest *t)
{
	if (arch_dma_default_coherent()) {
		ktest_skip(t, "every device snoops on this architecture");
		return;
	}
	check_coherent(t, false);
}

static void test_map_sg(struct ktest *t)
{
	struct scatterlist sg[3];
	struct device dev;
	struct page *p[3];
	struct bus_dma_region windows[3];
	struct scatterlist *s;
	int i;

	for (i = 0; i < 3; i++)
		p[i] = alloc_page(GFP_KERNEL);
	KASSERT_TRUE(t, p[0] && p[1] && p[2]);
	device_initialize(&dev, "dmatest");
	dev.dma_mask = DMA_BIT_MASK(64);
	sg_init_table(sg, 3);
	for (i = 0; i < 3; i++)
		sg_set_page(&sg[i], p[i], 512 * (i + 1), 8 * i);
	KEXPECT_EQ(t, dma_map_sg(&dev, sg, 3, DMA_BIDIRECTIONAL), 3);
	for_each_sg(sg, s, 3, i) {
		if (!is_swiotlb_force_bounce(&dev))
			KEXPECT_EQ(t, sg_dma_address(s), page_to_phys(p[i]) + 8 * i);
		KEXPECT_EQ(t, sg_dma_len(s), 512 * (i + 1));
	}
	KEXPECT_TRUE(t, sg_next(&sg[2]) == NULL);
	dma_unmap_sg(&dev, sg, 3, DMA_BIDIRECTIONAL);
	/*
	 * One unreachable entry fails the whole list: a bus that decodes only
	 * the first and last pages.
	 */
	windows[0] = (struct bus_dma_region){ page_to_phys(p[0]), page_to_phys(p[0]), PAGE_SIZE };
	windows[1] = (struct bus_dma_region){ page_to_phys(p[2]), page_to_phys(p[2]), PAGE_SIZE };
	windows[2] = (struct bus_dma_region){ 0 };
	dev.dma_range_map = windows;
	ktest_expect_reports(t, true);	/* the refusal is logged */
	KEXPECT_EQ(t, dma_map_sg(&dev, sg, 3, DMA_BIDIRECTIONAL), 0);
	ktest_expect_reports(t, false);
	for (i = 0; i < 3; i++)
		__free_page(p[i]);
}

static struct ktest_case dma_cases[] = {
	KTEST_CASE(test_translation),
	KTEST_CASE(test_map_single_roundtrip),
	KTEST_CASE(test_unreachable_is_refused),
	KTEST_CASE(test_vmalloc_refused),
	KTEST_CASE(test_alloc_coherent),
	KTEST_CASE(test_alloc_noncoherent_device),
	KTEST_CASE(test_map_sg),
	{}
};
KTEST_SUITE_FULL(dma, .cases = dma_cases, .kernel_only = true);
