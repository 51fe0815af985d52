// SPDX-License-Identifier: MIT
/*
 * The kernel's SWIOTLB instance: Linux's parameter, the pool allocated at
 * boot, the memory, CPU and worker behind dma/swiotlb.c's ops, the entry
 * points dma/direct.c calls, and the shell's `swiotlb`.
 *
 * Pools come from the buddy allocator, whose largest block is 4 MiB, so a
 * larger boot size (Linux's 64 MiB default) is several 4 MiB pools on the
 * one list rather than one memblock carve-out as in Linux.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/mmzone.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>
#include <pagoda/workqueue.h>

#define POOL_MAX_SLABS ((MAX_ORDER_NR_PAGES * PAGE_SIZE) >> IO_TLB_SHIFT)

struct io_tlb_mem io_tlb_default_mem;
bool swiotlb_initialized;

/* swiotlb=<slabs>[,<areas>][,force|noforce], each occurrence applied in turn. */
static unsigned long opt_nslabs = IO_TLB_DEFAULT_SIZE >> IO_TLB_SHIFT;
static unsigned int opt_nareas;
static bool opt_force, opt_noforce;
static char swiotlb_opt[64];
static bool swiotlb_dynamic = true;

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

static gfp_t zone_below(u64 limit)
{
	if (limit >= DMA_BIT_MASK(64) - 1)
		return 0;
	if (limit >= DMA_BIT_MASK(32))
		return __GFP_DMA32;
	return __GFP_DMA;
}

static unsigned int bytes_order(size_t bytes)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

static void *k_alloc_pages(struct io_tlb_mem *mem, size_t bytes, u64 limit, bool may_sleep,
			   phys_addr_t *phys)
{
	unsigned int order = bytes_order(bytes);
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
	__free_pages(virt_to_page(vaddr), bytes_order(bytes));
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

static struct work_struct swiotlb_grow_work;

static void swiotlb_grow_fn(struct work_struct *w)
{
	swiotlb_dyn_alloc(&io_tlb_default_mem);
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

static const struct io_tlb_ops kernel_ops = {
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
	swiotlb_mem_init(mem, &kernel_ops,
			 opt_nslabs < POOL_MAX_SLABS ? opt_nslabs : POOL_MAX_SLABS, nareas,
			 swiotlb_dynamic);
	mem->force_bounce = opt_force;
	mem->phys_limit = DMA_BIT_MASK(32);
	INIT_WORK(&swiotlb_grow_work, swiotlb_grow_fn);
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
	if (!mem->nslabs)
		return;
	swiotlb_initialized = true;
	pr_info("swiotlb: %lu KiB in %lu slots, %u areas%s%s\n",
		(mem->nslabs << IO_TLB_SHIFT) >> 10, mem->nslabs, nareas,
		mem->force_bounce ? ", force" : "", mem->can_grow ? ", dynamic" : "");
}

bool is_swiotlb_active(struct device *dev)
{
	return swiotlb_initialized;
}

bool is_swiotlb_force_bounce(struct device *dev)
{
	return swiotlb_initialized && io_tlb_default_mem.force_bounce;
}

bool is_swiotlb_buffer(struct device *dev, phys_addr_t paddr)
{
	return swiotlb_initialized && swiotlb_find_pool(&io_tlb_default_mem, paddr);
}

/* Bounce [phys, phys + size) for dev; DMA_MAPPING_ERROR if it cannot be. */
dma_addr_t swiotlb_map(struct device *dev, phys_addr_t phys, size_t size,
		       enum dma_data_direction dir)
{
	phys_addr_t tlb;
	dma_addr_t addr;

	if (!swiotlb_initialized) {
		dma_direct_refused++;
		pr_err("dma: %s needs a bounce buffer for %#llx+%#zx but swiotlb is off\n",
		       dev_name(dev), (unsigned long long)phys, size);
		return DMA_MAPPING_ERROR;
	}
	tlb = swiotlb_tbl_map_single(dev, &io_tlb_default_mem, phys, size, size, 0, dir);
	if (tlb == INVALID_PHYS_ADDR) {
		dma_direct_refused++;
		return DMA_MAPPING_ERROR;
	}
	addr = phys_to_dma(dev, tlb);
	if (!dma_capable(dev, addr, size)) {
		pr_err("dma: %s cannot reach bounce buffer %#llx either\n", dev_name(dev),
		       (unsigned long long)tlb);
		swiotlb_tbl_unmap_single(dev, &io_tlb_default_mem, tlb, size, DMA_TO_DEVICE);
		dma_direct_refused++;
		return DMA_MAPPING_ERROR;
	}
	if (!dev_is_dma_coherent(dev))
		arch_sync_dma_for_device(tlb, size, dir);
	return addr;
}

static int cmd_swiotlb(int argc, char **argv)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	struct io_tlb_pool *pool;
	unsigned int i = 0;

	if (!swiotlb_initialized) {
		printk("swiotlb: off\n");
		return 0;
	}
	printk("swiotlb: %s, %s\n", mem->force_bounce ? "force" : "bounce when needed",
	       mem->can_grow ? "dynamic" : "static");
	list_for_each_entry(pool, &mem->pools, node)
		printk("  pool %u: base %#llx size %lu KiB slots %lu used %lu areas %u\n", i++,
		       (unsigned long long)pool->start, (pool->nslabs << IO_TLB_SHIFT) >> 10,
		       pool->nslabs, swiotlb_pool_used(pool), pool->nareas);
	printk("  used %lu slots, high-water %lu, of %lu\n", mem->total_used, mem->used_hiwater,
	       mem->nslabs);
	printk("  transient pools: %lu live (%lu slots), %lu total\n", mem->transient_live,
	       mem->transient_nslabs, mem->transient_total);
	printk("  pools grown %lu, grow failures %lu, mappings refused %lu\n", mem->pools_grown,
	       mem->grow_failed, mem->map_failed);
	printk("  bounced to device %llu bytes, from device %llu bytes\n",
	       (unsigned long long)mem->bounced_to_device,
	       (unsigned long long)mem->bounced_from_device);
	return 0;
}
SHELL_CMD(swiotlb, "swiotlb", "bounce buffer pools, use and counters", cmd_swiotlb);
