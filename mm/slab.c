// SPDX-License-Identifier: MIT
/*
 * The slab allocator (include/pagoda/slab.h).
 *
 * A cache hands out objects of one size. It owns slabs: runs of 2^order
 * pages from the buddy allocator cut into equal slots, each slab with a
 * chain of its free slots threaded through the slots themselves
 * (page->freelist) and a count of those in use (page->slab_inuse). Slabs
 * with free slots are on the cache's `partial` list, full ones on `full`,
 * and an empty slab goes back to the buddy allocator unless it is the last
 * partial one.
 *
 * The fast path is per CPU: each CPU keeps a small stack of free objects
 * and allocates and frees there with interrupts off and no lock; only
 * refills and flushes, a batch at a time, take the cache lock.
 *
 * Two options a student can turn on:
 *   slab.random_freelist=1  new slabs chain their slots in random order
 *                           (Linux's SLAB_FREELIST_RANDOM, the page
 *                           shuffle's complement for small objects);
 *   slab.debug=1            every slot gets red zones on both sides and a
 *                           state word, free objects are poisoned, and the
 *                           per-CPU stacks are bypassed, so an overflow, a
 *                           write after free, a double free or a free of a
 *                           pointer that is not an object is reported
 *                           (and the object is left alone). Each
 *                           object in use also remembers who allocated
 *                           it: `slabinfo CACHE` counts the live
 *                           objects by caller (Linux's alloc_traces),
 *                           which is how a leak finds its owner.
 */
#include <pagoda/ksyms.h>
#include <pagoda/list.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>
#include <pagoda/string.h>
#include "internal.h"

static bool slab_debug;
PARAM_BOOL("slab.debug", slab_debug,
	   "red zones, poisoning and double-free checks on every slab cache");
static bool slab_random;
PARAM_BOOL("slab.random_freelist", slab_random,
	   "randomize the order of free objects in new slabs");

#define CPU_CACHE_LIMIT 32
#define CPU_CACHE_BATCH 16

#define RED_ZONE 0xbbu           /* bytes around a debug object */
#define POISON_FREE 0x6bu        /* a free debug object's body */
#define STATE_ALLOC 0xa11ca7edu  /* debug state word: in use */
#define STATE_FREE 0xf4eef4eeu   /* debug state word: free */
/*
 * Before a debug object: the state word, 4 red-zone bytes, the caller that
 * allocated it, then 16 more red-zone bytes (32 in all keeps objects as
 * aligned as the slot).
 */
#define DEBUG_LEFT 32
#define DEBUG_OWNER 8            /* offset of the caller within the left zone */
#define DEBUG_RIGHT 8            /* red zone after it */

struct kmem_cache_cpu {
	unsigned int avail;
	void *entries[CPU_CACHE_LIMIT];
};

struct kmem_cache {
	const char *name;
	size_t object_size; /* what the user asked for */
	size_t size;        /* slot stride */
	size_t offset;      /* object start within the slot (debug: after the left zone) */
	unsigned int order;
	unsigned int objs_per_slab;
	unsigned int flags;
	gfp_t gfp;          /* zone flags for the slab pages */
	spinlock_t lock;
	struct list_head partial, full;
	unsigned long nr_slabs, nr_partial, inuse; /* inuse counts per-CPU-cached objects too */
	struct kmem_cache_cpu cpu[NR_CPUS];
	struct list_head list;
};

static LIST_HEAD(slab_caches);
static DEFINE_SPINLOCK(slab_caches_lock);
static unsigned long errors;

unsigned long slab_errors(void)
{
	return errors;
}

static void slab_error(struct kmem_cache *c, const void *obj, const char *what)
{
	errors++;
	pr_err("slab %s: %s at %p\n", c ? c->name : "?", what, obj);
	dump_stack();
}

/* --- slot layout ----------------------------------------------------------- */

static inline void *slot_object(struct kmem_cache *c, void *slot)
{
	return (char *)slot + c->offset;
}

static inline u32 *debug_state(struct kmem_cache *c, void *obj)
{
	return (u32 *)((char *)obj - DEBUG_LEFT);
}

static inline u64 *debug_owner(void *obj)
{
	return (u64 *)((char *)obj - DEBUG_LEFT + DEBUG_OWNER);
}

static inline bool left_zone_byte(int i)
{
	return i >= 4 && (i < DEBUG_OWNER || i >= DEBUG_OWNER + 8);
}

static inline struct page *slab_head_page(struct kmem_cache *c, const void *obj)
{
	struct page *page = virt_to_page(obj);
	unsigned long pfn;

	if (!page)
		return NULL;
	/* slabs are naturally aligned 2^order blocks */
	pfn = page_to_pfn(page) & ~((1UL << c->order) - 1);
	return pfn_to_page(pfn);
}

/* The free chain's link lives in the first word of each free object. */
static inline void *get_free_next(void *obj) { return *(void **)obj; }
static inline void set_free_next(void *obj, void *next) { *(void **)obj = next; }

static void debug_mark(struct kmem_cache *c, void *obj, bool free)
{
	u8 *left = (u8 *)obj - DEBUG_LEFT;

	*(u32 *)left = free ? STATE_FREE : STATE_ALLOC;
	memset(left + 4, RED_ZONE, DEBUG_OWNER - 4);
	memset(left + DEBUG_OWNER + 8, RED_ZONE, DEBUG_LEFT - DEBUG_OWNER - 8);
	memset((u8 *)obj + c->object_size, RED_ZONE,
	       c->size - DEBUG_LEFT - c->object_size);
	if (free)
		memset((u8 *)obj + sizeof(void *), POISON_FREE,
		       c->object_size > sizeof(void *) ? c->object_size - sizeof(void *) : 0);
}

static bool check_zones(struct kmem_cache *c, void *obj)
{
	const u8 *left = (const u8 *)obj - DEBUG_LEFT;
	const u8 *right = (const u8 *)obj + c->object_size;
	size_t rlen = c->size - DEBUG_LEFT - c->object_size;

	for (int i = 4; i < DEBUG_LEFT; i++)
		if (left_zone_byte(i) && left[i] != RED_ZONE) {
			slab_error(c, obj, "red zone before the object overwritten");
			return false;
		}
	for (size_t i = 0; i < rlen; i++)
		if (right[i] != RED_ZONE) {
			slab_error(c, obj, "red zone after the object overwritten (overflow)");
			return false;
		}
	return true;
}

static void check_poison(struct kmem_cache *c, void *obj)
{
	const u8 *p = obj;

	for (size_t i = sizeof(void *); i < c->object_size; i++)
		if (p[i] != POISON_FREE) {
			slab_error(c, obj, "free object written to (use after free)");
			return;
		}
}

/* --- slabs ------------------------------------------------------------------ */

static struct page *new_slab(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page = alloc_pages((gfp & ~(__GFP_ZERO | GFP_ZONEMASK)) | c->gfp,
					c->order);
	unsigned int n = c->objs_per_slab, idx[512];
	char *base;
	void *prev = NULL;

	if (!page)
		return NULL;
	base = page_address(page);
	for (unsigned long i = 0; i < (1UL << c->order); i++) {
		page[i].flags |= PG_slab;
		page[i].slab_cache = c;
	}
	/* Chain the slots, in address order or (SLAB_RANDOM) shuffled. */
	for (unsigned int i = 0; i < n; i++)
		idx[i] = i;
	if (c->flags & SLAB_RANDOM)
		for (unsigned int i = n - 1; i > 0; i--) {
			unsigned int j = get_random_u32() % (i + 1), t = idx[i];

			idx[i] = idx[j];
			idx[j] = t;
		}
	for (unsigned int k = n; k-- > 0;) {
		void *obj = slot_object(c, base + (size_t)idx[k] * c->size);

		if (c->flags & SLAB_DEBUG)
			debug_mark(c, obj, true);
		set_free_next(obj, prev);
		prev = obj;
	}
	page->freelist = prev;
	page->slab_inuse = 0;
	c->nr_slabs++;
	return page;
}

static void discard_slab(struct kmem_cache *c, struct page *page)
{
	for (unsigned long i = 0; i < (1UL << c->order); i++) {
		page[i].flags &= ~PG_slab;
		page[i].slab_cache = NULL;
	}
	page->freelist = NULL;
	c->nr_slabs--;
	__free_pages(page, c->order);
}

/* Take one object from the cache's slabs; lock held. */
static void *alloc_from_slabs(struct kmem_cache *c, gfp_t gfp)
{
	struct page *page;
	void *obj;

	if (list_empty(&c->partial)) {
		/*
		 * Page allocation takes the zone lock: drop ours meanwhile (the
		 * caller keeps interrupts off, so this CPU's stack stays ours).
		 */
		spin_unlock(&c->lock);
		page = new_slab(c, gfp);
		spin_lock(&c->lock);
		if (!page)
			return NULL;
		list_add(&page->lru, &c->partial);
		c->nr_partial++;
	}
	page = list_first_entry(&c->partial, struct page, lru);
	obj = page->freelist;
	page->freelist = get_free_next(obj);
	if (++page->slab_inuse == c->objs_per_slab) {
		list_move(&page->lru, &c->full);
		c->nr_partial--;
	}
	return obj;
}

/* Give one object back to its slab; lock held. */
static void free_to_slab(struct kmem_cache *c, struct page *page, void *obj)
{
	bool was_full = page->slab_inuse == c->objs_per_slab;

	set_free_next(obj, page->freelist);
	page->freelist = obj;
	page->slab_inuse--;
	if (was_full) {
		list_move(&page->lru, &c->partial);
		c->nr_partial++;
	}
	if (!page->slab_inuse && c->nr_partial > 1) {
		list_del(&page->lru);
		c->nr_partial--;
		discard_slab(c, page);
	}
}

/* --- debug checks on free --------------------------------------------------- */

/* Is obj the start of an object of this cache? Reported when it is not. */
static struct page *check_object_pointer(struct kmem_cache *c, const void *obj)
{
	struct page *page = slab_head_page(c, obj);
	size_t off;

	if (!page || !PageSlab(page) || page->slab_cache != c) {
		slab_error(c, obj, "free of a pointer this cache does not own");
		return NULL;
	}
	off = (size_t)((const char *)obj - (const char *)page_address(page));
	if (off % c->size != c->offset || off / c->size >= c->objs_per_slab) {
		slab_error(c, obj, "free of a pointer into the middle of an object");
		return NULL;
	}
	return page;
}

/* --- the interface ---------------------------------------------------------- */

/* caller: who asked, remembered in a debug object (kmalloc's caller, not kmalloc). */
static void *slab_alloc(struct kmem_cache *c, gfp_t gfp, void *caller)
{
	unsigned long flags;
	void *obj = NULL;

	if (!(c->flags & SLAB_DEBUG)) {
		struct kmem_cache_cpu *cc;

		flags = arch_irq_save();
		cc = &c->cpu[smp_processor_id()];
		if (!cc->avail) {
			spin_lock(&c->lock);
			while (cc->avail < CPU_CACHE_BATCH) {
				void *o = alloc_from_slabs(c, gfp);

				if (!o)
					break;
				cc->entries[cc->avail++] = o;
			}
			c->inuse += cc->avail;
			spin_unlock(&c->lock);
		}
		if (cc->avail)
			obj = cc->entries[--cc->avail];
		arch_irq_restore(flags);
	} else {
		spin_lock_irqsave(&c->lock, flags);
		obj = alloc_from_slabs(c, gfp);
		if (obj) {
			c->inuse++;
			check_poison(c, obj);
			check_zones(c, obj);
			debug_mark(c, obj, false);
			*debug_owner(obj) = (u64)(unsigned long)caller;
		}
		spin_unlock_irqrestore(&c->lock, flags);
	}
	if (obj && (gfp & __GFP_ZERO))
		memset(obj, 0, c->object_size);
	return obj;
}

void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	return slab_alloc(c, gfp, __builtin_return_address(0));
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	unsigned long flags;

	if (!obj)
		return;
	if (!(c->flags & SLAB_DEBUG)) {
		struct kmem_cache_cpu *cc;

		flags = arch_irq_save();
		cc = &c->cpu[smp_processor_id()];
		if (cc->avail == CPU_CACHE_LIMIT) {
			spin_lock(&c->lock);
			/* flush the oldest half: the hot ones stay */
			for (unsigned int i = 0; i < CPU_CACHE_BATCH; i++) {
				void *o = cc->entries[i];

				free_to_slab(c, slab_head_page(c, o), o);
			}
			memmove(cc->entries, cc->entries + CPU_CACHE_BATCH,
				(CPU_CACHE_LIMIT - CPU_CACHE_BATCH) * sizeof(void *));
			cc->avail -= CPU_CACHE_BATCH;
			c->inuse -= CPU_CACHE_BATCH;
			spin_unlock(&c->lock);
		}
		cc->entries[cc->avail++] = obj;
		arch_irq_restore(flags);
		return;
	}
	spin_lock_irqsave(&c->lock, flags);
	do {
		struct page *page = check_object_pointer(c, obj);

		if (!page)
			break;
		if (*debug_state(c, obj) == STATE_FREE) {
			slab_error(c, obj, "double free");
			break;
		}
		if (*debug_state(c, obj) != STATE_ALLOC) {
			slab_error(c, obj, "object state word overwritten");
			break;
		}
		if (!check_zones(c, obj))
			break;
		debug_mark(c, obj, true);
		free_to_slab(c, page, obj);
		c->inuse--;
	} while (0);
	spin_unlock_irqrestore(&c->lock, flags);
}

bool kmem_cache_debug(const struct kmem_cache *c)
{
	return c->flags & SLAB_DEBUG;
}

size_t kmem_cache_size(const struct kmem_cache *c)
{
	return c->object_size;
}

/* Return every per-CPU object to its slab (before destroying, for stats). */
static void flush_cpu_caches(struct kmem_cache *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct kmem_cache_cpu *cc = &c->cpu[cpu];

		while (cc->avail) {
			void *o = cc->entries[--cc->avail];

			free_to_slab(c, slab_head_page(c, o), o);
			c->inuse--;
		}
	}
	spin_unlock_irqrestore(&c->lock, flags);
}

static void cache_setup(struct kmem_cache *c, const char *name, size_t size,
			size_t align, unsigned int flags, gfp_t gfp)
{
	size_t slab_bytes;

	memset(c, 0, sizeof(*c));
	c->name = name;
	c->object_size = size;
	c->flags = flags | (slab_debug ? SLAB_DEBUG : 0) | (slab_random ? SLAB_RANDOM : 0);
	c->gfp = gfp;
	if (flags & SLAB_HWCACHE_ALIGN)
		align = MAX(align, (size_t)64);
	align = MAX(align, sizeof(void *));
	if (c->flags & SLAB_DEBUG) {
		c->offset = DEBUG_LEFT;
		c->size = ALIGN_UP(DEBUG_LEFT + ALIGN_UP(size, 8) + DEBUG_RIGHT, align);
	} else {
		c->size = ALIGN_UP(MAX(size, sizeof(void *)), align);
	}
	/* Enough pages for 8 objects, at most 32 KiB: little waste at the end. */
	while ((PAGE_SIZE << c->order) < 8 * c->size && c->order < 3)
		c->order++;
	slab_bytes = PAGE_SIZE << c->order;
	c->objs_per_slab = (unsigned int)MIN(slab_bytes / c->size, (size_t)512);
	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->partial);
	INIT_LIST_HEAD(&c->full);
	spin_lock(&slab_caches_lock);
	list_add_tail(&c->list, &slab_caches);
	spin_unlock(&slab_caches_lock);
}

/* The cache of caches: kmem_cache_create()'s own objects. */
static struct kmem_cache cache_cache;

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align,
				     unsigned int flags)
{
	struct kmem_cache *c;

	if (!size || size > KMALLOC_MAX_CACHE_SIZE || (align & (align - 1)))
		return NULL;
	c = kmem_cache_alloc(&cache_cache, GFP_KERNEL);
	if (c)
		cache_setup(c, name, size, align, flags, 0);
	return c;
}

int kmem_cache_destroy(struct kmem_cache *c)
{
	struct page *page, *n;

	flush_cpu_caches(c);
	if (c->inuse) {
		pr_err("slab %s: destroy with %lu objects in use\n", c->name, c->inuse);
		return -EBUSY;
	}
	spin_lock(&slab_caches_lock);
	list_del(&c->list);
	spin_unlock(&slab_caches_lock);
	list_for_each_entry_safe(page, n, &c->partial, lru) {
		list_del(&page->lru);
		discard_slab(c, page);
	}
	kmem_cache_free(&cache_cache, c);
	return 0;
}

/* --- kmalloc ------------------------------------------------------------------ */

static const size_t kmalloc_sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256,
					512, 1024, 2048, 4096, 8192 };
#define NR_KMALLOC ARRAY_SIZE(kmalloc_sizes)
static struct kmem_cache kmalloc_caches[2][NR_KMALLOC]; /* normal, DMA */
static char kmalloc_names[2][NR_KMALLOC][20];

void kmem_cache_init(void)
{
	cache_setup(&cache_cache, "kmem_cache", sizeof(struct kmem_cache), 0, 0, 0);
	for (int t = 0; t < 2; t++)
		for (size_t i = 0; i < NR_KMALLOC; i++) {
			snprintf(kmalloc_names[t][i], sizeof(kmalloc_names[t][i]), "%s%zu",
				 t ? "dma-kmalloc-" : "kmalloc-", kmalloc_sizes[i]);
			cache_setup(&kmalloc_caches[t][i], kmalloc_names[t][i],
				    kmalloc_sizes[i], 0, 0, t ? __GFP_DMA : 0);
		}
	pr_info("slab: %zu kmalloc sizes up to %d bytes%s%s\n", NR_KMALLOC,
		KMALLOC_MAX_CACHE_SIZE, slab_debug ? ", debug checks on" : "",
		slab_random ? ", random free lists" : "");
}

static struct kmem_cache *kmalloc_slab(size_t size, gfp_t gfp)
{
	int t = (gfp & GFP_ZONEMASK) ? 1 : 0; /* DMA32 asks are served from DMA */

	for (size_t i = 0; i < NR_KMALLOC; i++)
		if (size <= kmalloc_sizes[i])
			return &kmalloc_caches[t][i];
	return NULL;
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct page *page;

	if (!size)
		return NULL;
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return slab_alloc(kmalloc_slab(size, gfp), gfp, __builtin_return_address(0));
	/* Large: whole pages, freed by order (page->order, PG_head). */
	page = alloc_pages(gfp, get_order(size));
	return page ? page_address(page) : NULL;
}

void kfree(const void *p)
{
	struct page *page;

	if (!p)
		return;
	page = virt_to_page(p);
	if (!page) {
		slab_error(NULL, p, "kfree of an address outside the direct map");
		return;
	}
	if (PageSlab(page)) {
		kmem_cache_free(page->slab_cache, (void *)p);
		return;
	}
	if (((unsigned long)p & (PAGE_SIZE - 1)) || page->refcount != 1) {
		slab_error(NULL, p, "kfree of something kmalloc did not return");
		return;
	}
	__free_pages(page, page->order);
}

size_t ksize(const void *p)
{
	struct page *page = p ? virt_to_page(p) : NULL;

	if (!page)
		return 0;
	if (PageSlab(page))
		return page->slab_cache->object_size;
	return PAGE_SIZE << page->order;
}

/* --- what /proc/slabinfo would show --------------------------------------------- */

/*
 * Pages the caches' slabs hold (meminfo's Slab:). Printed in the same
 * meminfo as MemFree and the per-CPU page lists, so a leak check adds
 * figures of one moment: a slab emptied between two shell commands
 * would otherwise be counted in neither (its page on a per-CPU list).
 */
unsigned long slab_pages(void)
{
	struct kmem_cache *c;
	unsigned long n = 0;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list)
		n += READ_ONCE(c->nr_slabs) << c->order;
	spin_unlock(&slab_caches_lock);
	return n;
}

void slab_print_info(void)
{
	struct kmem_cache *c;

	/*
	 * active counts the objects the per-CPU caches hold too (they are
	 * off the slabs' free lists); percpu says how many of them that is,
	 * so active - percpu is what the kernel really holds (a leak check's
	 * figure). The per-CPU counts are read without their CPUs' locks: exact
	 * only on a quiet machine.
	 */
	kprintf("%-20s %8s %8s %8s %6s %6s %5s %6s\n", "cache", "objsize", "active",
		"total", "slabs", "order", "flags", "percpu");
	spin_lock(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list) {
		unsigned long cached = 0;

		if (!c->nr_slabs)
			continue;
		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			cached += READ_ONCE(c->cpu[cpu].avail);
		kprintf("%-20s %8zu %8lu %8lu %6lu %6u %s%s    %6lu\n", c->name, c->object_size,
			c->inuse, c->nr_slabs * c->objs_per_slab, c->nr_slabs, c->order,
			c->flags & SLAB_DEBUG ? "D" : "-", c->flags & SLAB_RANDOM ? "R" : "-",
			cached);
	}
	spin_unlock(&slab_caches_lock);
	kprintf("errors caught: %lu\n", errors);
}

/* --- who holds a cache's objects (slab.debug=1) ----------------------------- */

#define MAX_OWNERS 32

struct slab_owner {
	u64 caller;
	unsigned long count;
};

static void count_owner(struct slab_owner *o, unsigned int *n, unsigned long *other, u64 caller)
{
	for (unsigned int i = 0; i < *n; i++)
		if (o[i].caller == caller) {
			o[i].count++;
			return;
		}
	if (*n == MAX_OWNERS) {
		(*other)++;
		return;
	}
	o[(*n)++] = (struct slab_owner){ caller, 1 };
}

static void count_slab_owners(struct kmem_cache *c, struct list_head *slabs,
			      struct slab_owner *o, unsigned int *n, unsigned long *other)
{
	struct page *page;

	list_for_each_entry(page, slabs, lru) {
		char *base = page_address(page);

		for (unsigned int i = 0; i < c->objs_per_slab; i++) {
			void *obj = slot_object(c, base + (size_t)i * c->size);

			if (*debug_state(c, obj) == STATE_ALLOC)
				count_owner(o, n, other, *debug_owner(obj));
		}
	}
}

/* Objects of debug cache c in use that a function called fn allocated. */
long kmem_cache_count_owned(struct kmem_cache *c, const char *fn)
{
	struct slab_owner o[MAX_OWNERS];
	unsigned int n = 0;
	unsigned long other = 0, flags;
	long count = 0;

	if (!(c->flags & SLAB_DEBUG))
		return -EOPNOTSUPP;
	spin_lock_irqsave(&c->lock, flags);
	count_slab_owners(c, &c->partial, o, &n, &other);
	count_slab_owners(c, &c->full, o, &n, &other);
	spin_unlock_irqrestore(&c->lock, flags);
	if (other)
		return -E2BIG;
	for (unsigned int i = 0; i < n; i++) {
		u64 off;
		const char *sym = ksym_lookup(o[i].caller, &off);

		if (sym && !strcmp(sym, fn))
			count += (long)o[i].count;
	}
	return count;
}

/*
 * The objects of the cache called name now in use, counted by the caller
 * that allocated them, most first. Debug caches only: they alone remember
 * (and keep no per-CPU stacks, so every object in use is on a slab).
 */
int slab_print_owners(const char *name)
{
	static struct slab_owner o[MAX_OWNERS]; /* under slab_caches_lock */
	struct kmem_cache *c, *found = NULL;
	unsigned long other = 0, flags;
	unsigned int n = 0;

	spin_lock(&slab_caches_lock);
	list_for_each_entry(c, &slab_caches, list)
		if (!strcmp(c->name, name) && (!found || c->nr_slabs))
			found = c;
	if (!found || !(found->flags & SLAB_DEBUG)) {
		spin_unlock(&slab_caches_lock);
		return found ? -EOPNOTSUPP : -ENOENT;
	}
	c = found;
	spin_lock_irqsave(&c->lock, flags);
	count_slab_owners(c, &c->partial, o, &n, &other);
	count_slab_owners(c, &c->full, o, &n, &other);
	spin_unlock_irqrestore(&c->lock, flags);
	/* A few dozen entries: sort by insertion. */
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j && o[j].count > o[j - 1].count; j--) {
			struct slab_owner t = o[j];

			o[j] = o[j - 1];
			o[j - 1] = t;
		}
	kprintf("%s: %lu objects in use\n", c->name, c->inuse);
	for (unsigned int i = 0; i < n; i++) {
		u64 off;
		const char *sym = ksym_lookup(o[i].caller, &off);

		if (sym)
			kprintf("%8lu %s+0x%llx\n", o[i].count, sym, (unsigned long long)off);
		else
			kprintf("%8lu 0x%llx\n", o[i].count, (unsigned long long)o[i].caller);
	}
	if (other)
		kprintf("%8lu from other callers\n", other);
	spin_unlock(&slab_caches_lock);
	return 0;
}
