// SPDX-License-Identifier: MIT
/*
 * A stand-in for mm/'s pgtable_alloc_page(): zeroed pages from a static
 * pool in the image (so reachable through the direct map, which covers the
 * image's RAM). It is weak: once mm/ provides the real allocator, the
 * linker picks that one and this pool is never used.
 */
#include <pagoda/arch.h>
#include <asm/arm64.h>

#define POOL_PAGES 64
static u8 pool[POOL_PAGES][PAGE_SIZE] __aligned(PAGE_SIZE);
static unsigned int pool_used;

__attribute__((weak)) phys_addr_t pgtable_alloc_page(void)
{
	if (pool_used == POOL_PAGES)
		return 0;
	/* .bss starts zeroed, and each page is handed out once. */
	return __pa_kernel(pool[pool_used++]);
}
