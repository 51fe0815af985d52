/* SPDX-License-Identifier: MIT */
/*
 * arm64 memory barriers for device I/O. Normal memory accesses may be
 * reordered freely, so the CPU must be told when a device is watching:
 * dma_wmb() orders ring writes before the index that publishes them (outer
 * shareable: the device is an observer outside the CPU cluster), and the
 * I/O barriers order RAM accesses against the MMIO read or write that starts
 * or finishes a transfer.
 */
#ifndef ASM_BARRIER_H
#define ASM_BARRIER_H

#ifndef barrier
#define barrier() __asm__ volatile("" ::: "memory")
#endif
#define mb() __asm__ volatile("dsb sy" ::: "memory")
#define rmb() __asm__ volatile("dsb ld" ::: "memory")
#define wmb() __asm__ volatile("dsb st" ::: "memory")
#define dma_rmb() __asm__ volatile("dmb oshld" ::: "memory")
#define dma_wmb() __asm__ volatile("dmb oshst" ::: "memory")
#define __iormb() __asm__ volatile("dmb oshld" ::: "memory")
#define __iowmb() __asm__ volatile("dmb oshst" ::: "memory")

#endif
