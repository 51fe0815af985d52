/* SPDX-License-Identifier: MIT */
/*
 * GFP ("get free pages") flags: what a caller of the page allocator or of
 * kmalloc asks for, with Linux's names.
 *
 *   zone        __GFP_DMA (below the DMA limit), __GFP_DMA32 (below 4 GiB),
 *               or neither (any zone, Normal first). A request falls back to
 *               lower zones, never to higher ones.
 *   mobility    __GFP_MOVABLE: the page could be moved later (user memory);
 *               it is served from the MIGRATE_MOVABLE free lists, keeping
 *               unmovable kernel allocations together.
 *   behaviour   __GFP_ZERO (clear the memory), __GFP_ATOMIC (the caller
 *               cannot sleep), __GFP_NOWARN (failure is expected; stay quiet),
 *               __GFP_MEMALLOC (may empty the reserves: memtest, tests).
 */
#ifndef PAGODA_GFP_H
#define PAGODA_GFP_H

typedef unsigned int gfp_t;

#define __GFP_DMA 0x01u
#define __GFP_DMA32 0x02u
#define __GFP_MOVABLE 0x08u
#define __GFP_ZERO 0x100u
#define __GFP_ATOMIC 0x200u
#define __GFP_NOWARN 0x400u
#define __GFP_MEMALLOC 0x800u

#define GFP_ZONEMASK (__GFP_DMA | __GFP_DMA32)

#define GFP_KERNEL 0u
#define GFP_ATOMIC __GFP_ATOMIC
#define GFP_NOWAIT __GFP_ATOMIC
#define GFP_DMA __GFP_DMA
#define GFP_DMA32 __GFP_DMA32
#define GFP_USER __GFP_MOVABLE
#define GFP_HIGHUSER_MOVABLE __GFP_MOVABLE

#endif
