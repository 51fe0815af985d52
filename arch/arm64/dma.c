// SPDX-License-Identifier: MIT
/*
 * Cache maintenance for DMA on arm64. A device that does not snoop (the
 * Pi 4's EMMC2, anything without "dma-coherent" in the device tree) reads
 * and writes memory behind the data cache, so before it reads, the CPU's
 * dirty lines are cleaned to the point of coherency; before the CPU reads
 * what it wrote, the CPU's copies are invalidated (a line speculatively
 * refetched during the transfer would otherwise hide the new data, which
 * is why invalidation happens after, not before, the transfer). Operations
 * go through the direct map, which covers all RAM.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>

static u64 dcache_line(void)
{
	u64 ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	return 4ULL << ((ctr >> 16) & 0xf); /* DminLine: log2 of words */
}

bool arch_dma_default_coherent(void)
{
	return false;
}

void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, int dir)
{
	u64 line = dcache_line();
	u64 start = (u64)__va(paddr) & ~(line - 1), end = (u64)__va(paddr) + size;

	(void)dir;
	for (u64 a = start; a < end; a += line)
		__asm__ volatile("dc cvac, %0" ::"r"(a) : "memory");
	__asm__ volatile("dsb sy" ::: "memory");
}

void arch_sync_dma_for_cpu(phys_addr_t paddr, size_t size, int dir)
{
	u64 line = dcache_line();
	u64 from = (u64)__va(paddr), to = from + size;

	(void)dir;
	/*
	 * A line only partly inside the buffer may hold the CPU's own
	 * neighbouring data: clean it before dropping it. Whole lines are
	 * just invalidated (cleaning them would write stale data over what
	 * the device wrote).
	 */
	for (u64 a = from & ~(line - 1); a < to; a += line) {
		if (a < from || a + line > to)
			__asm__ volatile("dc civac, %0" ::"r"(a) : "memory");
		else
			__asm__ volatile("dc ivac, %0" ::"r"(a) : "memory");
	}
	__asm__ volatile("dsb sy" ::: "memory");
}
