// SPDX-License-Identifier: MIT
/*
 * mincore(2), after Linux's mm/mincore.c: which pages of a range are in
 * memory, one byte per page (bit 0 set: resident). Nothing is ever paged
 * out here, so "resident" means what it means for Linux before any
 * reclaim:
 *
 *   a page mapped in the process (the shared zero page too) ........ 1
 *   an unmapped page of a shared object that holds it ............. 1
 *   an unmapped page of an initramfs file (all of it is in memory) . 1
 *   an unmapped page of an anonymous area (never touched, or
 *     dropped by MADV_DONTNEED) ................................... 0
 *
 * Errors as Linux's: -EINVAL for a start off a page, -ENOMEM when the
 * range leaves user space or runs into a hole (the vector is written up
 * to the hole), -EFAULT when the vector cannot be written.
 */
#include <pagoda/arch.h>
#include <pagoda/process.h>
#include <pagoda/shmem.h>
#include <pagoda/uaccess.h>
#include "../kernel/syscalls.h"

/* One page's byte, for page va of area v. */
static u8 mincore_page(struct process *p, const struct vm_area *v, u64 va)
{
	phys_addr_t pa;
	unsigned int prot;

	if (!arch_lookup(&p->mm, va, &pa, &prot))
		return 1;
	if (v->rf)
		return 1;
	if (v->shm)
		return shmem_find_page(v->shm, v->pgoff + ((va - v->start) >> PAGE_SHIFT)) != NULL;
	return 0;
}

/*
 * Up to n pages from start, no further than the area holding start: how
 * many were filled in, or -ENOMEM when no area holds start.
 */
static long do_mincore(struct process *p, u64 start, unsigned long n, u8 *vec)
{
	struct vm_area *v = find_vma(p, start);
	unsigned long i;

	if (!v || v->start > start)
		return -ENOMEM;
	for (i = 0; i < n && start + (i << PAGE_SHIFT) < v->end; i++)
		vec[i] = mincore_page(p, v, start + (i << PAGE_SHIFT));
	return (long)i;
}

/* mincore(start, len, vec) */
long sys_mincore(const unsigned long *args)
{
	struct process *p = current_process();
	u64 start = args[0], len = args[1], uvec = args[2];
	unsigned long pages = (len >> PAGE_SHIFT) + ((len & (PAGE_SIZE - 1)) != 0);
	u8 buf[256];

	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!access_ok(start, len))
		return -ENOMEM;
	if (!access_ok(uvec, pages))
		return -EFAULT;
	while (pages) {
		long n;

		down_read(&p->mmap_lock);
		n = do_mincore(p, start, MIN(pages, sizeof(buf)), buf);
		up_read(&p->mmap_lock);
		if (n < 0)
			return n;
		/* outside mmap_lock: a fault on the vector takes it */
		if (copy_to_user(uvec, buf, (size_t)n))
			return -EFAULT;
		pages -= (unsigned long)n;
		uvec += (u64)n;
		start += (u64)n << PAGE_SHIFT;
	}
	return 0;
}
