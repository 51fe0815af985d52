// SPDX-License-Identifier: MIT
/*
 * The kernel's SWIOTLB instance: Linux's parameter, the pool allocated at
 * boot, the memory, CPU and worker behind dma/swiotlb.c's ops, the entry
 * points dma/direct.c calls, and the shell's `swiotlb`.
 *
 * Pools come from the buddy allocator, whose largest block is 4 MiB, so a
 * larger boot size (Linux's 64 MiB default) is several 4 MiB pools on the
 * one list rather than one memblock carve-out as in Linux.
 *
 * Like Linux on x86 and arm64, the boot pool is only set up when it can be
 * needed: RAM above 4 GiB (a 32-bit device may be handed a buffer there),
 * swiotlb=force, or a size given with swiotlb=<slabs>. Otherwise, with
 * swiotlb.dynamic=1, the default io_tlb_mem starts with no pool at all and
 * grows on a first bounce (a device tree's dma-ranges can make one); with
 * swiotlb.dynamic=0 bouncing is off.
 */
#include <pagoda/arch.h>
#include <pagoda/memblock.h>
#include <pagoda/mm.h>
#include <pagoda/mmzone.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>
#include <pagoda/timer.h>
#include <pagoda/workqueue.h>

#define POOL_MAX_SLABS ((MAX_ORDER_NR_PAGES * PAGE_SIZE) >> IO_TLB_SHIFT)

struct io_tlb_mem io_tlb_default_mem;
bool swiotlb_initialized;

/* swiotlb=<slabs>[,<areas>][,force|noforce], each occurrence applied in turn. */
static unsigned long opt_nslabs = IO_TLB_DEFAULT_SIZE >> IO_TLB_SHIFT;
static unsigned int opt_nareas;
static bool opt_force, opt_noforce, opt_nslabs_given;
static char swiotlb_opt[64];
static bool swiotlb_dynamic = true;
static u64 swiotlb_shrink_ms = 5000;

static const char *swiotlb_parse(const char *val)
{
	char buf[64], *s = buf, *tok;
	unsigned int field = 0;
	u64 v;

	strlcpy(buf, val, sizeof(buf));
	while ((tok = strsep(&s, ",")) != NULL) {
		if (!strcmp(tok, "force")) {
			opt_force = true;
			opt_noforce = false;
		} else if (!strcmp(tok, "noforce")) {
			opt_noforce = true;
			opt_force = false;
		} else if (field < 2 && !kstrtou64(tok, 0, &v)) {
			if (field == 0) {
				if (!v || v > (1UL << 24))
					return "slab count must be 1..16777216 (2 KiB each)";
				opt_nslabs = ALIGN_UP((unsigned long)v, IO_TLB_SEGSIZE);
				opt_nslabs_given = true;
			} else {
				if (!v || v > 1024)
					return "area count must be 1..1024";
				opt_nareas = v;
			}
			field++;
		} else {
			return "expected <slabs>[,<areas>][,force|noforce]";
		}
	}
	return NULL;
}
PARAM_STRING_CHECKED("swiotlb", swiotlb_opt, swiotlb_parse,
		     "bounce buffers: <slabs>[,<areas>][,force|noforce] (Linux's syntax)");
PARAM_BOOL("swiotlb.dynamic", swiotlb_dynamic,
	   "grow the bounce buffers on demand (a worker adds pools; transient pools meanwhile)");
PARAM_UINT("swiotlb.shrink_ms", swiotlb_shrink_ms, 0, 3600000,
	   "give back a grown bounce pool idle this long (ms; 0: keep them, as Linux does)");

static gfp_t zone_below(u64 limit)
{
	if (limit >= DMA_BIT_MASK(64) - 1)
		return 0;
	if (limit >= DMA_BIT_MASK(32))
		return __GFP_DMA32;
	return __GFP_DMA;
}

static void *k_alloc_pages(struct io_tlb_mem *mem, size_t bytes, u64 limit, bool may_sleep,
			   phys_addr_t *phys)
{
	unsigned int order = get_order(bytes);
	struct page *page;

	if (order >= MAX_ORDER)
		return NULL;
	page = alloc_pages((may_sleep ? GFP_KERNEL : GFP_ATOMIC) | __GFP_NOWARN |
			   zone_below(limit), order);
	if (!page)
		return NULL;
	if (page_to_phys(page) + bytes - 1 > limit) {
		__free_pages(page, order);
		return NULL;
	}
	*phys = page_to_phys(page);
	return page_address(page);
}

static void k_free_pages(struct io_tlb_mem *mem, void *vaddr, size_t bytes)
{
	__free_pages(virt_to_page(vaddr), get_order(bytes));
}

static void *k_alloc_meta(struct io_tlb_mem *mem, size_t bytes, bool may_sleep)
{
	return kmalloc(bytes, (may_sleep ? GFP_KERNEL : GFP_ATOMIC) | __GFP_NOWARN);
}

static void k_free_meta(struct io_tlb_mem *mem, void *p, size_t bytes)
{
	kfree(p);
}

static void *k_phys_to_virt(phys_addr_t phys)
{
	return __va(phys);
}

static unsigned int k_this_cpu(void)
{
	return smp_processor_id();
}

static struct work_struct swiotlb_grow_work, swiotlb_shrink_work;
static struct timer_list swiotlb_shrink_timer;

static void arm_shrink_timer(void)
{
	if (swiotlb_shrink_ms)
		mod_timer(&swiotlb_shrink_timer,
			  ktime_get_ns() + (u64)swiotlb_shrink_ms * NSEC_PER_MSEC);
}

static void swiotlb_grow_fn(struct work_struct *w)
{
	swiotlb_dyn_alloc(&io_tlb_default_mem);
	arm_shrink_timer();
}

/* Freeing may sleep on other CPUs' answers: leave the timer's interrupt. */
static void swiotlb_shrink_timer_fn(struct timer_list *t)
{
	schedule_work(&swiotlb_shrink_work);
}

static void swiotlb_shrink_fn(struct work_struct *w)
{
	if (swiotlb_shrink(&io_tlb_default_mem))
		arm_shrink_timer();
}

static void k_schedule_grow(struct io_tlb_mem *mem)
{
	schedule_work(&swiotlb_grow_work);
}

void swiotlb_flush_grow(void)
{
	if (swiotlb_initialized)
		flush_work(&swiotlb_grow_work);
}

void swiotlb_flush_shrink(void)
{
	if (swiotlb_initialized)
		flush_work(&swiotlb_shrink_work);
}

const struct io_tlb_ops swiotlb_kernel_ops = {
	.alloc_pages = k_alloc_pages,
	.free_pages = k_free_pages,
	.alloc_meta = k_alloc_meta,
	.free_meta = k_free_meta,
	.phys_to_virt = k_phys_to_virt,
	.this_cpu = k_this_cpu,
	.schedule_grow = k_schedule_grow,
};

/* Linux's default: one area per possible CPU, a power of two. */
static unsigned int default_nareas(void)
{
	unsigned int n = 1;

	while (n < num_possible_cpus())
		n *= 2;
	return n;
}

/* Can a device with a 32-bit mask be handed memory it cannot reach? */
static bool boot_pool_needed(void)
{
	return opt_force || opt_nslabs_given || memblock_end_of_DRAM() - 1 > DMA_BIT_MASK(32);
}

void swiotlb_init(void)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	unsigned long left = opt_nslabs, chunk;
	unsigned int nareas = opt_nareas ? opt_nareas : default_nareas();

	if (opt_noforce) {
		/* Linux: noforce turns bouncing off altogether. */
		pr_info("swiotlb: off (swiotlb=noforce)\n");
		return;
	}
	if (!boot_pool_needed() && !swiotlb_dynamic) {
		pr_info("swiotlb: off (all RAM below 4 GiB, no swiotlb= size, not dynamic)\n");
		return;
	}
	swiotlb_mem_init(mem, &swiotlb_kernel_ops,
			 opt_nslabs < POOL_MAX_SLABS ? opt_nslabs : POOL_MAX_SLABS, nareas,
			 swiotlb_dynamic);
	mem->force_bounce = opt_force;
	mem->phys_limit = DMA_BIT_MASK(32);
	INIT_WORK(&swiotlb_grow_work, swiotlb_grow_fn);
	INIT_WORK(&swiotlb_shrink_work, swiotlb_shrink_fn);
	timer_setup(&swiotlb_shrink_timer, swiotlb_shrink_timer_fn);
	if (!boot_pool_needed()) {
		swiotlb_initialized = true;
		pr_info("swiotlb: no boot pool (all RAM below 4 GiB); grows on demand, %u areas\n",
			nareas);
		return;
	}
	while (left) {
		struct io_tlb_pool *pool;

		chunk = left < POOL_MAX_SLABS ? left : POOL_MAX_SLABS;
		pool = swiotlb_alloc_pool(mem, chunk, nareas, DMA_BIT_MASK(32), true);
		if (!pool) {
			pr_err("swiotlb: no memory below 4 GiB for %lu KiB of bounce buffers; %lu KiB set up\n",
			       (left << IO_TLB_SHIFT) >> 10, (mem->nslabs << IO_TLB_SHIFT) >> 10);
			break;
		}
		swiotlb_add_pool(mem, pool);
		left -= chunk < left ? chunk : left;
	}
	if (!mem->nslabs && !mem->can_grow)
		return;
	swiotlb_initialized = true;
	pr_info("swiotlb: %lu KiB in %lu slots, %u areas%s%s\n",
		(mem->nslabs << IO_TLB_SHIFT) >> 10, mem->nslabs, nareas,
		mem->force_bounce ? ", force" : "", mem->can_grow ? ", dynamic" : "");
}

/* A device gets the default pools, if there are any; a restricted pool may replace them. */
void swiotlb_dev_init(struct device *dev)
{
	dev->dma_io_tlb_mem = swiotlb_initialized ? &io_tlb_default_mem : NULL;
	dev->dma_uses_io_tlb = false;
	swiotlb_restricted_dev_init(dev);
}

bool is_swiotlb_active(struct device *dev)
{
	return dev->dma_io_tlb_mem != NULL;
}

bool is_swiotlb_force_bounce(struct device *dev)
{
	return dev->dma_io_tlb_mem && dev->dma_io_tlb_mem->force_bounce;
}

/*
 * Called on every unmap and sync: a device that has never bounced skips
 * the pool lists altogether (the flag is set, with a full barrier, before
 * its first bounce address exists; the read barrier pairs with it).
 */
bool is_swiotlb_buffer(struct device *dev, phys_addr_t paddr)
{
	if (!dev->dma_io_tlb_mem || !READ_ONCE(dev->dma_uses_io_tlb))
		return false;
	smp_rmb();
	return swiotlb_find_pool(dev->dma_io_tlb_mem, paddr) != NULL;
}

/* Bounce [phys, phys + size) for dev; DMA_MAPPING_ERROR if it cannot be. */
dma_addr_t swiotlb_map(struct device *dev, phys_addr_t phys, size_t size,
		       enum dma_data_direction dir)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	phys_addr_t tlb;
	dma_addr_t addr;
	bool first;

	if (!mem) {
		dma_direct_refused++;
		pr_err("dma: %s needs a bounce buffer for %#llx+%#zx but swiotlb is off\n",
		       dev_name(dev), (unsigned long long)phys, size);
		return DMA_MAPPING_ERROR;
	}
	first = !READ_ONCE(dev->dma_uses_io_tlb);
	tlb = swiotlb_tbl_map_single(dev, mem, phys, size, size, 0, dir);
	if (tlb == INVALID_PHYS_ADDR) {
		dma_direct_refused++;
		return DMA_MAPPING_ERROR;
	}
	/* Once per device: say why it bounces, so a log shows who needs SWIOTLB. */
	if (first && !mem->force_bounce)
		pr_info("swiotlb: %s bounces %#llx+%#zx (beyond its DMA mask %#llx%s)\n",
			dev_name(dev), (unsigned long long)phys, size,
			(unsigned long long)dev->dma_mask,
			dev->dma_range_map ? " or its bus's DMA windows" : "");
	addr = phys_to_dma(dev, tlb);
	if (!dma_capable(dev, addr, size)) {
		pr_err("dma: %s cannot reach bounce buffer %#llx either\n", dev_name(dev),
		       (unsigned long long)tlb);
		swiotlb_tbl_unmap_single(dev, mem, tlb, size, DMA_TO_DEVICE);
		dma_direct_refused++;
		return DMA_MAPPING_ERROR;
	}
	if (!dev_is_dma_coherent(dev))
		arch_sync_dma_for_device(tlb, size, dir);
	return addr;
}

void swiotlb_print_mem(struct io_tlb_mem *mem)
{
	struct io_tlb_pool *pool;
	unsigned long flags;
	unsigned int i = 0;

	kprintf("  %s, %s\n", mem->force_bounce ? "force" : "bounce when needed",
	       mem->restricted ? "restricted (never grows)" :
	       mem->can_grow ? "dynamic" : "static");
	/* Under the lock: the shrink worker may be unlinking a pool. */
	spin_lock_irqsave(&mem->lock, flags);
	list_for_each_entry(pool, &mem->pools, node)
		kprintf("  pool %u: base %#llx size %lu KiB slots %lu used %lu areas %u%s\n", i++,
		       (unsigned long long)pool->start, (pool->nslabs << IO_TLB_SHIFT) >> 10,
		       pool->nslabs, swiotlb_pool_used(pool), pool->nareas,
		       pool->grown ? " (grown)" : "");
	spin_unlock_irqrestore(&mem->lock, flags);
	if (!i)
		kprintf("  no pools yet (the first bounce grows one)\n");
	kprintf("  used %lu slots, high-water %lu, of %lu\n", mem->total_used, mem->used_hiwater,
	       mem->nslabs);
	kprintf("  transient pools: %lu live (%lu slots), %lu total\n", mem->transient_live,
	       mem->transient_nslabs, mem->transient_total);
	kprintf("  pools grown %lu, given back %lu, grow failures %lu, mappings refused %lu\n",
	       mem->pools_grown, mem->pools_freed, mem->grow_failed, mem->map_failed);
	kprintf("  bounced to device %llu bytes, from device %llu bytes\n",
	       (unsigned long long)mem->bounced_to_device,
	       (unsigned long long)mem->bounced_from_device);
}

/* The default pools and every restricted one (shell `swiotlb`). */
void swiotlb_print(void)
{
	if (!swiotlb_initialized) {
		kprintf("swiotlb: off\n");
	} else {
		kprintf("swiotlb: default pools (idle grown pools checked every %llu ms%s)\n",
		       (unsigned long long)swiotlb_shrink_ms,
		       swiotlb_shrink_ms ? "" : ": kept");
		swiotlb_print_mem(&io_tlb_default_mem);
	}
	swiotlb_restricted_print();
}
