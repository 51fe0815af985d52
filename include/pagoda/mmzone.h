/* SPDX-License-Identifier: MIT */
/*
 * The physical-memory data structures, with Linux's names:
 *
 *   struct page        one per 4 KiB frame: what the frame is doing now.
 *   struct free_area   the free blocks of one order, one list per migratetype.
 *   struct zone        a range of frames with one purpose (DMA, DMA32,
 *                      Normal), its buddy free lists, per-CPU caches and lock.
 *   struct pglist_data a node: a span of frames, its struct page array and
 *                      its zones.
 *
 * Node 0 is the machine's memory. Further nodes may be *simulated*: frames
 * with struct pages but no memory behind them, over which the very same
 * allocator code runs; the tests, the benchmarks and the allocator-policy
 * lab use them to run the allocator on any memory map, in the kernel and on
 * the host alike.
 */
#ifndef PAGODA_MMZONE_H
#define PAGODA_MMZONE_H

#include <pagoda/list.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>
#include <pagoda/types.h>

/* Orders 0 .. MAX_ORDER-1: the largest block is 2^10 pages, 4 MiB. */
#define MAX_ORDER 11
#define MAX_ORDER_NR_PAGES (1UL << (MAX_ORDER - 1))
/* Mobility is tracked per pageblock of 2^9 pages (2 MiB), as on x86 Linux. */
#define pageblock_order 9
#define pageblock_nr_pages (1UL << pageblock_order)

enum migratetype {
	MIGRATE_UNMOVABLE, /* kernel data: never moves */
	MIGRATE_MOVABLE,   /* user pages: could be migrated or reclaimed */
	MIGRATE_TYPES,
};

enum zone_type {
	ZONE_DMA,   /* reachable by the most limited DMA masters */
	ZONE_DMA32, /* below 4 GiB */
	ZONE_NORMAL,
	MAX_NR_ZONES,
};

/* page->flags */
#define PG_reserved (1u << 0) /* not managed by the allocator (hole, image, firmware) */
#define PG_buddy (1u << 1)    /* head of a free block on a free_area list; order valid */
#define PG_pcp (1u << 2)      /* free, on a per-CPU list */
#define PG_slab (1u << 3)     /* owned by the slab allocator */
#define PG_head (1u << 4)     /* first page of a multi-page allocation; order valid */
#define PG_offline (1u << 5)  /* present but held back (mem=), not yet onlined */
#define PG_filecache (1u << 6) /* an initramfs file's page, shared by its mappers (mm/filemap.c) */
#define PG_shmem (1u << 7)    /* a shared anonymous mapping's page (mm/shmem.c) */
#define PG_exec (1u << 8)     /* once mapped executable in user space: scrubbed when freed */

struct kmem_cache;

struct ramfs_file;

struct page {
	u32 flags;
	u8 order;       /* buddy order (PG_buddy) or allocation order (PG_head) */
	u8 zone_idx;
	u8 node_id;
	u8 pb_migratetype; /* its pageblock's: the same in all of the pageblock's pages */
	s32 refcount;      /* 0 when free; 1 when allocated */
	union {
		u32 slab_inuse; /* objects in use, for a slab page */
		s32 mapcount;   /* a process's page: the entries mapping it (mm/memory.c), and for
				   PG_shmem its object too (mm/shmem.c) */
	};
	struct list_head lru; /* free list, pcp list, the slab's list, or a filemap hash chain */
	union {
		struct {
			struct kmem_cache *slab_cache;
			void *freelist;       /* a slab's first free object */
		};
		struct {                      /* PG_filecache: which file page it holds */
			const struct ramfs_file *mapping;
			u64 index;
		};
	};
};

struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	unsigned long nr_free; /* blocks on all lists of this order */
};

/*
 * Order-0 pages cached per CPU, so most allocations skip the zone lock;
 * and, as Linux does since 5.13, up to PCP_MAX_BLOCKS free blocks of
 * pageblock order (huge-page size), so that a 2 MiB block freed and
 * allocated again skips it too (page_alloc.pcp_blocks=).
 */
#define PCP_MAX_BLOCKS 2
struct per_cpu_pages {
	int count; /* order-0 pages on lists[] */
	int high;  /* free a batch back to the buddy lists above this */
	int batch; /* pages moved per refill or drain */
	int nr_blocks; /* pageblock-order blocks on blocks[] */
	struct list_head lists[MIGRATE_TYPES];
	struct list_head blocks[MIGRATE_TYPES];
};

/* Free pages a per-CPU cache holds, blocks counted in pages. */
static inline unsigned long pcp_free_pages(const struct per_cpu_pages *pcp)
{
	return (unsigned long)pcp->count + ((unsigned long)pcp->nr_blocks << pageblock_order);
}

struct pglist_data;
struct page_alloc_policy;

struct zone {
	const char *name;
	struct pglist_data *zone_pgdat;
	enum zone_type idx;
	unsigned long zone_start_pfn;
	unsigned long spanned_pages; /* end - start, holes included */
	/* The pfns whose whole max-order block lies in the zone,
	 * [interior_lo, interior_lo + interior_span): set with the span,
	 * read by every free (mm/page_alloc.c, zone_interior()). */
	unsigned long interior_lo, interior_span;
	unsigned long present_pages; /* frames that exist */
	unsigned long managed_pages; /* frames given to the buddy allocator */
	unsigned long watermark_min; /* free pages kept back for atomic callers */

	spinlock_t lock;
	struct free_area free_area[MAX_ORDER];
	unsigned long free_pages; /* on the buddy lists (pcp pages not counted) */
	struct per_cpu_pages pcp[NR_CPUS];

	/* Statistics since boot. */
	unsigned long alloc_count, free_count, alloc_fail;

	/* Deferred struct page init (mm/page_alloc.c): the struct pages from
	 * here to the zone's end are not written yet. */
	unsigned long first_deferred_pfn;
};

static inline unsigned long zone_end_pfn(const struct zone *z)
{
	return z->zone_start_pfn + z->spanned_pages;
}

static inline bool zone_is_empty(const struct zone *z)
{
	return z->spanned_pages == 0;
}

#define MAX_NUMNODES 8
/* Node nid's frames lie in [nid << NODE_PFN_SHIFT, (nid + 1) << NODE_PFN_SHIFT):
 * node 0 is real memory below 16 TiB, simulated nodes are placed there
 * (memsim_base_pfn), so pfn_to_page() finds a node with a shift. */
#define NODE_PFN_SHIFT 32
/* Free ranges a node can keep for deferred struct page init. */
#define NR_DEFERRED_RANGES 64

struct pglist_data {
	int node_id;
	const char *name;
	bool simulated; /* no memory behind the frames: never touch them */
	unsigned long node_start_pfn;
	unsigned long node_spanned_pages;
	struct page *node_mem_map; /* one struct page per frame of the span */
	struct zone node_zones[MAX_NR_ZONES];
	/* For each combination of the GFP zone bits, the zone an allocation
	 * tries first: the highest one allowed that spans any frames (a
	 * 1 GiB machine has no Normal zone at all, and its allocations
	 * should not go through the fallback to reach DMA32). */
	struct zone *first_zone[4];

	/* The placement policy steering this node's allocator (mm/policy.h)
	 * and its per-node state, which only the policy reads; its memory
	 * comes from state_alloc: the node's creator knows what is usable
	 * when it builds the node. */
	const struct page_alloc_policy *policy;
	void *policy_data;
	/* The policy has no hook on allocation and does not count frees, so
	 * freed pageblock-order blocks may wait on per-CPU caches
	 * (policy_set()). */
	bool pcp_blocks_ok;
	/* The policy has a hook on free (freed, free_to_tail): one byte
	 * for the free path to test instead of two pointers (policy_set()). */
	bool free_hooked;
	/* And one for the allocation path: a hook on allocation (pick,
	 * taken). */
	bool alloc_hooked;
	void *(*state_alloc)(size_t size);    /* zeroed memory */
	void (*state_free)(void *p);          /* NULL: never given back */
	/* Deferred struct page init (mm/page_alloc.c): some zone's struct
	 * pages are not all written yet (zone->first_deferred_pfn); the free
	 * ranges there wait in deferred[]. */
	bool deferred_pending;
	unsigned int nr_deferred;
	struct { unsigned long start, end; } deferred[NR_DEFERRED_RANGES];
	spinlock_t deferred_lock;
	unsigned long deferred_pages; /* frames deferral left, for the report */
	u64 deferred_ns;             /* time spent writing deferred chunks */
	unsigned long bad_pages; /* bad frees caught and refused */
	unsigned long bad_picks; /* policy picks that were not free memory */
};

typedef struct pglist_data pg_data_t;

extern struct pglist_data *node_data[MAX_NUMNODES];
#define NODE_DATA(nid) (node_data[nid])

#define for_each_zone_in_node(z, pgdat) \
	for (z = (pgdat)->node_zones; z < (pgdat)->node_zones + MAX_NR_ZONES; z++)

#endif
