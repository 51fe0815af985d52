// SPDX-License-Identifier: MIT
/*
 * From the boot memory map to a running page allocator (node 0):
 *
 *   1. memblock learns the usable RAM from boot_info and reserves what is
 *      taken: physical page 0, the kernel image, boot modules, the DTB;
 *   2. the struct page array for the whole span is carved out of memblock;
 *   3. zones are laid over the span (DMA below the platform's DMA limit,
 *      DMA32 below 4 GiB, Normal above) and every frame starts reserved;
 *      only the struct pages of the first page_alloc.deferred_init bytes
 *      are written now, the rest by a kernel thread once the shell is up
 *      (deferred struct page init, mm_init.c), unless mem= or a policy
 *      that needs the whole node says otherwise;
 *   4. each free memblock range goes to the buddy allocator in physical
 *      order, except memory beyond mem=, which stays offline until the
 *      shell's `memory online` adds it (the seed's hot-add path);
 *   5. the placement policy arranges the free lists (mm/policy.h: the
 *      shuffle shuffles them, page_alloc.policy= chooses).
 * After this memblock is retired and page tables come from the buddy.
 */
#include <pagoda/boot_info.h>
#include <pagoda/init.h>
#include <pagoda/memblock.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "internal.h"
#include "policy.h"

static struct pglist_data contig_page_data;
static bool buddy_ready;

static u64 mem_limit;
PARAM_SIZE("mem", mem_limit, 0, ~0ULL,
	   "use only this much RAM at boot; `memory online` adds the rest later");
static u64 deferred_init_bytes = 8 * SZ_1M;
PARAM_SIZE("page_alloc.deferred_init", deferred_init_bytes, 0, ~0ULL,
	   "write struct pages for this much memory at boot, the rest in a kernel thread "
	   "after the shell is up (0: all at boot)");

#define MAX_OFFLINE 32
static struct { unsigned long start, end; } offline[MAX_OFFLINE];
static int nr_offline;
static phys_addr_t online_limit = ~0ULL; /* physical cut-off from mem= */

static void memblock_from_boot_info(void)
{
	for (u32 i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *r = &boot_info.mem[i];
		phys_addr_t s = ALIGN_UP(r->base, PAGE_SIZE);
		phys_addr_t e = ALIGN_DOWN(r->base + r->size, PAGE_SIZE);

		if (r->type == BOOT_MEM_USABLE && e > s)
			memblock_add(s, e - s);
	}
	/* RAM a device tree reserves lies inside the usable regions above. */
	for (u32 i = 0; i < boot_info.nr_mem; i++)
		if (boot_info.mem[i].type == BOOT_MEM_FW_RESERVED)
			memblock_reserve(boot_info.mem[i].base, boot_info.mem[i].size);
	/* Page 0 is never handed out, so a physical address of 0 means "none". */
	memblock_reserve(0, PAGE_SIZE);
	memblock_reserve(boot_info.kernel_start,
			 boot_info.kernel_end - boot_info.kernel_start);
	for (u32 i = 0; i < boot_info.nr_modules; i++)
		memblock_reserve(boot_info.modules[i].base, boot_info.modules[i].size);
	if (boot_info.dtb) {
		/* totalsize, big-endian, at offset 4 of the header */
		const u8 *h = __va(boot_info.dtb);
		u32 size = (u32)h[4] << 24 | (u32)h[5] << 16 | (u32)h[6] << 8 | h[7];

		memblock_reserve(boot_info.dtb, MIN(size, (u32)SZ_2M));
	}
	if (memblock.overflow)
		pr_warn("mm: the memory map had more ranges than memblock keeps; some RAM is unused\n");
}

/* mem=: the address below which usable RAM adds up to the limit. */
static void apply_mem_limit(void)
{
	u64 left = mem_limit;

	if (!mem_limit)
		return;
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		if (r->size >= left) {
			online_limit = r->base + left;
			return;
		}
		left -= r->size;
	}
}

static void free_range(phys_addr_t start, phys_addr_t end, void *arg)
{
	struct pglist_data *pgdat = arg;
	unsigned long s = PFN_UP(start), e = PFN_DOWN(end);
	unsigned long cut = PFN_DOWN(online_limit);

	if (s >= e)
		return;
	if (s < cut)
		free_range_core(pgdat, s, MIN(e, cut));
	if (e > cut) {
		unsigned long os = MAX(s, cut);

		for (unsigned long pfn = os; pfn < e; pfn++)
			pfn_to_page(pfn)->flags |= PG_offline;
		if (nr_offline < MAX_OFFLINE)
			offline[nr_offline++].start = os, offline[nr_offline - 1].end = e;
		else
			pr_warn("mm: too many offline ranges; %#lx-%#lx lost\n", os, e);
	}
}

/* Node 0's policy state is carved from memblock: attach runs before the
 * buddy lists exist, and boot memory is never given back. */
static void *boot_state_alloc(size_t size)
{
	return memblock_alloc(size, PAGE_SIZE);
}

void mm_init(void)
{
	struct pglist_data *pgdat = &contig_page_data;
	unsigned long start_pfn, end_pfn, zone_end[MAX_NR_ZONES], defer_from = ~0UL;
	const struct page_alloc_policy *policy;
	struct policy_stats st;
	struct policy_args args;
	const char *why;
	struct page *mem_map;
	struct zone *z;
	bool shuffle;

	memblock_from_boot_info();
	apply_mem_limit();
	start_pfn = ALIGN_DOWN(PFN_DOWN(memblock_start_of_DRAM()), MAX_ORDER_NR_PAGES);
	end_pfn = PFN_DOWN(MIN(memblock_end_of_DRAM(), arch_direct_map_end()));
	if (end_pfn <= start_pfn)
		panic("mm: no usable memory in the boot memory map");
	/* not zeroed: every struct page is written whole when initialised */
	mem_map = memblock_alloc_raw((end_pfn - start_pfn) * sizeof(struct page), PAGE_SIZE);
	if (!mem_map)
		panic("mm: no room for %lu struct pages", end_pfn - start_pfn);

	zone_end[ZONE_DMA] = PFN_DOWN(boot_info.zone_dma_limit);
	zone_end[ZONE_DMA32] = PFN_DOWN(4 * SZ_1G);
	zone_end[ZONE_NORMAL] = end_pfn;
	policy = page_alloc_policy_default(&why);
	/* Offline ranges are marked in their struct pages, and a whole-node
	 * policy (the shuffle) arranges all of memory at once: both need
	 * every struct page now. */
	if (deferred_init_bytes && !mem_limit && policy_allows_deferred_init(policy))
		defer_from = start_pfn + PFN_UP(deferred_init_bytes);
	pgdat_init(pgdat, 0, "memory", start_pfn, end_pfn - start_pfn, mem_map,
		   zone_end, false, defer_from);
	pgdat->state_alloc = boot_state_alloc;
	policy_boot_args(0, &args);
	if (policy_attach(pgdat, policy, &args))
		pr_warn("mm: policy %s could not start (cache %llu MiB); in order instead\n",
			policy->name, (unsigned long long)(args.cache_bytes >> 20));
	shuffle = pgdat->policy->shuffles;

	memblock_for_each_free(free_range, pgdat);
	buddy_ready = true;
	setup_watermarks(pgdat);
	fail_page_alloc_init();

	for_each_zone_in_node(z, pgdat)
		policy_populated(z);
	policy_stats(pgdat, &st);
	pr_info("mm: shuffle %s%s; policy %s\n", why,
		shuffle ? "" : "; free lists in address order", pgdat->policy->name);
	/*
	 * The policy's own clock (the populated hook times itself), the figure
	 * `pagealloc` and `bench pagealloc` show too. Timing the loop from
	 * here would also count the line above going out on the serial port.
	 */
	if (shuffle)
		pr_info("mm: shuffled %lu blocks of order %u in %llu us\n",
			st.moved, st.order, (unsigned long long)(st.ns / 1000));
	pr_info("mm: %lu MiB managed, %lu MiB reserved, %lu MiB offline; struct page array %lu KiB\n",
		totalram_pages() >> (20 - PAGE_SHIFT),
		(unsigned long)(memblock_reserved_size() >> 20),
		mm_offline_pages() >> (20 - PAGE_SHIFT),
		(unsigned long)((end_pfn - start_pfn) * sizeof(struct page) >> 10));
	if (pgdat->deferred_pending)
		pr_info("mm: struct pages of %lu MiB written after boot (page_alloc.deferred_init)\n",
			pgdat->deferred_pages >> (20 - PAGE_SHIFT));
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &pgdat->node_zones[z];

		if (zone->spanned_pages)
			pr_info("mm:   %-6s pfn 0x%07lx-0x%07lx %6lu MiB managed\n", zone->name,
				zone->zone_start_pfn, zone_end_pfn(zone),
				zone->managed_pages >> (20 - PAGE_SHIFT));
	}
}

bool mm_buddy_ready(void)
{
	return buddy_ready;
}

static int deferred_init_thread(void *arg)
{
	struct pglist_data *pgdat = arg;

	/* chunk by chunk, so the scheduler can run others in between */
	while (deferred_init_chunk(pgdat))
		;
	return 0;
}

void page_alloc_init_late(void)
{
	struct pglist_data *pgdat = &contig_page_data;

	if (pgdat->deferred_pending && !kthread_run(deferred_init_thread, pgdat, "pgdatinit0")) {
		pr_warn("mm: no thread for deferred struct page init; doing it now\n");
		deferred_init_all(pgdat);
	}
}

void page_alloc_wait_deferred(void)
{
	deferred_init_all(&contig_page_data);
}

unsigned long mm_offline_pages(void)
{
	unsigned long n = 0;

	for (int i = 0; i < nr_offline; i++)
		n += offline[i].end - offline[i].start;
	return n;
}

/*
 * Online up to `pages` offline frames, lowest first, then run the policy's
 * populated hook on each zone that grew (the seed's memory_hotplug.c hook:
 * the shuffle shuffles it). Returns the pages onlined.
 */
unsigned long mm_online_pages(unsigned long pages)
{
	struct pglist_data *pgdat = &contig_page_data;
	bool grew[MAX_NR_ZONES] = { false };
	unsigned long done = 0;

	for (int i = 0; i < nr_offline && done < pages; i++) {
		unsigned long s = offline[i].start;
		unsigned long e = MIN(offline[i].end, s + (pages - done));

		if (s >= e)
			continue;
		for (unsigned long pfn = s; pfn < e; pfn++)
			grew[pfn_to_page(pfn)->zone_idx] = true;
		done += free_range_core(pgdat, s, e);
		offline[i].start = e;
	}
	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (grew[z])
			policy_populated(&pgdat->node_zones[z]);
	setup_watermarks(pgdat);
	return done;
}
