/* SPDX-License-Identifier: MIT */
/*
 * The slab allocator: objects smaller than a page, carved out of pages
 * from the buddy allocator (mm/slab.c).
 *
 *	struct kmem_cache *c = kmem_cache_create("task", sizeof(struct task), 0, 0);
 *	struct task *t = kmem_cache_alloc(c, GFP_KERNEL);
 *	kmem_cache_free(c, t);
 *
 * kmalloc() serves any size from a ladder of caches (8 bytes to 8 KiB);
 * bigger requests take whole pages. kfree() finds out which by the page.
 */
#ifndef PAGODA_SLAB_H
#define PAGODA_SLAB_H

#include <pagoda/gfp.h>
#include <pagoda/types.h>

/* kmem_cache_create() flags */
#define SLAB_HWCACHE_ALIGN 0x1u /* align objects to a cache line */
#define SLAB_DEBUG 0x2u         /* red zones, poisoning, double-free checks */
#define SLAB_RANDOM 0x4u        /* randomized free-list order in new slabs */

#define KMALLOC_MAX_CACHE_SIZE 8192

struct kmem_cache;

struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align, unsigned int flags);
/* Fails with -EBUSY while objects are still allocated. */
int kmem_cache_destroy(struct kmem_cache *c);
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *c, void *obj);
size_t kmem_cache_size(const struct kmem_cache *c);
/* Does c run the debug checks (SLAB_DEBUG, or every cache under slab.debug=1)? */
bool kmem_cache_debug(const struct kmem_cache *c);

void *kmalloc(size_t size, gfp_t gfp);
void kfree(const void *p);
/* The usable size of a kmalloc'd block (at least what was asked). */
size_t ksize(const void *p);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, gfp | __GFP_ZERO);
}

/* Set up the kmalloc caches (after the page allocator). */
void kmem_cache_init(void);
/* Bad frees and red-zone or poison damage found since boot. */
unsigned long slab_errors(void);

/* The caches with objects in use, as /proc/slabinfo (shell `slabinfo`). */
void slab_print_info(void);
/*
 * The objects of cache name in use, counted by who allocated them
 * (`slabinfo CACHE`; only with slab.debug=1). -ENOENT: no such cache.
 */
int slab_print_owners(const char *name);
/* Objects of a SLAB_DEBUG cache in use that function fn allocated (a test's check). */
long kmem_cache_count_owned(struct kmem_cache *c, const char *fn);
unsigned long slab_pages(void);

#endif
