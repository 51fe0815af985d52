/* SPDX-License-Identifier: MIT */
/*
 * x86 memory barriers for device I/O. Stores are not reordered with other
 * stores, nor loads with loads, and device memory is uncached, so ordering
 * CPU accesses against DMA needs only the compiler's cooperation; the full
 * barrier still needs mfence (a store may pass a later load).
 */
#ifndef ASM_BARRIER_H
#define ASM_BARRIER_H

#ifndef barrier
#define barrier() __asm__ volatile("" ::: "memory")
#endif
#define mb() __asm__ volatile("mfence" ::: "memory")
#define rmb() __asm__ volatile("lfence" ::: "memory")
#define wmb() __asm__ volatile("sfence" ::: "memory")
#define dma_rmb() barrier()
#define dma_wmb() barrier()
#define __iormb() barrier()
#define __iowmb() barrier()

#endif
