// SPDX-License-Identifier: MIT
/*
 * Shell commands over the page allocator:
 *   meminfo              totals and per-zone figures
 *   buddyinfo            free blocks per zone and order (as /proc/buddyinfo)
 *   memory [online SIZE|all]   offline memory held back by mem=, and onlining it
 *   memtest              write and read back every free frame
 *   pagealloc check      verify the free lists' invariants
 */
#include <pagoda/memblock.h>
#include <pagoda/mm.h>
#include <pagoda/mman.h>
#include <pagoda/printk.h>
#include <pagoda/seq_file.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>
#include "../mm/internal.h"
#include "../mm/policy.h"

#define KB(pages) ((unsigned long)((pages) * (PAGE_SIZE / 1024)))

static unsigned long zone_pcp_pages(const struct zone *z)
{
	unsigned long n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += pcp_free_pages(&z->pcp[cpu]);
	return n;
}

static int cmd_meminfo(int argc, char **argv)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	struct zone *z;

	kprintf("MemTotal:     %10lu kB   (managed by the page allocator)\n", KB(totalram_pages()));
	kprintf("MemFree:      %10lu kB\n", KB(nr_free_pages()));
	kprintf("AnonPages:    %10lu kB   (processes' own pages)\n",
		KB(__atomic_load_n(&nr_anon_pages, __ATOMIC_RELAXED)));
	kprintf("Slab:         %10lu kB\n", KB(slab_pages()));
	kprintf("PageTables:   %10lu kB\n",
		KB(__atomic_load_n(&nr_pagetable_pages, __ATOMIC_RELAXED)));
	kprintf("CommitLimit:  %10lu kB   (vm.overcommit_memory=2 keeps Committed_AS below it)\n",
		KB(vm_commit_limit()));
	kprintf("Committed_AS: %10lu kB   (promised to writable private mappings)\n",
		KB(vm_memory_committed()));
	if (READ_ONCE(pgdat->deferred_pending)) {
		/*
		 * Linux finishes deferred struct-page init before init runs; here
		 * the prompt comes first, so say that the rest is on its way.
		 */
		u64 rest = memblock_phys_mem_size() >> PAGE_SHIFT;
		u64 known = totalram_pages() + (memblock_reserved_size() >> PAGE_SHIFT) +
			    mm_offline_pages();
		unsigned long left = rest > known ? (unsigned long)(rest - known) : 0;

		kprintf("Deferred:     %10lu kB   (struct pages still being written after boot: this\n"
			"                           joins MemTotal and MemFree within moments)\n",
			KB(left));
	}
	kprintf("Reserved:     %10lu kB   (image, struct pages, firmware, boot data)\n",
		(unsigned long)(memblock_reserved_size() >> 10));
	kprintf("Offline:      %10lu kB   (mem=; `memory online` adds it)\n",
		KB(mm_offline_pages()));
	kprintf("BadFrees:     %10lu\n", pgdat->bad_pages);
	kprintf("Policy:       %s (page_alloc.policy; `pagealloc` tells more)\n",
		pgdat->policy->name);
	kprintf("%-7s %10s %10s %10s %10s %8s %8s\n", "zone", "start pfn", "managed kB",
		"free kB", "pcp kB", "min kB", "failed");
	for_each_zone_in_node(z, pgdat) {
		if (!z->spanned_pages)
			continue;
		kprintf("%-7s %#10lx %10lu %10lu %10lu %8lu %8lu\n", z->name, z->zone_start_pfn,
			KB(z->managed_pages), KB(z->free_pages), KB(zone_pcp_pages(z)),
			KB(z->watermark_min), z->alloc_fail);
	}
	return 0;
}
SHELL_CMD(meminfo, "meminfo", "memory totals and zones", cmd_meminfo);

/* /proc/buddyinfo's lines, to m (NULL: the console). */
void show_buddyinfo(struct seq_file *m, struct pglist_data *pgdat)
{
	struct zone *z;

	for_each_zone_in_node(z, pgdat) {
		if (!z->spanned_pages)
			continue;
		seq_printf(m, "Node %d, zone %8s", pgdat->node_id, z->name);
		for (int o = 0; o < MAX_ORDER; o++)
			seq_printf(m, " %6lu", z->free_area[o].nr_free);
		seq_printf(m, "\n");
	}
}

static int cmd_buddyinfo(int argc, char **argv)
{
	kprintf("%-24s", "free blocks per order:");
	for (int o = 0; o < MAX_ORDER; o++)
		kprintf(" %6d", o);
	kprintf("\n");
	show_buddyinfo(NULL, NODE_DATA(0));
	return 0;
}
SHELL_CMD(buddyinfo, "buddyinfo", "free blocks per zone and order", cmd_buddyinfo);

static int cmd_memory(int argc, char **argv)
{
	u64 bytes;
	struct policy_stats before, after;
	unsigned long pages;

	if (argc == 1) {
		kprintf("online: %lu MiB, offline: %lu MiB\n",
			totalram_pages() >> (20 - PAGE_SHIFT),
			mm_offline_pages() >> (20 - PAGE_SHIFT));
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "online"))
		return -EINVAL;
	if (!strcmp(argv[2], "all")) {
		bytes = ~0ULL >> 1;
	} else if (kstrtosize(argv[2], &bytes) || !bytes) {
		kprintf("memory: '%s' is not a size: a positive number of bytes with an "
			"optional K, M, G or T (64M), or all\n", argv[2]);
		return -EINVAL;
	}
	if (!mm_offline_pages()) {
		kprintf("memory: nothing is offline (only mem= holds memory back)\n");
		return 0;
	}
	policy_stats(NODE_DATA(0), &before);
	pages = mm_online_pages((unsigned long)MIN(bytes >> PAGE_SHIFT, (u64)~0UL >> 1));
	policy_stats(NODE_DATA(0), &after);
	kprintf("onlined %lu MiB%s; %lu MiB still offline\n", pages >> (20 - PAGE_SHIFT),
		after.moved != before.moved ? " and shuffled its zones" : "",
		mm_offline_pages() >> (20 - PAGE_SHIFT));
	return 0;
}
SHELL_CMD(memory, "memory [online SIZE|all]",
	  "show offline memory (mem=) or online some of it (the hot-add path)", cmd_memory);

/*
 * Take every free frame out of the allocator, write a value unique to it
 * at both ends, read all of them back, then free them all: a broken memory
 * map (two frames aliasing one another, a hole counted as RAM) shows up as
 * a mismatch or a fault.
 */
static int cmd_memtest(int argc, char **argv)
{
	struct list_head taken;
	unsigned long n = 0, bad = 0;
	struct page *page, *tmp;
	const u64 magic = 0x5a5a0000a5a50000ULL;

	INIT_LIST_HEAD(&taken);
	while (!(n % 4096 == 0 && shell_interrupted()) &&
	       (page = alloc_pages(GFP_KERNEL | __GFP_NOWARN | __GFP_MEMALLOC, 0))) {
		u64 *p = page_address(page);
		u64 v = magic ^ page_to_pfn(page);

		p[0] = v;
		p[PAGE_SIZE / 8 - 1] = ~v;
		list_add(&page->lru, &taken);
		n++;
	}
	list_for_each_entry(page, &taken, lru) {
		u64 *p = page_address(page);
		u64 v = magic ^ page_to_pfn(page);

		if (p[0] != v || p[PAGE_SIZE / 8 - 1] != ~v) {
			if (bad++ < 10)
				kprintf("memtest: pfn %#lx reads %#llx/%#llx\n", page_to_pfn(page),
					(unsigned long long)p[0],
					(unsigned long long)p[PAGE_SIZE / 8 - 1]);
		}
	}
	list_for_each_entry_safe(page, tmp, &taken, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	if (shell_interrupted()) {
		/* Every frame taken went back; the ones checked are reported. */
		kprintf("memtest: stopped after %lu frames (%lu MiB), %lu bad\n", n,
			n >> (20 - PAGE_SHIFT), bad);
		return -EINTR;
	}
	kprintf("memtest: %lu free frames (%lu MiB) written and read back, %lu bad\n", n,
		n >> (20 - PAGE_SHIFT), bad);
	return bad ? -EIO : 0;
}
SHELL_CMD(memtest, "memtest", "check every free frame is writable and distinct", cmd_memtest);

static int cmd_pagealloc(int argc, char **argv)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	struct policy_stats st;
	char why[160];
	int err;

	if (argc == 2 && !strcmp(argv[1], "check")) {
		err = page_alloc_verify(pgdat, why, sizeof(why));
		kprintf("pagealloc: %s\n", err ? why : "free lists consistent");
		return err;
	}
	if (argc == 2 && !strcmp(argv[1], "drain")) {
		unsigned long before = nr_free_pages();

		drain_all_pages(pgdat);
		kprintf("pagealloc: per-CPU lists drained, %lu pages back on the free lists\n",
			nr_free_pages() - before);
		return 0;
	}
	if (argc > 1)
		return -EINVAL;
	kprintf("policy %s: %s\n", pgdat->policy->name, pgdat->policy->desc);
	policy_stats(pgdat, &st);
	kprintf("pcp %s, debug %s, shuffle %s%s%s\n",
		page_alloc_pcp ? "on" : "off", page_alloc_debug ? "on" : "off",
		pgdat->policy->shuffles ? "on" : "off", st.detail[0] ? " " : "", st.detail);
	kprintf("fault injection: %lu allocations failed on purpose\n", fail_page_alloc_injected());
	return 0;
}
SHELL_CMD(pagealloc, "pagealloc [check|drain]",
	  "page allocator state, invariant check, or drain per-CPU lists", cmd_pagealloc);

static int cmd_slabinfo(int argc, char **argv)
{
	int err;

	if (argc < 2) {
		slab_print_info();
		return 0;
	}
	err = slab_print_owners(argv[1]);
	if (err == -ENOENT)
		kprintf("slabinfo: no cache called %s\n", argv[1]);
	else if (err == -EOPNOTSUPP)
		kprintf("slabinfo: %s remembers no callers: boot with slab.debug=1\n", argv[1]);
	return err;
}
SHELL_CMD(slabinfo, "slabinfo [CACHE]",
	  "slab caches with objects in use; with CACHE, its objects by allocating caller (slab.debug=1)",
	  cmd_slabinfo);

static int cmd_vmallocinfo(int argc, char **argv)
{
	vmalloc_print_info();
	return 0;
}
SHELL_CMD(vmallocinfo, "vmallocinfo", "areas of the vmalloc window", cmd_vmallocinfo);
