// SPDX-License-Identifier: MIT
/*
 * `bench hibernate`: the first seed's measurement (kernel/power/
 * bitmap_bench.c) over this machine's own memory, node 0's zones, with
 * the bitmaps' pages from the page allocator, as a resume would build
 * them. The host benchmark (make bench-host) runs the same code over
 * simulated memory up to 16 TiB; here the largest size is the guest's.
 */
#include <pagoda/bench.h>
#include <pagoda/gfp.h>
#include <pagoda/memory_bitmap.h>
#include <pagoda/mm.h>
#include <pagoda/mmzone.h>
#include <pagoda/printk.h>

static void *bench_alloc_page(void *ctx)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	return page ? page_address(page) : NULL;
}

static void bench_free_page(void *ctx, void *p)
{
	__free_page(virt_to_page(p));
}

static const struct bm_page_ops bench_ops = { bench_alloc_page, bench_free_page, NULL };

static void bench_hibernate(void)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	struct bm_zone_range z[MAX_NR_ZONES];
	unsigned int nz = 0;
	struct zone *zone;

	/* The node's zones, as long as each starts where the last ended. */
	for_each_zone_in_node(zone, pgdat) {
		if (!zone->spanned_pages)
			continue;
		if (nz && zone->zone_start_pfn != z[nz - 1].end_pfn)
			break;
		z[nz].start_pfn = zone->zone_start_pfn;
		z[nz].end_pfn = zone_end_pfn(zone);
		nz++;
	}
	if (!nz) {
		kprintf("bench hibernate: node 0 has no memory\n");
		return;
	}
	bm_bench_header("this machine's node 0 (the guest's RAM, holes included)");
	if (bm_bench_row(arch_name, z, nz, &bench_ops) < 0)
		kprintf("bench hibernate: not enough memory for four bitmaps of this size\n");
	bm_bench_footer();
}
KBENCH(hibernate, "the memory bitmap's resume work: linked list against radix tree (seed 000)",
       bench_hibernate);
