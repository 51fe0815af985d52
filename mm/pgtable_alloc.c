// SPDX-License-Identifier: MIT
/*
 * Page-table pages for the architecture's kernel mappings (arch.h): from
 * memblock while the page allocator is not up yet, from it afterwards.
 * They are never freed: kernel page tables only grow.
 */
#include <pagoda/arch.h>
#include <pagoda/memblock.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>
#include "internal.h"

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
	return page ? page_to_phys(page) : 0;
}
