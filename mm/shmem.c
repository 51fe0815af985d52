// SPDX-License-Identifier: MIT
/*
 * Shared memory: what mmap(MAP_SHARED | MAP_ANONYMOUS) maps, a System V
 * segment, and the data of a tmpfs file (fs/ramfs/file.c), as Linux's
 * tmpfs is shmem. Linux backs an anonymous shared mapping with an
 * unlinked shmem file (shmem_zero_setup(); /proc/PID/maps calls it
 * "/dev/zero (deleted)"); Pagoda keeps the part of that idea a mapping
 * needs: an object of a size, holding a page per index once someone
 * touched it, which every area made from it points at: the area mmap
 * made, the pieces munmap and mprotect cut from it, the copies fork gives
 * children, and the tmpfs inode whose file it is.
 *
 * So a write through any of them is seen through all of them, unlike a
 * private area, whose pages fork shares only until the first write.
 * A page here is never copied on write (mm/memory.c asks
 * vma_is_shared() first). The object lives while an area points at it
 * (refs); each of its pages while the object or a page-table entry
 * holds it (the page's mapcount counts both), so memory comes back to
 * the page when the last area goes, however the mappers ended. Its pages
 * are meminfo's Shmem, with tmpfs's, as on Linux (shmem_pages).
 *
 * The size is the mapping's at mmap, or the file's (shmem_resize()): an
 * access past it (an area that mremap grew, a file truncated under its
 * mapping) is SIGBUS, as on Linux.
 *
 * The object knows its areas (i_mmap, Linux's address_space->i_mmap, a
 * list here): an area is linked in when it is made (mmap, split, fork)
 * and unlinked when it is freed, so that a truncate or a punched hole
 * can take the pages from every process that maps them
 * (unmap_mapping_range()). Lock order: a process's mmap_lock, then
 * i_mmap_lock, then that process's page_table_lock, then obj->lock. So
 * an area is never freed under page_table_lock (its unlink takes
 * i_mmap_lock).
 * Pages are found through a radix tree of page-sized nodes (as page
 * tables are), as tall as the size needs and grown on first touch, so a
 * huge mostly untouched mapping (MAP_NORESERVE) costs a few nodes only.
 */
#include <pagoda/fs.h>
#include <pagoda/list.h>
#include <pagoda/mm.h>
#include <pagoda/mman.h>
#include <pagoda/mutex.h>
#include <pagoda/process.h>
#include <pagoda/shmem.h>
#include <pagoda/slab.h>
#include <pagoda/spinlock.h>
#include <pagoda/string.h>

#define SHMEM_SHIFT (PAGE_SHIFT - 3)
#define SHMEM_SLOTS (1UL << SHMEM_SHIFT) /* pointers in a node: one page of them */

struct shmem_object {
	int refs;               /* areas that point here, and a tmpfs inode */
	bool accounted;         /* its size is promised (mm/util.c): not MAP_NORESERVE */
	unsigned int height;    /* node levels above the pages: SHMEM_SLOTS^height >= nr_pages */
	unsigned long nr_pages; /* its size; an index past it is SIGBUS */
	unsigned long nr_resident; /* pages it holds now */
	spinlock_t lock;        /* filling a slot, adding a node, changing the size */
	void *root;             /* the top node, NULL until the first page */
	/*
	 * The areas mapping it, on vm_area.shared, and the lock that keeps the
	 * list and their start, end and pgoff still for a walk over them.
	 */
	struct list_head i_mmap;
	struct mutex i_mmap_lock;
};

/* How many node levels index `pages` pages (at least one). */
static unsigned int height_for(unsigned long pages)
{
	unsigned int h = 1;

	while (h * SHMEM_SHIFT < 64 && pages && (pages - 1) >> (h * SHMEM_SHIFT))
		h++;
	return h;
}

struct shmem_object *shmem_zero_setup(struct process *p, unsigned long pages, bool account)
{
	struct shmem_object *obj;

	if (pages > TASK_SIZE / PAGE_SIZE || (!pages && account))
		return NULL;
	if (account && vm_enough_memory(p, pages))
		return NULL;
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj) {
		if (account)
			vm_unacct_memory(pages);
		return NULL;
	}
	obj->refs = 1;
	obj->accounted = account;
	obj->nr_pages = pages;
	obj->height = height_for(pages);
	spin_lock_init(&obj->lock);
	INIT_LIST_HEAD(&obj->i_mmap);
	mutex_init(&obj->i_mmap_lock);
	return obj;
}

int shmem_users(const struct shmem_object *obj)
{
	return __atomic_load_n(&obj->refs, __ATOMIC_RELAXED);
}

void shmem_get(struct shmem_object *obj)
{
	__atomic_add_fetch(&obj->refs, 1, __ATOMIC_RELAXED);
}

/* One holder fewer of pg (the object, or an entry mapping it); the last frees it. */
void shmem_page_put(struct page *pg)
{
	if (!__atomic_sub_fetch(&pg->mapcount, 1, __ATOMIC_ACQ_REL)) {
		pg->flags &= ~PG_shmem;
		__atomic_sub_fetch(&shmem_pages, 1, __ATOMIC_RELAXED);
		__free_page(pg);
	}
}

/* Give back a node of `level` levels above the pages, and all below it. */
static void free_node(void **node, unsigned int level)
{
	for (unsigned long i = 0; i < SHMEM_SLOTS; i++) {
		if (!node[i])
			continue;
		if (level > 1)
			free_node(node[i], level - 1);
		else
			shmem_page_put(node[i]);
	}
	free_page((unsigned long)node);
}

void shmem_put(struct shmem_object *obj)
{
	if (__atomic_sub_fetch(&obj->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (obj->root)
		free_node(obj->root, obj->height);
	if (obj->accounted)
		vm_unacct_memory(obj->nr_pages);
	kfree(obj);
}

/*
 * Under obj->lock: the slot for index, its path's nodes made from *spare
 * as needed; NULL when one more node is needed and there is no spare.
 */
static void **shmem_slot(struct shmem_object *obj, unsigned long index, void **spare)
{
	void **slot = &obj->root;

	for (unsigned int level = obj->height; level > 0; level--) {
		if (!*slot) {
			if (!*spare)
				return NULL;
			*slot = *spare;
			*spare = NULL;
		}
		slot = (void **)*slot + ((index >> (SHMEM_SHIFT * (level - 1))) & (SHMEM_SLOTS - 1));
	}
	return slot;
}

int shmem_get_page(struct shmem_object *obj, unsigned long index, struct page **pgp)
{
	struct page *pg, *fresh = NULL;
	void *spare = NULL, **slot;
	int err = -ENOMEM;

	for (;;) {
		spin_lock(&obj->lock);
		if (index >= obj->nr_pages) {
			spin_unlock(&obj->lock);
			err = -EIO; /* past the object's end: SIGBUS */
			pg = NULL;
			break;
		}
		slot = shmem_slot(obj, index, &spare);
		pg = slot ? *slot : NULL;
		if (slot && !pg && fresh) {
			pg = *slot = fresh;
			fresh = NULL;
			obj->nr_resident++;
		}
		if (pg)
			__atomic_add_fetch(&pg->mapcount, 1, __ATOMIC_ACQ_REL); /* the caller's */
		spin_unlock(&obj->lock);
		if (pg)
			break;
		/* Allocate outside the lock; another CPU may fill the slot meanwhile. */
		if (!slot) {
			spare = (void *)get_zeroed_page(GFP_KERNEL);
			if (!spare)
				break;
			continue;
		}
		fresh = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!fresh)
			break;
		fresh->flags |= PG_shmem;
		fresh->mapcount = 1; /* the object's */
		__atomic_add_fetch(&shmem_pages, 1, __ATOMIC_RELAXED);
	}
	if (spare)
		free_page((unsigned long)spare);
	if (fresh)
		shmem_page_put(fresh);
	if (!pg)
		return err;
	*pgp = pg;
	return 0;
}

struct page *shmem_find_page(struct shmem_object *obj, unsigned long index)
{
	void *none = NULL, **slot;
	struct page *pg = NULL;

	spin_lock(&obj->lock);
	if (index < obj->nr_pages) {
		slot = shmem_slot(obj, index, &none);
		pg = slot ? *slot : NULL;
	}
	spin_unlock(&obj->lock);
	return pg;
}

void shmem_read(struct shmem_object *obj, u64 off, void *buf, size_t n)
{
	void *none = NULL, **slot;

	while (n) {
		size_t in = off & (PAGE_SIZE - 1), len = MIN(n, PAGE_SIZE - in);
		unsigned long index = (unsigned long)(off >> PAGE_SHIFT);
		struct page *pg = NULL;

		/* Under the lock, so that a truncate cannot free the page mid-copy. */
		spin_lock(&obj->lock);
		if (index < obj->nr_pages) {
			slot = shmem_slot(obj, index, &none);
			pg = slot ? *slot : NULL;
		}
		if (pg)
			memcpy(buf, (const u8 *)page_address(pg) + in, len);
		else
			memset(buf, 0, len);
		spin_unlock(&obj->lock);
		buf = (u8 *)buf + len;
		off += len;
		n -= len;
	}
}

/*
 * Drop the object's pages in [first, end). The walk steps over a missing
 * node's whole span, as Linux's walk of the page cache skips its holes:
 * a hole punched across a terabyte-sized file with a few pages in it
 * costs those pages, not a lookup per index (the fuzzer held the tmpfs
 * lock for seconds that way).
 */
void shmem_punch(struct shmem_object *obj, unsigned long first, unsigned long end)
{
	for (unsigned long i = first, next; i < end; i = next) {
		struct page *pg = NULL;
		void **slot = &obj->root;

		next = i + 1;
		spin_lock(&obj->lock);
		if (i >= obj->nr_pages) {
			spin_unlock(&obj->lock);
			break;
		}
		for (unsigned int level = obj->height; level > 0; level--) {
			if (!*slot) {
				/* nothing under this node: on past every index it would hold */
				next = (i | ((1UL << (SHMEM_SHIFT * level)) - 1)) + 1;
				slot = NULL;
				break;
			}
			slot = (void **)*slot + ((i >> (SHMEM_SHIFT * (level - 1))) & (SHMEM_SLOTS - 1));
		}
		if (slot && *slot) {
			pg = *slot;
			*slot = NULL;
			obj->nr_resident--;
		}
		spin_unlock(&obj->lock);
		if (pg)
			shmem_page_put(pg);
		if (next <= i)
			break; /* the span ran past the top of the index space */
	}
}

unsigned long shmem_size(struct shmem_object *obj)
{
	return __atomic_load_n(&obj->nr_pages, __ATOMIC_RELAXED);
}

unsigned long shmem_nr_resident(struct shmem_object *obj)
{
	return __atomic_load_n(&obj->nr_resident, __ATOMIC_RELAXED);
}

/*
 * Under obj->lock: give up the object's hold on every page of node (level
 * levels above the pages, its first index base) from index `from` on;
 * true when the node is left empty, and then it is freed too.
 */
static bool truncate_node(struct shmem_object *obj, void **node, unsigned int level,
			  unsigned long base, unsigned long from)
{
	unsigned long span = 1UL << (SHMEM_SHIFT * (level - 1)); /* indexes under a slot */
	bool empty = true;

	for (unsigned long i = 0; i < SHMEM_SLOTS; i++) {
		unsigned long first = base + i * span;

		if (!node[i])
			continue;
		if (first + span <= from) {
			empty = false; /* wholly before the cut */
		} else if (level > 1) {
			if (truncate_node(obj, node[i], level - 1, first, from))
				node[i] = NULL;
			else
				empty = false;
		} else {
			shmem_page_put(node[i]);
			node[i] = NULL;
			obj->nr_resident--;
		}
	}
	if (empty)
		free_page((unsigned long)node);
	return empty;
}

void i_mmap_lock_write(struct shmem_object *obj)
{
	mutex_lock(&obj->i_mmap_lock);
}

void i_mmap_unlock_write(struct shmem_object *obj)
{
	mutex_unlock(&obj->i_mmap_lock);
}

void vma_link_file(struct vm_area *v, struct vm_area *after)
{
	struct shmem_object *obj = v->shm;

	mutex_lock(&obj->i_mmap_lock);
	/*
	 * A copy goes right after its original (Linux's
	 * vma_interval_tree_insert_after()): a walk that has passed the
	 * original has already zapped what fork could copy from it, and one
	 * that has not will come to the copy after the original.
	 */
	list_add(&v->shared, after ? &after->shared : obj->i_mmap.prev);
	mutex_unlock(&obj->i_mmap_lock);
}

void unlink_file_vma(struct vm_area *v)
{
	struct shmem_object *obj = v->shm;

	mutex_lock(&obj->i_mmap_lock);
	list_del(&v->shared);
	mutex_unlock(&obj->i_mmap_lock);
}

void unmap_mapping_range(struct shmem_object *obj, unsigned long first, unsigned long end,
			 bool even_cows)
{
	struct vm_area *v;

	mutex_lock(&obj->i_mmap_lock);
	list_for_each_entry(v, &obj->i_mmap, shared) {
		unsigned long vfirst = v->pgoff, vend = v->pgoff + ((v->end - v->start) >> PAGE_SHIFT);

		if (vend <= first || vfirst >= end)
			continue;
		zap_page_range_single(v, v->start + ((MAX(first, vfirst) - vfirst) << PAGE_SHIFT),
				      v->start + ((MIN(end, vend) - vfirst) << PAGE_SHIFT),
				      even_cows);
	}
	mutex_unlock(&obj->i_mmap_lock);
}

int shmem_resize(struct shmem_object *obj, unsigned long pages)
{
	unsigned int height = height_for(pages), n = 0;
	void *nodes[64 / SHMEM_SHIFT + 1];
	bool shrink;

	if (pages > TASK_SIZE / PAGE_SIZE)
		return -EFBIG;
	/* Taller: new top nodes, made before the lock (the old root hangs under slot 0). */
	while (n + obj->height < height) {
		nodes[n] = (void *)get_zeroed_page(GFP_KERNEL);
		if (!nodes[n]) {
			while (n)
				free_page((unsigned long)nodes[--n]);
			return -ENOMEM;
		}
		n++;
	}
	spin_lock(&obj->lock);
	shrink = pages < obj->nr_pages;
	if (shrink && obj->root && truncate_node(obj, obj->root, obj->height, 0, pages))
		obj->root = NULL;
	for (; obj->height < height; obj->height++) {
		if (obj->root) {
			((void **)nodes[--n])[0] = obj->root;
			obj->root = nodes[n];
		}
	}
	obj->nr_pages = pages;
	spin_unlock(&obj->lock);
	while (n)
		free_page((unsigned long)nodes[--n]);
	/*
	 * Then out of every mapping, the private ones' copies too (Linux's
	 * truncate_pagecache()): a fault from now on finds the new size and
	 * is SIGBUS, so nothing past the end comes back.
	 */
	if (shrink)
		unmap_mapping_range(obj, pages, ~0UL, true);
	return 0;
}
