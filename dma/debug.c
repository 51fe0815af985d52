// SPDX-License-Identifier: MIT
/*
 * DMA API debugging, as Linux's kernel/dma/debug.c: with dma.debug=1 every
 * streaming mapping is remembered (device, bus address, physical address,
 * size, direction) in a hash table, and each call is checked against it:
 *
 *   unmapping what was never mapped, or what was just unmapped (a short
 *   ring of recent unmaps tells a double unmap from a stray address);
 *   unmapping with another size or direction than the map's;
 *   syncing what is not mapped, or in a direction the mapping does not
 *   have (a DMA_TO_DEVICE buffer synced for the CPU to read, say);
 *   memory given back to the page allocator while a mapping still covers
 *   it (a hook in the allocator's free path).
 *
 * Each mistake is printed with a stack trace and counted (`dmadebug`);
 * the call itself still goes on, as in Linux, so a driver with a bug
 * behaves the same with debugging on. The checks cost a lock and a hash
 * lookup per call: it is off by default.
 */
#include <pagoda/dma-debug.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/spinlock.h>

#define HASH_SIZE 1024
#define RECENT 64

struct dma_debug_entry {
	struct dma_debug_entry *next;
	struct device *dev;
	dma_addr_t addr;
	phys_addr_t paddr;
	size_t size;
	enum dma_data_direction dir;
};

static bool dma_debug_param;
PARAM_BOOL("dma.debug", dma_debug_param,
	   "check every DMA mapping call (unmaps, sizes, directions, syncs, frees) and report");

static DEFINE_SPINLOCK(dma_debug_lock);
static struct dma_debug_entry *hash[HASH_SIZE];
static struct {
	struct device *dev;
	dma_addr_t addr;
} recent[RECENT];
static unsigned int recent_next;
static unsigned long errors[DMA_DEBUG_NR_ERRORS];
static unsigned long live, alloc_failed;
static bool enabled;

static const char *const error_names[DMA_DEBUG_NR_ERRORS] = {
	[DMA_DEBUG_UNMAP_UNKNOWN] = "unmaps of memory never mapped",
	[DMA_DEBUG_DOUBLE_UNMAP] = "double unmaps",
	[DMA_DEBUG_WRONG_SIZE] = "unmaps with another size",
	[DMA_DEBUG_WRONG_DIR] = "unmaps with another direction",
	[DMA_DEBUG_SYNC_UNKNOWN] = "syncs of memory not mapped",
	[DMA_DEBUG_SYNC_DIR] = "syncs in the wrong direction",
	[DMA_DEBUG_FREED_MAPPED] = "frees of memory still mapped",
};

static const char *dir_name(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_BIDIRECTIONAL: return "DMA_BIDIRECTIONAL";
	case DMA_TO_DEVICE: return "DMA_TO_DEVICE";
	case DMA_FROM_DEVICE: return "DMA_FROM_DEVICE";
	default: return "DMA_NONE";
	}
}

static unsigned int hash_of(dma_addr_t addr)
{
	return (unsigned int)((addr >> 12) ^ (addr >> 22)) & (HASH_SIZE - 1);
}

static void report(enum dma_debug_error e, struct device *dev, const char *fmt,
		   unsigned long long a, unsigned long long b)
{
	__atomic_fetch_add(&errors[e], 1, __ATOMIC_RELAXED);
	pr_err("DMA-API: %s: ", dev_name(dev));
	kprintf(fmt, a, b);
	dump_stack();
}

static void check_free(phys_addr_t start, size_t bytes);

bool dma_debug_enabled(void)
{
	return READ_ONCE(enabled);
}

void dma_debug_set(bool on)
{
	WRITE_ONCE(enabled, on);
	page_free_check = on ? check_free : NULL;
}

unsigned long dma_debug_count(enum dma_debug_error e)
{
	return e < DMA_DEBUG_NR_ERRORS ? READ_ONCE(errors[e]) : 0;
}

void debug_dma_map_page(struct device *dev, phys_addr_t paddr, size_t size,
			enum dma_data_direction dir, dma_addr_t addr)
{
	struct dma_debug_entry *e;
	unsigned long flags;

	if (!dma_debug_enabled() || addr == DMA_MAPPING_ERROR)
		return;
	/* Maps happen in atomic context: no sleeping allocation. */
	e = kmalloc(sizeof(*e), GFP_ATOMIC);
	spin_lock_irqsave(&dma_debug_lock, flags);
	if (!e) {
		alloc_failed++;
	} else {
		*e = (struct dma_debug_entry){ hash[hash_of(addr)], dev, addr, paddr, size, dir };
		hash[hash_of(addr)] = e;
		live++;
	}
	spin_unlock_irqrestore(&dma_debug_lock, flags);
}

/* The mapping of dev at addr, unlinked (unlink) or not; NULL when none. */
static struct dma_debug_entry *find(struct device *dev, dma_addr_t addr, bool unlink)
{
	struct dma_debug_entry **pp = &hash[hash_of(addr)];

	for (; *pp; pp = &(*pp)->next) {
		struct dma_debug_entry *e = *pp;

		if (e->dev != dev || e->addr != addr)
			continue;
		if (unlink) {
			*pp = e->next;
			live--;
		}
		return e;
	}
	return NULL;
}

static bool recently_unmapped(struct device *dev, dma_addr_t addr)
{
	for (unsigned int i = 0; i < RECENT; i++)
		if (recent[i].dev == dev && recent[i].addr == addr)
			return true;
	return false;
}

void debug_dma_unmap_page(struct device *dev, dma_addr_t addr, size_t size,
			  enum dma_data_direction dir)
{
	struct dma_debug_entry *e;
	unsigned long flags;

	if (!dma_debug_enabled())
		return;
	spin_lock_irqsave(&dma_debug_lock, flags);
	e = find(dev, addr, true);
	if (!e) {
		bool twice = recently_unmapped(dev, addr);

		spin_unlock_irqrestore(&dma_debug_lock, flags);
		if (alloc_failed)
			return; /* we may simply not have recorded it */
		if (twice)
			report(DMA_DEBUG_DOUBLE_UNMAP, dev,
			       "device driver unmaps DMA memory twice [addr=%#llx] [size=%llu]\n",
			       addr, size);
		else
			report(DMA_DEBUG_UNMAP_UNKNOWN, dev,
			       "device driver unmaps DMA memory it has not mapped [addr=%#llx] "
			       "[size=%llu]\n", addr, size);
		return;
	}
	recent[recent_next].dev = dev;
	recent[recent_next].addr = addr;
	recent_next = (recent_next + 1) % RECENT;
	spin_unlock_irqrestore(&dma_debug_lock, flags);
	if (e->size != size)
		report(DMA_DEBUG_WRONG_SIZE, dev,
		       "device driver unmaps DMA memory with a different size [mapped %llu bytes] "
		       "[unmapped %llu bytes]\n", e->size, size);
	if (e->dir != dir) {
		pr_err("DMA-API: %s: mapped %s, unmapped %s\n", dev_name(dev), dir_name(e->dir),
		       dir_name(dir));
		report(DMA_DEBUG_WRONG_DIR, dev,
		       "device driver unmaps DMA memory with a different direction "
		       "[addr=%#llx] [size=%llu]\n", addr, size);
	}
	kfree(e);
}

void debug_dma_sync(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, bool for_cpu)
{
	struct dma_debug_entry *e, copy = { 0 };
	unsigned long flags;
	bool found = false;

	if (!dma_debug_enabled())
		return;
	spin_lock_irqsave(&dma_debug_lock, flags);
	/* A sync may cover part of a mapping: look for the one containing it. */
	for (unsigned int b = 0; b < HASH_SIZE && !found; b++)
		for (e = hash[b]; e; e = e->next)
			if (e->dev == dev && addr >= e->addr && addr + size <= e->addr + e->size) {
				copy = *e;
				found = true;
				break;
			}
	spin_unlock_irqrestore(&dma_debug_lock, flags);
	if (!found) {
		if (!alloc_failed)
			report(DMA_DEBUG_SYNC_UNKNOWN, dev,
			       "device driver syncs DMA memory it has not mapped [addr=%#llx] "
			       "[size=%llu]\n", addr, size);
		return;
	}
	if (copy.dir != DMA_BIDIRECTIONAL && copy.dir != dir) {
		pr_err("DMA-API: %s: mapped %s, synced for the %s with %s\n", dev_name(dev),
		       dir_name(copy.dir), for_cpu ? "CPU" : "device", dir_name(dir));
		report(DMA_DEBUG_SYNC_DIR, dev,
		       "device driver syncs DMA memory in a direction it was not mapped for "
		       "[addr=%#llx] [size=%llu]\n", addr, size);
	}
}

/* From the page allocator's free path, while debugging is on. */
static void check_free(phys_addr_t start, size_t bytes)
{
	struct dma_debug_entry *e, copy = { 0 };
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&dma_debug_lock, flags);
	for (unsigned int b = 0; b < HASH_SIZE && !found; b++)
		for (e = hash[b]; e; e = e->next)
			if (e->paddr < start + bytes && start < e->paddr + e->size) {
				copy = *e;
				found = true;
				break;
			}
	spin_unlock_irqrestore(&dma_debug_lock, flags);
	if (found)
		report(DMA_DEBUG_FREED_MAPPED, copy.dev,
		       "memory freed while still mapped for DMA [phys=%#llx] [size=%llu]\n",
		       copy.paddr, copy.size);
}

/* The debugger's state and each mistake's count (shell `dmadebug`). */
void dma_debug_print(void)
{
	kprintf("dma.debug: %s, %lu mappings tracked%s\n", dma_debug_enabled() ? "on" : "off",
		live, alloc_failed ? " (some not: no memory to record them)" : "");
	for (unsigned int i = 0; i < DMA_DEBUG_NR_ERRORS; i++)
		kprintf("  %-34s %lu\n", error_names[i], errors[i]);
}

void dma_debug_init(void)
{
	if (dma_debug_param) {
		dma_debug_set(true);
		pr_info("dma: DMA API debugging on (dma.debug=1)\n");
	}
}
