// SPDX-License-Identifier: MIT
/*
 * Restricted DMA pools: a device that must not be handed addresses outside
 * one region (an untrusted or isolated device; the region is what an
 * IOMMU-less platform opens to it) bounces everything through a SWIOTLB of
 * its own, made from that region alone. Linux calls the device-tree form
 * a "restricted-dma-pool" (kernel/dma/swiotlb.c, rmem_swiotlb_device_init).
 *
 * Such an io_tlb_mem has one pool, the whole region; it forces bouncing,
 * and it never grows and takes no transient pools: memory from anywhere
 * else is exactly what the device must not see. Devices naming the same
 * region share one io_tlb_mem.
 *
 * QEMU generates the device trees of its x86 and virt machines, so
 * swiotlb.restricted=<size>@<device>[,...] sets the same up from the
 * command line: <size> of buddy memory below 4 GiB becomes the region of
 * the device of that name ("0000:00:04.0", "virtio0", "sdhci").
 */
#include <pagoda/fdt.h>
#include <pagoda/mm.h>
#include <pagoda/mmzone.h>
#include <pagoda/mutex.h>
#include <pagoda/of_dma.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>

struct restricted_mem {
	struct io_tlb_mem mem;
	struct io_tlb_ops ops;	/* the kernel's, but memory comes from the region */
	phys_addr_t base;
	u64 size;
	bool region_taken;	/* handed to the one pool */
	unsigned int users;
	char who[48];		/* the devices using it, for the shell */
	struct list_head node;
};

static LIST_HEAD(restricted_mems);
static DEFINE_MUTEX(restricted_lock);

static void *r_alloc_pages(struct io_tlb_mem *mem, size_t bytes, u64 limit, bool may_sleep,
			   phys_addr_t *phys)
{
	struct restricted_mem *r = container_of(mem, struct restricted_mem, mem);

	if (r->region_taken || bytes > r->size || r->base + bytes - 1 > limit)
		return NULL;
	r->region_taken = true;
	*phys = r->base;
	return __va(r->base);
}

static void r_free_pages(struct io_tlb_mem *mem, void *vaddr, size_t bytes)
{
	container_of(mem, struct restricted_mem, mem)->region_taken = false;
}

static unsigned int restricted_nareas(void)
{
	unsigned int n = 1;

	while (n < num_possible_cpus())
		n *= 2;
	return n;
}

static void add_user(struct restricted_mem *r, struct device *dev)
{
	size_t len = strlen(r->who);

	if (len + strlen(dev_name(dev)) + 2 < sizeof(r->who))
		snprintf(r->who + len, sizeof(r->who) - len, "%s%s", len ? " " : "",
			 dev_name(dev));
	r->users++;
	dev->dma_io_tlb_mem = &r->mem;
	dev->dma_uses_io_tlb = false;
}

int rmem_swiotlb_device_init(struct device *dev, phys_addr_t base, u64 size)
{
	unsigned long nslabs = (size >> IO_TLB_SHIFT) & ~(unsigned long)(IO_TLB_SEGSIZE - 1);
	struct io_tlb_pool *pool;
	struct restricted_mem *r;
	dma_addr_t bus_end;
	int err = 0;

	if (!nslabs || (base & (IO_TLB_SIZE - 1))) {
		pr_err("swiotlb: %s: restricted pool %#llx+%#llx must be %u-byte aligned and hold a segment (%lu KiB)\n",
		       dev_name(dev), (unsigned long long)base, (unsigned long long)size,
		       (unsigned int)IO_TLB_SIZE, (IO_TLB_SEGSIZE * IO_TLB_SIZE) >> 10);
		return -EINVAL;
	}
	bus_end = phys_to_dma(dev, base + size - 1);
	if (!dma_capable(dev, bus_end, 1)) {
		pr_err("swiotlb: %s: cannot reach its restricted pool at %#llx+%#llx\n",
		       dev_name(dev), (unsigned long long)base, (unsigned long long)size);
		return -ERANGE;
	}
	mutex_lock(&restricted_lock);
	list_for_each_entry(r, &restricted_mems, node) {
		if (r->base == base && r->size == size) {
			add_user(r, dev);
			goto out;
		}
		if (base < r->base + r->size && r->base < base + size) {
			pr_err("swiotlb: %s: restricted pool %#llx+%#llx overlaps another's\n",
			       dev_name(dev), (unsigned long long)base, (unsigned long long)size);
			err = -EBUSY;
			goto out;
		}
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		err = -ENOMEM;
		goto out;
	}
	r->ops = swiotlb_kernel_ops;
	r->ops.alloc_pages = r_alloc_pages;
	r->ops.free_pages = r_free_pages;
	r->ops.schedule_grow = NULL;
	r->base = base;
	r->size = size;
	swiotlb_mem_init(&r->mem, &r->ops, nslabs, restricted_nareas(), false);
	r->mem.force_bounce = true;
	r->mem.restricted = true;
	pool = swiotlb_alloc_pool(&r->mem, nslabs, restricted_nareas(), ~0ULL, true);
	if (!pool) {
		kfree(r);
		err = -ENOMEM;
		goto out;
	}
	swiotlb_add_pool(&r->mem, pool);
	list_add_tail(&r->node, &restricted_mems);
	add_user(r, dev);
	pr_info("swiotlb: %s bounces only through %#llx+%#llx (restricted, %lu slots)\n",
		dev_name(dev), (unsigned long long)base, (unsigned long long)size, nslabs);
out:
	mutex_unlock(&restricted_lock);
	return err;
}

void rmem_swiotlb_device_release(struct device *dev)
{
	struct io_tlb_mem *mem = dev->dma_io_tlb_mem;
	struct restricted_mem *r;

	if (!mem || !mem->restricted)
		return;
	r = container_of(mem, struct restricted_mem, mem);
	dev->dma_io_tlb_mem = swiotlb_initialized ? &io_tlb_default_mem : NULL;
	dev->dma_uses_io_tlb = false;
	mutex_lock(&restricted_lock);
	if (--r->users == 0) {
		list_del(&r->node);
		swiotlb_mem_destroy(&r->mem);
		kfree(r);
	}
	mutex_unlock(&restricted_lock);
}

/* ---- swiotlb.restricted=<size>@<device>[,...] ---- */

#define MAX_CMDLINE_POOLS 4
#define MAX_CMDLINE_POOL_SIZE (4ULL << 20)	/* one max-order buddy block */

static struct {
	char dev[24];
	u64 size;
	phys_addr_t base;	/* 0 until the device appears */
	bool matched;		/* a device had that name */
} cmdline_pools[MAX_CMDLINE_POOLS];
static unsigned int nr_cmdline_pools;
static char restricted_opt[128];

static const char *restricted_parse(const char *val)
{
	char buf[128], *s = buf, *tok, *at;
	unsigned int n = 0;
	u64 size;

	strlcpy(buf, val, sizeof(buf));
	while ((tok = strsep(&s, ",")) != NULL) {
		at = strchr(tok, '@');
		if (!at || at == tok || !at[1])
			return "expected <size>@<device>[,...], e.g. 1M@0000:00:04.0";
		*at = '\0';
		if (kstrtosize(tok, &size) || size < IO_TLB_SEGSIZE * IO_TLB_SIZE ||
		    size > MAX_CMDLINE_POOL_SIZE || (size & (size - 1)))
			return "size must be a power of two from 256K to 4M";
		if (n == MAX_CMDLINE_POOLS)
			return "at most 4 restricted pools";
		if (strlen(at + 1) >= sizeof(cmdline_pools[0].dev))
			return "device name too long";
		strlcpy(cmdline_pools[n].dev, at + 1, sizeof(cmdline_pools[0].dev));
		cmdline_pools[n].size = size;
		cmdline_pools[n].base = 0;
		cmdline_pools[n].matched = false;
		n++;
	}
	nr_cmdline_pools = n;
	return NULL;
}
PARAM_STRING_CHECKED("swiotlb.restricted", restricted_opt, restricted_parse,
		     "restricted DMA pools: <size>@<device>[,...] (a device bounces only there)");

/*
 * swiotlb_dev_init()'s second half: is this device named on the command
 * line? name is the device's own, or (swiotlb_restricted_alias()) that of
 * a device it does the DMA for: "virtio0" is a virtio device whose
 * transport, the PCI function or the MMIO window, maps the buffers.
 */
static void cmdline_dev_init(struct device *dev, const char *name)
{
	struct page *page;
	unsigned int i;

	for (i = 0; i < nr_cmdline_pools; i++) {
		if (!name || strcmp(name, cmdline_pools[i].dev))
			continue;
		cmdline_pools[i].matched = true;
		if (!cmdline_pools[i].base) {
			page = alloc_pages(GFP_KERNEL | __GFP_DMA32 | __GFP_NOWARN,
					   get_order(cmdline_pools[i].size));
			if (!page) {
				pr_err("swiotlb: %s: no %llu KiB below 4 GiB for its restricted pool; using the default\n",
				       dev_name(dev), (unsigned long long)cmdline_pools[i].size >> 10);
				return;
			}
			cmdline_pools[i].base = page_to_phys(page);
		}
		/* Not given back on failure: the region is the device's, used or not. */
		rmem_swiotlb_device_init(dev, cmdline_pools[i].base, cmdline_pools[i].size);
		return;
	}
}

void swiotlb_restricted_dev_init(struct device *dev)
{
	if (nr_cmdline_pools)
		cmdline_dev_init(dev, dev->name);
}

void swiotlb_restricted_alias(struct device *dma_dev, const char *name)
{
	if (nr_cmdline_pools)
		cmdline_dev_init(dma_dev, name);
}

/* After the drivers have probed: a name that matched nothing is a typo, said once. */
void swiotlb_restricted_report_unmatched(void)
{
	for (unsigned int i = 0; i < nr_cmdline_pools; i++)
		if (!cmdline_pools[i].matched)
			pr_warn("swiotlb: swiotlb.restricted=...@%s: no device has that name "
				"(a PCI function as 0000:00:02.0, a virtio device as virtio0, an SD "
				"host as sdhci); no restricted pool made\n", cmdline_pools[i].dev);
}

/*
 * Like Linux's of_dma_configure(): a region the tree names but that cannot
 * be used is reported, and the device carries on with the default pools.
 */
void of_swiotlb_dev_init(struct device *dev, const void *fdt, int node)
{
	const char *why;
	u64 base, size;
	int ret;

	if (dev->dma_io_tlb_mem && dev->dma_io_tlb_mem->restricted)
		return; /* the command line already gave it one */
	ret = of_restricted_dma_region(fdt, node, &base, &size, &why);
	if (ret < 0)
		pr_warn("swiotlb: %s: %s; using the default pools\n", dev_name(dev), why);
	if (ret > 0 && rmem_swiotlb_device_init(dev, base, size))
		pr_warn("swiotlb: %s: restricted pool not set up; using the default pools\n",
			dev_name(dev));
}

void swiotlb_restricted_print(void)
{
	struct restricted_mem *r;

	mutex_lock(&restricted_lock);
	list_for_each_entry(r, &restricted_mems, node) {
		kprintf("swiotlb: restricted pool %#llx+%#llx for %s\n", (unsigned long long)r->base,
		       (unsigned long long)r->size, r->who);
		swiotlb_print_mem(&r->mem);
	}
	mutex_unlock(&restricted_lock);
}
