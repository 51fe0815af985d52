// SPDX-License-Identifier: MIT
/* The slot allocator's test ops (swiotlb_test_ops.h says who uses them). */
#include <pagoda/slab.h>
#include "swiotlb_test_ops.h"

struct swiotlb_test_state tlb_state;

/*
 * The ops promise IO_TLB_SIZE-aligned memory, which kmalloc does not (on
 * the host it is calloc): take a slot more and keep the real start just
 * below the aligned one.
 */
static void *t_alloc_pages(struct io_tlb_mem *mem, size_t bytes, u64 limit,
			   bool may_sleep, phys_addr_t *phys)
{
	u8 *raw, *p;

	if ((long)bytes > tlb_state.budget)
		return NULL;
	raw = kmalloc(bytes + IO_TLB_SIZE, GFP_KERNEL);
	if (!raw)
		return NULL;
	p = (u8 *)ALIGN_UP((uintptr_t)raw + sizeof(void *), IO_TLB_SIZE);
	((void **)p)[-1] = raw;
	tlb_state.budget -= bytes;
	*phys = (phys_addr_t)(uintptr_t)p;
	return p;
}

static void t_free_pages(struct io_tlb_mem *mem, void *vaddr, size_t bytes)
{
	tlb_state.budget += bytes;
	kfree(((void **)vaddr)[-1]);
}

static void *t_alloc_meta(struct io_tlb_mem *mem, size_t bytes, bool may_sleep)
{
	return kmalloc(bytes, GFP_KERNEL);
}

static void t_free_meta(struct io_tlb_mem *mem, void *p, size_t bytes)
{
	kfree(p);
}

static void *t_phys_to_virt(phys_addr_t phys)
{
	return (void *)(uintptr_t)phys;
}

static unsigned int t_this_cpu(void)
{
	return tlb_state.cpu;
}

static void t_schedule_grow(struct io_tlb_mem *mem)
{
	tlb_state.grow_requests++;
}

const struct io_tlb_ops swiotlb_test_ops = {
	.alloc_pages = t_alloc_pages,
	.free_pages = t_free_pages,
	.alloc_meta = t_alloc_meta,
	.free_meta = t_free_meta,
	.phys_to_virt = t_phys_to_virt,
	.this_cpu = t_this_cpu,
	.schedule_grow = t_schedule_grow,
};
