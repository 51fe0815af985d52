/* SPDX-License-Identifier: MIT */
/* Host build: a simulated device is another thread at most; fences do. */
#ifndef ASM_BARRIER_H
#define ASM_BARRIER_H

#ifndef barrier
#define barrier() __asm__ volatile("" ::: "memory")
#endif
#define mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define dma_rmb() rmb()
#define dma_wmb() wmb()
#define __iormb() rmb()
#define __iowmb() wmb()

#endif
