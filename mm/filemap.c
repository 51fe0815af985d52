// SPDX-License-Identifier: MIT
/*
 * The page cache of initramfs files, after Linux's mm/filemap.c, cut to
 * what private mappings need: one page per (file, page index), filled
 * from the file once and mapped read-only by every process that maps that
 * part of the file. A write to it copies it first (mm/memory.c's
 * wp_page()), so it never changes and never becomes one process's.
 *
 * Why share rather than copy each time: an exec then maps the program's
 * text without copying it, and every run of a program executes the very
 * same physical pages. On real hardware that keeps the caches warm; under
 * QEMU's TCG it matters far more, because translated code is kept per
 * physical page: a fresh copy of the text on each exec would be
 * translated again from scratch, which costs more than the exec itself.
 *
 * A page lives while some entry maps it (its mapcount); the last unmap
 * frees it, so the cache holds nothing once no process maps a file, and
 * free memory comes back to the page when programs end (the harness's
 * leak check). filemap_lock orders a lookup against the last unmap.
 */
#include <pagoda/mm.h>
#include <pagoda/ramfs.h>
#include <pagoda/spinlock.h>
#include <pagoda/string.h>

#define FILEMAP_HASH_BITS 8

static struct list_head filemap_hash[1u << FILEMAP_HASH_BITS];
static DEFINE_SPINLOCK(filemap_lock);

/* File pages mapped now (each counted once, however many map it). */
unsigned long nr_file_pages;

static struct list_head *bucket(const struct ramfs_file *rf, u64 index)
{
	u64 h = ((uptr)rf >> 4) * 0x9e3779b97f4a7c15ULL + index;
	struct list_head *b = &filemap_hash[(h >> 32) & ((1u << FILEMAP_HASH_BITS) - 1)];

	if (!b->next)
		INIT_LIST_HEAD(b); /* under filemap_lock: the table starts as zeros */
	return b;
}

static struct page *lookup(const struct ramfs_file *rf, u64 index)
{
	struct list_head *b = bucket(rf, index);
	struct page *pg;

	list_for_each_entry(pg, b, lru)
		if (pg->mapping == rf && pg->index == index)
			return pg;
	return NULL;
}

struct page *filemap_get_page(const struct ramfs_file *rf, u64 index)
{
	u64 off = index << PAGE_SHIFT;
	struct page *pg, *found;

	if (off >= rf->size)
		return NULL;
	spin_lock(&filemap_lock);
	pg = lookup(rf, index);
	if (pg)
		__atomic_add_fetch(&pg->mapcount, 1, __ATOMIC_ACQ_REL);
	spin_unlock(&filemap_lock);
	if (pg)
		return pg;
	/* Filled outside the lock; another CPU may have filled the same page meanwhile. */
	pg = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!pg)
		return NULL;
	memcpy(page_address(pg), (const u8 *)rf->data + off, MIN(PAGE_SIZE, rf->size - off));
	spin_lock(&filemap_lock);
	found = lookup(rf, index);
	if (found) {
		__atomic_add_fetch(&found->mapcount, 1, __ATOMIC_ACQ_REL);
	} else {
		pg->flags |= PG_filecache;
		pg->mapping = rf;
		pg->index = index;
		pg->mapcount = 1;
		list_add(&pg->lru, bucket(rf, index));
		__atomic_add_fetch(&nr_file_pages, 1, __ATOMIC_RELAXED);
	}
	spin_unlock(&filemap_lock);
	if (found) {
		__free_page(pg);
		return found;
	}
	return pg;
}

/* One entry fewer maps pg; the last one takes it out of the cache and frees it. */
void filemap_put_page(struct page *pg)
{
	bool last;

	spin_lock(&filemap_lock);
	last = !__atomic_sub_fetch(&pg->mapcount, 1, __ATOMIC_ACQ_REL);
	if (last) {
		list_del(&pg->lru);
		pg->flags &= ~PG_filecache;
		pg->mapping = NULL;
		pg->index = 0;
	}
	spin_unlock(&filemap_lock);
	if (last) {
		__atomic_sub_fetch(&nr_file_pages, 1, __ATOMIC_RELAXED);
		__free_page(pg);
	}
}
