// SPDX-License-Identifier: MIT
/*
 * DMA on x86 is cache coherent: every bus master's accesses snoop the CPU
 * caches, so the DMA API's maintenance hooks have nothing to do.
 */
#include <pagoda/arch.h>

bool arch_dma_default_coherent(void)
{
	return true;
}

void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, int dir)
{
	(void)paddr;
	(void)size;
	(void)dir;
}

void arch_sync_dma_for_cpu(phys_addr_t paddr, size_t size, int dir)
{
	(void)paddr;
	(void)size;
	(void)dir;
}
