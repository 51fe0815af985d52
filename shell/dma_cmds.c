// SPDX-License-Identifier: MIT
/*
 * The DMA layer's shell commands: `swiotlb` (the bounce-buffer pools, their
 * use and counters) and `dmadebug` (the DMA API debugger). What they print
 * is the mechanism's own (swiotlb_print(), dma_debug_print()); here is only
 * the registration.
 */
#include <pagoda/dma-debug.h>
#include <pagoda/shell.h>
#include <pagoda/swiotlb.h>

static int cmd_swiotlb(int argc, char **argv)
{
	swiotlb_print();
	return 0;
}
SHELL_CMD(swiotlb, "swiotlb", "bounce buffer pools, use and counters", cmd_swiotlb);

static int cmd_dmadebug(int argc, char **argv)
{
	dma_debug_print();
	return 0;
}
SHELL_CMD(dmadebug, "dmadebug", "the DMA API debugger's state and the mistakes it counted",
	  cmd_dmadebug);
