/* SPDX-License-Identifier: MIT */
/*
 * io_tlb_ops that drive the slot allocator (dma/swiotlb.c) without the
 * machine's own pool: memory from kmalloc within a byte budget, and a
 * "physical" address that is the pointer itself, so nothing depends on
 * where the kernel put its pool. The ktest (dma/swiotlb_test.c, on the
 * host and in the kernel) and the fuzzer (tests/host/fuzz_swiotlb.c)
 * both use them, setting and reading tlb_state between steps.
 */
#ifndef DMA_SWIOTLB_TEST_OPS_H
#define DMA_SWIOTLB_TEST_OPS_H

#include <pagoda/swiotlb.h>

struct swiotlb_test_state {
	long budget;		/* bytes of pool memory the ops may still give */
	unsigned int cpu;	/* what this_cpu() answers */
	int grow_requests;	/* schedule_grow() calls */
};

extern struct swiotlb_test_state tlb_state;
extern const struct io_tlb_ops swiotlb_test_ops;

#endif
