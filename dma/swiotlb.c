// SPDX-License-Identifier: MIT
/*
 * The SWIOTLB slot allocator and bouncing, with Linux's names and
 * algorithm (after "Allow dynamic allocation of software IO TLB bounce
 * buffers", Petr Tesarik, v6, 27 July 2023). Pure code: memory, the CPU
 * number and the grow worker come through mem->ops (see swiotlb.h), so the
 * host test runner exercises this very file.
 *
 * Free space is tracked per slot as "list": how many free slots follow,
 * this one included, up to the next used slot or the end of the segment.
 * A mapping of n slots fits where list >= n, and every mapping stays in
 * one segment, so this count is all a search needs.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/printk.h>
#include <pagoda/rculist.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>

#define io_tlb_offset(i) ((i) & (IO_TLB_SEGSIZE - 1))

static unsigned long nr_slots(u64 size)
{
	return (size + IO_TLB_SIZE - 1) >> IO_TLB_SHIFT;
}

static phys_addr_t slot_addr(phys_addr_t start, unsigned long index)
{
	return start + ((phys_addr_t)index << IO_TLB_SHIFT);
}

static void counter_add(unsigned long *c, long v)
{
	__atomic_fetch_add(c, v, __ATOMIC_RELAXED);
}

void swiotlb_mem_init(struct io_tlb_mem *mem, const struct io_tlb_ops *ops,
		      unsigned long default_nslabs, unsigned int nareas, bool can_grow)
{
	*mem = (struct io_tlb_mem){
		.ops = ops,
		.default_nslabs = default_nslabs,
		.nareas = nareas ? nareas : 1,
		.phys_limit = ~0ULL,
		.can_grow = can_grow,
	};
	spin_lock_init(&mem->lock);
	INIT_LIST_HEAD(&mem->pools);
	INIT_LIST_HEAD(&mem->transient);
}

static unsigned int round_down_pow2(unsigned int n)
{
	unsigned int p = 1;

	while (p * 2 <= n)
		p *= 2;
	return p;
}

struct io_tlb_pool *swiotlb_alloc_pool(struct io_tlb_mem *mem, unsigned long nslabs,
				       unsigned int nareas, u64 phys_limit, bool may_sleep)
{
	struct io_tlb_pool *pool;
	size_t meta;
	unsigned long i;

	if (!nslabs)
		return NULL;
	nareas = round_down_pow2(nareas ? nareas : 1);
	/*
	 * Areas hold whole segments, so that no mapping crosses an area and
	 * each area's lock covers everything its searches touch. A pool too
	 * small for that many areas gets fewer rather than more memory.
	 */
	if (nslabs >= IO_TLB_SEGSIZE) {
		nslabs = ALIGN_UP(nslabs, IO_TLB_SEGSIZE);
		while (nareas > 1 && nslabs % (nareas * IO_TLB_SEGSIZE))
			nareas /= 2;
	} else {
		nareas = 1;
	}
	meta = sizeof(*pool) + nareas * sizeof(struct io_tlb_area) +
	       nslabs * sizeof(struct io_tlb_slot);
	pool = mem->ops->alloc_meta(mem, meta, may_sleep);
	if (!pool)
		return NULL;
	memset(pool, 0, meta);
	pool->areas = (struct io_tlb_area *)(pool + 1);
	pool->slots = (struct io_tlb_slot *)(pool->areas + nareas);
	pool->vaddr = mem->ops->alloc_pages(mem, nslabs << IO_TLB_SHIFT, phys_limit,
					    may_sleep, &pool->start);
	if (!pool->vaddr) {
		mem->ops->free_meta(mem, pool, meta);
		return NULL;
	}
	if (pool->start & (IO_TLB_SIZE - 1)) {
		/* Slot addresses would not keep a device's min_align_mask bits. */
		pr_err("swiotlb: pool memory at %#llx is not %u-byte aligned; not used\n",
		       (unsigned long long)pool->start, (unsigned int)IO_TLB_SIZE);
		mem->ops->free_pages(mem, pool->vaddr, nslabs << IO_TLB_SHIFT);
		mem->ops->free_meta(mem, pool, meta);
		return NULL;
	}
	pool->end = pool->start + (nslabs << IO_TLB_SHIFT);
	pool->nslabs = nslabs;
	pool->nareas = nareas;
	pool->area_nslabs = nslabs / nareas;
	INIT_LIST_HEAD(&pool->node);
	for (i = 0; i < nareas; i++)
		spin_lock_init(&pool->areas[i].lock);
	for (i = 0; i < nslabs; i++) {
		unsigned long to_seg_end = IO_TLB_SEGSIZE - io_tlb_offset(i);

		pool->slots[i].list = to_seg_end < nslabs - i ? to_seg_end : nslabs - i;
		pool->slots[i].orig_addr = INVALID_PHYS_ADDR;
	}
	return pool;
}

static void swiotlb_free_pool(struct io_tlb_mem *mem, struct io_tlb_pool *pool)
{
	size_t meta = sizeof(*pool) + pool->nareas * sizeof(struct io_tlb_area) +
		      pool->nslabs * sizeof(struct io_tlb_slot);

	mem->ops->free_pages(mem, pool->vaddr, pool->nslabs << IO_TLB_SHIFT);
	mem->ops->free_meta(mem, pool, meta);
}

/* Under mem->lock: the most bounce memory ever held, for `bench swiotlb`. */
static void note_footprint(struct io_tlb_mem *mem)
{
	if (mem->nslabs + mem->transient_nslabs > mem->footprint_hiwater)
		mem->footprint_hiwater = mem->nslabs + mem->transient_nslabs;
}

/*
 * mem->pools is an RCU list (pagoda/rculist.h): a pool is published after
 * it is fully built and searches walk the list without a lock, so the map
 * path takes no lock wider than one area's. They walk with interrupts off,
 * which is what lets swiotlb_shrink() know when a pool it unlinked is no
 * longer being looked at (see there).
 */
void swiotlb_add_pool(struct io_tlb_mem *mem, struct io_tlb_pool *pool)
{
	unsigned long flags;

	spin_lock_irqsave(&mem->lock, flags);
	list_add_tail_rcu(&pool->node, &mem->pools);
	mem->nslabs += pool->nslabs;
	note_footprint(mem);
	spin_unlock_irqrestore(&mem->lock, flags);
}

void swiotlb_mem_destroy(struct io_tlb_mem *mem)
{
	struct io_tlb_pool *pool, *tmp;

	list_for_each_entry_safe(pool, tmp, &mem->transient, node)
		swiotlb_free_pool(mem, pool);
	list_for_each_entry_safe(pool, tmp, &mem->pools, node)
		swiotlb_free_pool(mem, pool);
	INIT_LIST_HEAD(&mem->pools);
	INIT_LIST_HEAD(&mem->transient);
	mem->nslabs = 0;
}

/*
 * Runs in process context (the kernel's workqueue): there a big contiguous
 * allocation may sleep and reclaim, which the map path, often called with
 * interrupts off, cannot. Halve the request until it fits.
 */
void swiotlb_dyn_alloc(struct io_tlb_mem *mem)
{
	unsigned long nslabs = mem->default_nslabs;
	struct io_tlb_pool *pool = NULL;

	while (nslabs >= IO_TLB_MIN_SLABS) {
		pool = swiotlb_alloc_pool(mem, nslabs, mem->nareas, mem->phys_limit, true);
		if (pool)
			break;
		nslabs /= 2;
	}
	if (pool) {
		pool->grown = true;
		swiotlb_add_pool(mem, pool);
		counter_add(&mem->pools_grown, 1);
	} else {
		counter_add(&mem->grow_failed, 1);
		pr_warn("swiotlb: could not grow: no %lu KiB of contiguous memory\n",
			(unsigned long)(IO_TLB_MIN_SLABS << IO_TLB_SHIFT) >> 10);
	}
	smp_store_release(&mem->grow_pending, false);
}

/*
 * Close an empty pool to new mappings: mark each area full, under its
 * lock, one at a time; a search that takes the lock afterwards finds no
 * room. If an area is in use after all (a mapping raced in since the pool
 * was seen empty), reopen the areas already closed and keep the pool.
 */
static bool swiotlb_pool_retire(struct io_tlb_pool *pool)
{
	unsigned int i, j;
	unsigned long flags;

	for (i = 0; i < pool->nareas; i++) {
		struct io_tlb_area *area = &pool->areas[i];
		bool busy;

		spin_lock_irqsave(&area->lock, flags);
		busy = area->used != 0;
		if (!busy)
			area->used = pool->area_nslabs;
		spin_unlock_irqrestore(&area->lock, flags);
		if (busy) {
			for (j = 0; j < i; j++) {
				spin_lock_irqsave(&pool->areas[j].lock, flags);
				pool->areas[j].used = 0;
				spin_unlock_irqrestore(&pool->areas[j].lock, flags);
			}
			return false;
		}
	}
	return true;
}

#define SHRINK_BATCH 8

/*
 * Beyond the seed, which keeps every pool it grows: a grown pool found
 * empty at two passes in a row (the kernel runs one every swiotlb.shrink_ms)
 * is closed, unlinked and, once no search can still be walking over it,
 * freed. The boot pool is never given back. Unlinking (list_del_rcu())
 * leaves the pool's own next pointer alone, so a search standing on it
 * walks on to the rest of the list; synchronize_rcu() waits for every such
 * search to end.
 */
unsigned int swiotlb_shrink(struct io_tlb_mem *mem)
{
	struct io_tlb_pool *pool, *tmp, *gone[SHRINK_BATCH];
	unsigned int ngone = 0, left = 0, i;
	unsigned long flags;

	spin_lock_irqsave(&mem->lock, flags);
	list_for_each_entry_safe(pool, tmp, &mem->pools, node) {
		if (!pool->grown)
			continue;
		if (swiotlb_pool_used(pool)) {
			pool->idle_checks = 0;
			left++;
			continue;
		}
		if (++pool->idle_checks < 2 || ngone == SHRINK_BATCH ||
		    !swiotlb_pool_retire(pool)) {
			left++;
			continue;
		}
		list_del_rcu(&pool->node);
		mem->nslabs -= pool->nslabs;
		gone[ngone++] = pool;
	}
	spin_unlock_irqrestore(&mem->lock, flags);
	if (!ngone)
		return left;
	synchronize_rcu();
	for (i = 0; i < ngone; i++) {
		swiotlb_free_pool(mem, gone[i]);
		counter_add(&mem->pools_freed, 1);
	}
	return left;
}

/*
 * Look in one area for nslots free slots whose address agrees with
 * orig_addr on the bits of align_mask (the device's min_align_mask above
 * the slot size, and alloc_align_mask, whose bits must be zero).
 */
static long swiotlb_area_find_slots(struct io_tlb_mem *mem, struct io_tlb_pool *pool,
				    unsigned int aindex, unsigned long nslots,
				    u64 align_mask, u64 align_match, u64 total)
{
	struct io_tlb_area *area = &pool->areas[aindex];
	unsigned long base = (unsigned long)aindex * pool->area_nslabs;
	unsigned long index, checked, i, flags;
	unsigned long count = 0;

	spin_lock_irqsave(&area->lock, flags);
	if (nslots > pool->area_nslabs - area->used)
		goto not_found;
	index = area->index < pool->area_nslabs ? area->index : 0;
	for (checked = 0; checked < pool->area_nslabs; checked++) {
		unsigned long si = base + index;

		if ((slot_addr(pool->start, si) & align_mask) == align_match &&
		    pool->slots[si].list >= nslots)
			goto found;
		if (++index >= pool->area_nslabs)
			index = 0;
	}
not_found:
	spin_unlock_irqrestore(&area->lock, flags);
	return -1;

found:
	index += base;
	for (i = index; i < index + nslots; i++) {
		pool->slots[i].list = 0;
		pool->slots[i].alloc_size = total - ((i - index) << IO_TLB_SHIFT);
	}
	/* The free run before us in this segment now ends at our first slot. */
	for (i = index; i-- > 0 && io_tlb_offset(i) != IO_TLB_SEGSIZE - 1 &&
			pool->slots[i].list;)
		pool->slots[i].list = ++count;
	area->index = index - base + nslots;
	if (area->index >= pool->area_nslabs)
		area->index = 0;
	area->used += nslots;
	spin_unlock_irqrestore(&area->lock, flags);
	return index;
}

/* Start in this CPU's area, then try the others: contention only when full. */
static long swiotlb_pool_find_slots(struct io_tlb_mem *mem, struct io_tlb_pool *pool,
				    unsigned long nslots, u64 align_mask, u64 align_match,
				    u64 total)
{
	unsigned int start = mem->ops->this_cpu() & (pool->nareas - 1);
	unsigned int i, a;
	long index;

	for (i = 0; i < pool->nareas; i++) {
		a = (start + i) & (pool->nareas - 1);
		index = swiotlb_area_find_slots(mem, pool, a, nslots, align_mask,
						align_match, total);
		if (index >= 0)
			return index;
	}
	return -1;
}

static u64 dev_phys_limit(struct device *dev)
{
	u64 limit = dev->dma_mask;

	if (dev->bus_dma_limit && dev->bus_dma_limit < limit)
		limit = dev->bus_dma_limit;
	return limit;
}

static void request_grow(struct io_tlb_mem *mem)
{
	if (!mem->can_grow || !mem->ops->schedule_grow)
		return;
	if (!xchg(&mem->grow_pending, true))
		mem->ops->schedule_grow(mem);
}

static long swiotlb_find_slots(struct device *dev, struct io_tlb_mem *mem,
			       unsigned long nslots, u64 align_mask, u64 align_match,
			       u64 total, struct io_tlb_pool **retpool)
{
	struct io_tlb_pool *pool;
	unsigned long flags;
	long index;

	flags = arch_irq_save();
	list_for_each_entry_rcu(pool, &mem->pools, node) {
		index = swiotlb_pool_find_slots(mem, pool, nslots, align_mask,
						align_match, total);
		if (index >= 0) {
			arch_irq_restore(flags);
			*retpool = pool;
			return index;
		}
	}
	arch_irq_restore(flags);
	if (!mem->can_grow)
		return -1;
	/*
	 * Full. A worker adds a real pool for the mappings to come; this one
	 * gets a transient pool just its size, allocated without sleeping,
	 * and freed when it is unmapped.
	 */
	if (dev_phys_limit(dev) < mem->phys_limit)
		mem->phys_limit = dev_phys_limit(dev);
	request_grow(mem);
	pool = swiotlb_alloc_pool(mem, nslots + (align_mask >> IO_TLB_SHIFT), 1,
				  dev_phys_limit(dev), false);
	if (!pool)
		return -1;
	index = swiotlb_pool_find_slots(mem, pool, nslots, align_mask, align_match, total);
	if (index < 0) {
		swiotlb_free_pool(mem, pool);
		return -1;
	}
	pool->transient = true;
	spin_lock_irqsave(&mem->lock, flags);
	list_add_tail(&pool->node, &mem->transient);
	mem->transient_live++;
	mem->transient_total++;
	mem->transient_nslabs += pool->nslabs;
	note_footprint(mem);
	spin_unlock_irqrestore(&mem->lock, flags);
	*retpool = pool;
	return index;
}

struct io_tlb_pool *swiotlb_find_pool(struct io_tlb_mem *mem, phys_addr_t paddr)
{
	struct io_tlb_pool *pool, *found = NULL;
	unsigned long flags;

	flags = arch_irq_save();
	list_for_each_entry_rcu(pool, &mem->pools, node)
		if (paddr >= pool->start && paddr < pool->end) {
			found = pool;
			break;
		}
	arch_irq_restore(flags);
	if (found)
		return found;
	spin_lock_irqsave(&mem->lock, flags);
	list_for_each_entry(pool, &mem->transient, node)
		if (paddr >= pool->start && paddr < pool->end) {
			found = pool;
			break;
		}
	spin_unlock_irqrestore(&mem->lock, flags);
	return found;
}

/* Copy between the original buffer and its slots, for size bytes at tlb_addr. */
static void swiotlb_bounce(struct io_tlb_mem *mem, struct io_tlb_pool *pool,
			   phys_addr_t tlb_addr, size_t size, enum dma_data_direction dir)
{
	unsigned long index = (tlb_addr - pool->start) >> IO_TLB_SHIFT;
	size_t in_slot = (tlb_addr - pool->start) & (IO_TLB_SIZE - 1);
	struct io_tlb_slot *slot = &pool->slots[index];
	void *bounce = (u8 *)pool->vaddr + (tlb_addr - pool->start);
	void *orig;

	if (slot->orig_addr == INVALID_PHYS_ADDR) {
		pr_err("swiotlb: bounce at %#llx: nothing is mapped there\n",
		       (unsigned long long)tlb_addr);
		return;
	}
	if (size > slot->alloc_size - in_slot) {
		pr_err("swiotlb: bounce of %zu bytes at %#llx overruns the mapping (%zu left)\n",
		       size, (unsigned long long)tlb_addr, slot->alloc_size - in_slot);
		size = slot->alloc_size - in_slot;
	}
	orig = mem->ops->phys_to_virt(slot->orig_addr + in_slot);
	if (dir == DMA_TO_DEVICE) {
		memcpy(bounce, orig, size);
		__atomic_fetch_add(&mem->bounced_to_device, size, __ATOMIC_RELAXED);
	} else {
		memcpy(orig, bounce, size);
		__atomic_fetch_add(&mem->bounced_from_device, size, __ATOMIC_RELAXED);
	}
}

phys_addr_t swiotlb_tbl_map_single(struct device *dev, struct io_tlb_mem *mem,
				   phys_addr_t orig_addr, size_t mapping_size,
				   size_t alloc_size, unsigned int alloc_align_mask,
				   enum dma_data_direction dir)
{
	u64 min_mask = dev->dma_min_align_mask;
	size_t offset = orig_addr & min_mask & (IO_TLB_SIZE - 1);
	u64 align_mask = (min_mask | alloc_align_mask) & ~(u64)(IO_TLB_SIZE - 1);
	/*
	 * Where min_align_mask and alloc_align_mask disagree, the former wins:
	 * a device that needs the low address bits kept reads garbage without.
	 */
	u64 align_match = orig_addr & min_mask & align_mask;
	u64 total = (u64)alloc_size + offset;
	unsigned long nslots = nr_slots(total), i, used, hi;
	struct io_tlb_pool *pool = NULL;
	phys_addr_t tlb_addr;
	long index;

	if (!mapping_size || mapping_size > alloc_size) {
		pr_err("swiotlb: %s: mapping %zu bytes of a %zu-byte allocation\n",
		       dev_name(dev), mapping_size, alloc_size);
		return INVALID_PHYS_ADDR;
	}
	if (nslots > IO_TLB_SEGSIZE) {
		pr_err("swiotlb: %s: %zu bytes is more than one segment (%lu bytes) can bounce\n",
		       dev_name(dev), alloc_size, IO_TLB_SEGSIZE * IO_TLB_SIZE - offset);
		counter_add(&mem->map_failed, 1);
		return INVALID_PHYS_ADDR;
	}
	index = swiotlb_find_slots(dev, mem, nslots, align_mask, align_match, total, &pool);
	if (index < 0) {
		/*
		 * A pool that cannot grow (static, restricted) fills up under
		 * load as a matter of course and the driver retries: report the
		 * first few and then one in a thousand, with the count.
		 */
		unsigned long failed = __atomic_add_fetch(&mem->map_failed, 1, __ATOMIC_RELAXED);

		if (failed > 8 && failed % 1000)
			return INVALID_PHYS_ADDR;
		pr_err("swiotlb: %s: buffer full, %zu bytes not mapped (%lu of %lu slots used%s; %lu refused so far)\n",
		       dev_name(dev), alloc_size, mem->total_used,
		       mem->nslabs + mem->transient_nslabs,
		       mem->can_grow ? ", no memory for a transient pool" : "", failed);
		return INVALID_PHYS_ADDR;
	}
	/*
	 * From now on an address this device unmaps may be a slot. The
	 * barrier orders the flag before the address can reach the device,
	 * and so before any CPU can be handed it back to unmap.
	 */
	if (!READ_ONCE(dev->dma_uses_io_tlb)) {
		WRITE_ONCE(dev->dma_uses_io_tlb, true);
		smp_mb();
	}
	/* Each slot remembers the original address its first byte stands for. */
	for (i = 0; i < nslots; i++)
		pool->slots[index + i].orig_addr = orig_addr - offset + (i << IO_TLB_SHIFT);
	used = __atomic_add_fetch(&mem->total_used, nslots, __ATOMIC_RELAXED);
	hi = __atomic_load_n(&mem->used_hiwater, __ATOMIC_RELAXED);
	while (used > hi && !__atomic_compare_exchange_n(&mem->used_hiwater, &hi, used, false,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	tlb_addr = slot_addr(pool->start, index) + offset;
	/*
	 * Copy in whatever the direction, as Linux does: if the device writes
	 * less than mapping_size, the unmap copies the slots back whole, and
	 * they must then hold the caller's own bytes, not a previous user's.
	 */
	swiotlb_bounce(mem, pool, tlb_addr, mapping_size, DMA_TO_DEVICE);
	(void)dir;
	return tlb_addr;
}

static void swiotlb_release_slots(struct io_tlb_mem *mem, struct io_tlb_pool *pool,
				  phys_addr_t tlb_addr)
{
	unsigned long index = (tlb_addr - pool->start) >> IO_TLB_SHIFT;
	unsigned long nslots = nr_slots(pool->slots[index].alloc_size);
	unsigned int aindex = index / pool->area_nslabs;
	struct io_tlb_area *area = &pool->areas[aindex];
	unsigned long i, flags, count;

	spin_lock_irqsave(&area->lock, flags);
	if (index + nslots < ALIGN_UP(index + 1, IO_TLB_SEGSIZE) && index + nslots < pool->nslabs)
		count = pool->slots[index + nslots].list;
	else
		count = 0;
	for (i = index + nslots; i-- > index;) {
		pool->slots[i].list = ++count;
		pool->slots[i].orig_addr = INVALID_PHYS_ADDR;
		pool->slots[i].alloc_size = 0;
	}
	/* Join the free run before us, up to the segment's start. */
	for (i = index; i-- > 0 && io_tlb_offset(i) != IO_TLB_SEGSIZE - 1 &&
			pool->slots[i].list;)
		pool->slots[i].list = ++count;
	area->used -= nslots;
	spin_unlock_irqrestore(&area->lock, flags);
	counter_add(&mem->total_used, -(long)nslots);
}

void swiotlb_tbl_unmap_single(struct device *dev, struct io_tlb_mem *mem,
			      phys_addr_t tlb_addr, size_t mapping_size,
			      enum dma_data_direction dir)
{
	struct io_tlb_pool *pool = swiotlb_find_pool(mem, tlb_addr);
	unsigned long index, flags;

	if (!pool) {
		pr_err("swiotlb: %s: unmap of %#llx, not a bounce buffer\n",
		       dev_name(dev), (unsigned long long)tlb_addr);
		return;
	}
	index = (tlb_addr - pool->start) >> IO_TLB_SHIFT;
	if (pool->slots[index].orig_addr == INVALID_PHYS_ADDR) {
		pr_err("swiotlb: %s: unmap of %#llx, which is not mapped\n",
		       dev_name(dev), (unsigned long long)tlb_addr);
		return;
	}
	if (dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL)
		swiotlb_bounce(mem, pool, tlb_addr, mapping_size, DMA_FROM_DEVICE);
	swiotlb_release_slots(mem, pool, tlb_addr);
	if (!pool->transient)
		return;
	spin_lock_irqsave(&mem->lock, flags);
	list_del(&pool->node);
	mem->transient_live--;
	mem->transient_nslabs -= pool->nslabs;
	spin_unlock_irqrestore(&mem->lock, flags);
	swiotlb_free_pool(mem, pool);
}

/*
 * Both syncs are one copy, towards the device (into the slots) or towards
 * the CPU (out of them), made only when the mapping's direction carries
 * data that way: a buffer the device only reads has nothing to copy back.
 */
static void swiotlb_sync_single(struct io_tlb_mem *mem, phys_addr_t tlb_addr, size_t size,
				enum dma_data_direction dir, enum dma_data_direction towards)
{
	struct io_tlb_pool *pool = swiotlb_find_pool(mem, tlb_addr);

	if (pool && (dir == towards || dir == DMA_BIDIRECTIONAL))
		swiotlb_bounce(mem, pool, tlb_addr, size, towards);
}

void swiotlb_sync_single_for_device(struct device *dev, struct io_tlb_mem *mem,
				    phys_addr_t tlb_addr, size_t size,
				    enum dma_data_direction dir)
{
	swiotlb_sync_single(mem, tlb_addr, size, dir, DMA_TO_DEVICE);
}

void swiotlb_sync_single_for_cpu(struct device *dev, struct io_tlb_mem *mem,
				 phys_addr_t tlb_addr, size_t size,
				 enum dma_data_direction dir)
{
	swiotlb_sync_single(mem, tlb_addr, size, dir, DMA_FROM_DEVICE);
}

/* One segment, less what a min_align_mask offset may use of the first slot. */
size_t swiotlb_max_mapping_size(struct device *dev)
{
	size_t min_align = 0;

	if (dev->dma_min_align_mask)
		min_align = ALIGN_UP((size_t)dev->dma_min_align_mask + 1, IO_TLB_SIZE);
	return IO_TLB_SIZE * IO_TLB_SEGSIZE - min_align;
}

unsigned long swiotlb_pool_used(struct io_tlb_pool *pool)
{
	unsigned long used = 0;
	unsigned int i;

	for (i = 0; i < pool->nareas; i++)
		used += pool->areas[i].used;
	return used;
}
