/* SPDX-License-Identifier: MIT */
/*
 * SWIOTLB: bounce buffers for devices that cannot reach a buffer (dma/swiotlb.c),
 * with Linux's names, after the series "Allow dynamic allocation of software
 * IO TLB bounce buffers" (Petr Tesarik, v6, 27 July 2023).
 *
 * An io_tlb_mem owns a list of io_tlb_pools. Each pool is a physically
 * contiguous buffer cut into 2 KiB slots, grouped in segments of 128 (no
 * mapping crosses a segment), and split into areas, each with its own lock,
 * chosen by the CPU number so that CPUs rarely contend.
 *
 * The allocator is pure code: memory, the CPU number's source and the
 * worker that grows the pools come in through io_tlb_ops, so the same file
 * runs in the kernel and in the host test runner.
 */
#ifndef PAGODA_SWIOTLB_H
#define PAGODA_SWIOTLB_H

#include <pagoda/device.h>
#include <pagoda/list.h>
#include <pagoda/spinlock.h>
#include <pagoda/dma-mapping.h>

#define IO_TLB_SHIFT 11
#define IO_TLB_SIZE (1UL << IO_TLB_SHIFT)
#define IO_TLB_SEGSIZE 128
/* The smallest pool the grow worker falls back to: one segment. */
#define IO_TLB_MIN_SLABS IO_TLB_SEGSIZE
#define IO_TLB_DEFAULT_SIZE (64UL << 20)
#define INVALID_PHYS_ADDR (~(phys_addr_t)0)

struct io_tlb_slot {
	phys_addr_t orig_addr;	/* the buffer this slot bounces; INVALID if free */
	size_t alloc_size;	/* bytes mapped from this slot to the mapping's end */
	unsigned int list;	/* free slots from here to the next used one (in the segment) */
};

struct io_tlb_area {
	unsigned long used;
	unsigned int index;	/* where the next search in this area starts */
	spinlock_t lock;
};

struct io_tlb_pool {
	phys_addr_t start, end;
	void *vaddr;
	unsigned long nslabs;
	unsigned int nareas;
	unsigned int area_nslabs;
	struct io_tlb_area *areas;
	struct io_tlb_slot *slots;
	struct list_head node;
	bool transient;		/* sized to one mapping, freed at its unmap */
	bool grown;		/* added by the worker: may be given back when idle */
	unsigned int idle_checks;	/* consecutive shrink passes that found it empty */
};

struct io_tlb_mem;

struct io_tlb_ops {
	/*
	 * Contiguous memory below phys_limit; may_sleep false: atomic
	 * context. Aligned to IO_TLB_SIZE at least (the kernel's are whole
	 * pages): slots are found by their addresses' bits, which
	 * min_align_mask promises to keep.
	 */
	void *(*alloc_pages)(struct io_tlb_mem *mem, size_t bytes, u64 phys_limit,
			     bool may_sleep, phys_addr_t *phys);
	void (*free_pages)(struct io_tlb_mem *mem, void *vaddr, size_t bytes);
	void *(*alloc_meta)(struct io_tlb_mem *mem, size_t bytes, bool may_sleep);
	void (*free_meta)(struct io_tlb_mem *mem, void *p, size_t bytes);
	void *(*phys_to_virt)(phys_addr_t phys);
	unsigned int (*this_cpu)(void);
	/* Ask for swiotlb_dyn_alloc() to run later in process context. */
	void (*schedule_grow)(struct io_tlb_mem *mem);
};

struct io_tlb_mem {
	const struct io_tlb_ops *ops;
	spinlock_t lock;		/* the two pool lists */
	struct list_head pools;		/* the boot pool first, then grown ones */
	struct list_head transient;
	unsigned long nslabs;		/* slots in the non-transient pools */
	unsigned long default_nslabs;	/* the size a grown pool asks for */
	unsigned int nareas;
	u64 phys_limit;			/* grown pools stay below this */
	bool force_bounce;
	bool restricted;		/* a device's own region: never grows */
	bool can_grow;			/* swiotlb.dynamic=1, and not restricted */
	bool grow_pending;
	void *priv;			/* the kernel glue's worker */
	/* Counters (Linux's debugfs ones and more), read under no lock. */
	unsigned long total_used, used_hiwater;
	unsigned long transient_live, transient_total, transient_nslabs;
	unsigned long pools_grown, pools_freed, grow_failed, map_failed;
	unsigned long footprint_hiwater;	/* most slots held at once, transient ones too */
	u64 bounced_to_device, bounced_from_device;
};

/* Set up mem with no pools; then add at least one with swiotlb_add_pool(). */
void swiotlb_mem_init(struct io_tlb_mem *mem, const struct io_tlb_ops *ops,
		      unsigned long default_nslabs, unsigned int nareas, bool can_grow);
/* Allocate a pool of nslabs slots (rounded to whole segments per area). */
struct io_tlb_pool *swiotlb_alloc_pool(struct io_tlb_mem *mem, unsigned long nslabs,
				       unsigned int nareas, u64 phys_limit, bool may_sleep);
void swiotlb_add_pool(struct io_tlb_mem *mem, struct io_tlb_pool *pool);
/* Free every pool (nothing may be mapped). */
void swiotlb_mem_destroy(struct io_tlb_mem *mem);
/* The worker's body: add one pool of default_nslabs (or less if short). */
void swiotlb_dyn_alloc(struct io_tlb_mem *mem);
/*
 * Give back grown pools that were empty at this call and the one before
 * (process context). Returns how many grown pools remain.
 */
unsigned int swiotlb_shrink(struct io_tlb_mem *mem);

phys_addr_t swiotlb_tbl_map_single(struct device *dev, struct io_tlb_mem *mem,
				   phys_addr_t orig_addr, size_t mapping_size,
				   size_t alloc_size, unsigned int alloc_align_mask,
				   enum dma_data_direction dir);
void swiotlb_tbl_unmap_single(struct device *dev, struct io_tlb_mem *mem,
			      phys_addr_t tlb_addr, size_t mapping_size,
			      enum dma_data_direction dir);
void swiotlb_sync_single_for_device(struct device *dev, struct io_tlb_mem *mem,
				    phys_addr_t tlb_addr, size_t size,
				    enum dma_data_direction dir);
void swiotlb_sync_single_for_cpu(struct device *dev, struct io_tlb_mem *mem,
				 phys_addr_t tlb_addr, size_t size,
				 enum dma_data_direction dir);
/* The pool holding paddr, or NULL: is this a bounce address? */
struct io_tlb_pool *swiotlb_find_pool(struct io_tlb_mem *mem, phys_addr_t paddr);
size_t swiotlb_max_mapping_size(struct device *dev);
unsigned long swiotlb_pool_used(struct io_tlb_pool *pool);

/* ---- the kernel's instance (dma/swiotlb_setup.c) ---- */
extern struct io_tlb_mem io_tlb_default_mem;
extern bool swiotlb_initialized;
extern const struct io_tlb_ops swiotlb_kernel_ops;
/* Point dev at the default pools (device_initialize() calls it). */
void swiotlb_dev_init(struct device *dev);
/* The shell's view of one io_tlb_mem. */
void swiotlb_print_mem(struct io_tlb_mem *mem);
bool is_swiotlb_active(struct device *dev);
bool is_swiotlb_force_bounce(struct device *dev);
bool is_swiotlb_buffer(struct device *dev, phys_addr_t paddr);
dma_addr_t swiotlb_map(struct device *dev, phys_addr_t phys, size_t size,
		       enum dma_data_direction dir);
void swiotlb_init(void);
/* Wait for a scheduled pool growth to finish. */
void swiotlb_flush_grow(void);
/*
 * Wait for a shrink pass the worker may be in: a pool it unlinked is freed
 * (and counted) once this returns.
 */
void swiotlb_flush_shrink(void);

/* ---- restricted DMA pools (dma/swiotlb_restricted.c) ---- */
/*
 * Make [base, base + size) dev's only bounce buffer, forced, never grown
 * (a device tree's restricted-dma-pool). Devices naming the same region
 * share it. 0 or a negative errno.
 */
int rmem_swiotlb_device_init(struct device *dev, phys_addr_t base, u64 size);
/* Back to the default pools; the last user frees the io_tlb_mem (not the region). */
void rmem_swiotlb_device_release(struct device *dev);
/* Give dev the restricted pool swiotlb.restricted= names for it, if any. */
void swiotlb_restricted_dev_init(struct device *dev);
/* swiotlb.restricted= naming a device (virtio0) whose DMA dma_dev does. */
void swiotlb_restricted_alias(struct device *dma_dev, const char *name);
/* After probing: warn of swiotlb.restricted= names no device had. */
void swiotlb_restricted_report_unmatched(void);
/* Look for a restricted-dma-pool in dev's device tree node, or in swiotlb.restricted=. */
void of_swiotlb_dev_init(struct device *dev, const void *fdt, int node);
void swiotlb_restricted_print(void);

/* Every pool, default and restricted (shell `swiotlb`). */
void swiotlb_print(void);

#endif
