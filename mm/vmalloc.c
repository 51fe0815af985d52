// SPDX-License-Identifier: MIT
/*
 * vmalloc and ioremap over the arch's mapping calls in the kernel's address
 * space, init_mm (arch.h).
 *
 * The VMALLOC_START..VMALLOC_END window is handed out first fit from a
 * sorted list of areas (struct vmap_area). Every area is followed by one
 * unmapped page, so running off the end of a buffer faults at once instead
 * of corrupting the neighbour. vmalloc() fills an area with order-0 pages
 * from wherever the buddy allocator has them; ioremap() maps a device's
 * physical range uncached.
 */
#include <pagoda/arch.h>
#include <pagoda/list.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/spinlock.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>
#include "internal.h"
#include "memsim.h"

struct vmap_area {
	unsigned long va_start, va_end; /* mapped part; the guard page follows */
	struct list_head list;
	struct page **pages; /* vmalloc: the frames; NULL for ioremap */
	unsigned long nr_pages;
};

static LIST_HEAD(vmap_areas); /* sorted by address */
static DEFINE_SPINLOCK(vmap_lock);

/* Reserve size bytes (plus a guard page) of the window; NULL when full. */
static struct vmap_area *alloc_vmap_area(unsigned long size)
{
	struct vmap_area *va = kzalloc(sizeof(*va), GFP_KERNEL), *it;
	unsigned long addr = VMALLOC_START;
	struct list_head *pos = &vmap_areas;

	if (!va)
		return NULL;
	spin_lock(&vmap_lock);
	list_for_each_entry(it, &vmap_areas, list) {
		if (addr + size + PAGE_SIZE <= it->va_start)
			break;
		addr = it->va_end + PAGE_SIZE;
	}
	pos = &it->list; /* insert before it (or at the end) */
	if (addr + size + PAGE_SIZE > VMALLOC_END || addr + size < addr) {
		spin_unlock(&vmap_lock);
		kfree(va);
		return NULL;
	}
	va->va_start = addr;
	va->va_end = addr + size;
	list_add_tail(&va->list, pos);
	spin_unlock(&vmap_lock);
	return va;
}

static struct vmap_area *find_vmap_area(unsigned long addr)
{
	struct vmap_area *va;

	spin_lock(&vmap_lock);
	list_for_each_entry(va, &vmap_areas, list)
		if (addr >= va->va_start && addr < va->va_end) {
			spin_unlock(&vmap_lock);
			return va;
		}
	spin_unlock(&vmap_lock);
	return NULL;
}

static void free_vmap_area(struct vmap_area *va)
{
	spin_lock(&vmap_lock);
	list_del(&va->list);
	spin_unlock(&vmap_lock);
	kfree(va);
}

static void free_area_pages(struct vmap_area *va, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		__free_page(va->pages[i]);
	kfree(va->pages);
}

static void *__vmalloc(size_t size, gfp_t gfp)
{
	unsigned long n = PFN_UP(size);
	struct vmap_area *va;

	if (!size || n > (VMALLOC_END - VMALLOC_START) / PAGE_SIZE)
		return NULL;
	va = alloc_vmap_area(n * PAGE_SIZE);
	if (!va)
		return NULL;
	va->pages = kcalloc(n, sizeof(struct page *), GFP_KERNEL);
	if (!va->pages)
		goto fail_area;
	for (unsigned long i = 0; i < n; i++) {
		va->pages[i] = alloc_page(gfp);
		if (!va->pages[i] ||
		    arch_map_range(&init_mm, va->va_start + i * PAGE_SIZE,
				   page_to_phys(va->pages[i]), PAGE_SIZE, PROT_PRESENT | PROT_WRITE)) {
			if (va->pages[i])
				__free_page(va->pages[i]);
			if (i)
				arch_unmap_range(&init_mm, va->va_start, i * PAGE_SIZE);
			free_area_pages(va, i);
			goto fail_area;
		}
	}
	va->nr_pages = n;
	return (void *)va->va_start;

fail_area:
	free_vmap_area(va);
	return NULL;
}

void *vmalloc(size_t size)
{
	return __vmalloc(size, GFP_KERNEL);
}

void *vzalloc(size_t size)
{
	return __vmalloc(size, GFP_KERNEL | __GFP_ZERO);
}

void vfree(const void *addr)
{
	struct vmap_area *va;

	if (!addr)
		return;
	va = find_vmap_area((unsigned long)addr);
	if (!va || va->va_start != (unsigned long)addr || !va->pages) {
		pr_err("vfree(%p): not the start of a vmalloc area\n", addr);
		dump_stack();
		return;
	}
	arch_unmap_range(&init_mm, va->va_start, va->va_end - va->va_start);
	free_area_pages(va, va->nr_pages);
	free_vmap_area(va);
}

int vmalloc_protect(const void *addr, unsigned int prot)
{
	struct vmap_area *va = find_vmap_area((unsigned long)addr);

	if (!va || va->va_start != (unsigned long)addr || !va->pages)
		return -EINVAL;
	return arch_protect_range(&init_mm, va->va_start, va->va_end - va->va_start, prot);
}

bool is_vmalloc_addr(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return a >= VMALLOC_START && a < VMALLOC_END;
}

struct page *vmalloc_to_page(const void *addr)
{
	struct vmap_area *va = find_vmap_area((unsigned long)addr);

	if (!va || !va->pages)
		return NULL;
	return va->pages[((unsigned long)addr - va->va_start) / PAGE_SIZE];
}

void *ioremap_prot(phys_addr_t pa, size_t size, unsigned int prot)
{
	phys_addr_t base = ALIGN_DOWN(pa, PAGE_SIZE);
	unsigned long len = ALIGN_UP(pa + size, PAGE_SIZE) - base;
	struct vmap_area *va;

	if (!size)
		return NULL;
	va = alloc_vmap_area(len);
	if (!va)
		return NULL;
	if (arch_map_range(&init_mm, va->va_start, base, len, prot)) {
		free_vmap_area(va);
		return NULL;
	}
	return (void *)(va->va_start + (pa - base));
}

void *ioremap(phys_addr_t pa, size_t size)
{
	return ioremap_prot(pa, size, PROT_PRESENT | PROT_WRITE | PROT_DEVICE);
}

void iounmap(void *addr)
{
	struct vmap_area *va = find_vmap_area((unsigned long)addr);

	if (!va || va->pages) {
		pr_err("iounmap(%p): not an ioremap area\n", addr);
		return;
	}
	arch_unmap_range(&init_mm, va->va_start, va->va_end - va->va_start);
	free_vmap_area(va);
}

/* The areas of the vmalloc window, as Linux's /proc/vmallocinfo lists them. */
void vmalloc_print_info(void)
{
	struct vmap_area *va;

	spin_lock(&vmap_lock);
	list_for_each_entry(va, &vmap_areas, list)
		kprintf("%#lx-%#lx %8lu KiB %s\n", va->va_start, va->va_end,
			(va->va_end - va->va_start) >> 10, va->pages ? "vmalloc" : "ioremap");
	spin_unlock(&vmap_lock);
}

/* mm/memsim.h: simulated nodes keep their struct pages here. */
/* Quietly: a simulated node too big for this machine is its caller's to report. */
void *memsim_alloc(size_t size)
{
	return __vmalloc(size, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
}

void memsim_free(void *p)
{
	vfree(p);
}
