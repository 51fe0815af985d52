/* SPDX-License-Identifier: MIT */
#ifndef HOST_DMA_H
#define HOST_DMA_H
/* Counters and fault injection of tests/host/host_dma.c. */
extern long host_dma_maps, host_dma_unmaps;
extern long host_dma_fail_after; /* -1: never; n: the (n+1)th map fails */
#endif
