// SPDX-License-Identifier: MIT
/* The RAM disks' sparse page array (see pagemap.h). */
#include <pagoda/atomic.h>
#include <pagoda/gfp.h>
#include <pagoda/slab.h>

#include "pagemap.h"

int pagemap_init(struct pagemap *pm, u64 nr_pages)
{
	u64 leaves = DIV_ROUND_UP(nr_pages, PAGEMAP_LEAF);

	pm->nr_pages = nr_pages;
	pm->nr_present = 0;
	pm->dir = leaves ? kcalloc(leaves, sizeof(*pm->dir), GFP_KERNEL) : NULL;
	return leaves && !pm->dir ? -ENOMEM : 0;
}

void pagemap_free(struct pagemap *pm)
{
	u64 leaves = DIV_ROUND_UP(pm->nr_pages, PAGEMAP_LEAF);

	if (!pm->dir)
		return;
	for (u64 l = 0; l < leaves; l++) {
		struct page **leaf = pm->dir[l];

		if (!leaf)
			continue;
		for (unsigned int i = 0; i < PAGEMAP_LEAF; i++)
			if (leaf[i])
				__free_page(leaf[i]);
		kfree(leaf);
	}
	kfree(pm->dir);
	pm->dir = NULL;
}

struct page *pagemap_lookup(struct pagemap *pm, u64 idx)
{
	struct page **leaf;

	if (idx >= pm->nr_pages)
		return NULL;
	leaf = __atomic_load_n(&pm->dir[idx / PAGEMAP_LEAF], __ATOMIC_ACQUIRE);
	return leaf ? __atomic_load_n(&leaf[idx % PAGEMAP_LEAF], __ATOMIC_ACQUIRE) : NULL;
}

struct page *pagemap_get(struct pagemap *pm, u64 idx)
{
	struct page **leaf, *page, *old;

	if (idx >= pm->nr_pages)
		return NULL;
	leaf = __atomic_load_n(&pm->dir[idx / PAGEMAP_LEAF], __ATOMIC_ACQUIRE);
	if (!leaf) {
		struct page **fresh = kcalloc(PAGEMAP_LEAF, sizeof(*fresh), GFP_ATOMIC);
		struct page **expected = NULL;

		if (!fresh)
			return NULL;
		if (__atomic_compare_exchange_n(&pm->dir[idx / PAGEMAP_LEAF], &expected, fresh,
						false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			leaf = fresh;
		} else {
			kfree(fresh);
			leaf = expected;
		}
	}
	page = __atomic_load_n(&leaf[idx % PAGEMAP_LEAF], __ATOMIC_ACQUIRE);
	if (page)
		return page;
	page = alloc_page(GFP_ATOMIC | __GFP_ZERO);
	if (!page)
		return NULL;
	old = NULL;
	if (!__atomic_compare_exchange_n(&leaf[idx % PAGEMAP_LEAF], &old, page, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		__free_page(page);
		return old;
	}
	__atomic_fetch_add(&pm->nr_present, 1, __ATOMIC_RELAXED);
	return page;
}

struct page *pagemap_take(struct pagemap *pm, u64 idx)
{
	struct page **leaf, *page;

	if (idx >= pm->nr_pages)
		return NULL;
	leaf = __atomic_load_n(&pm->dir[idx / PAGEMAP_LEAF], __ATOMIC_ACQUIRE);
	if (!leaf)
		return NULL;
	page = __atomic_exchange_n(&leaf[idx % PAGEMAP_LEAF], NULL, __ATOMIC_ACQ_REL);
	if (page)
		__atomic_fetch_sub(&pm->nr_present, 1, __ATOMIC_RELAXED);
	return page;
}
