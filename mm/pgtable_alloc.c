// SPDX-License-Identifier: MIT
/*
 * Page-table pages for the architecture's mappings (arch.h): from memblock
 * while the page allocator is not up yet, from it afterwards. The kernel's
 * own tables (init_mm) are never freed: they only grow. A user address
 * space's go back to the buddy allocator when it is destroyed.
 */
#include <pagoda/arch.h>
#include <pagoda/memblock.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>
#include "internal.h"

/* Page-table pages from the buddy allocator in use now: meminfo's PageTables. */
unsigned long nr_pagetable_pages;

phys_addr_t pgtable_alloc_page(void)
{
	struct page *page;
	phys_addr_t pa;

	if (!mm_buddy_ready()) {
		pa = memblock_phys_alloc_range(PAGE_SIZE, PAGE_SIZE, 0,
					       arch_direct_map_end());
		if (pa)
			memset(__va(pa), 0, PAGE_SIZE);
		return pa;
	}
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!page)
		return 0;
	__atomic_add_fetch(&nr_pagetable_pages, 1, __ATOMIC_RELAXED);
	return page_to_phys(page);
}

void pgtable_free_page(phys_addr_t pa)
{
	__atomic_sub_fetch(&nr_pagetable_pages, 1, __ATOMIC_RELAXED);
	__free_page(pfn_to_page(PHYS_PFN(pa)));
}
