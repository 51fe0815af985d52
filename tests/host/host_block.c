// SPDX-License-Identifier: MIT
/*
 * What the block core's pure code needs on the host beyond kmalloc
 * (host_dma.c): wake-ups that have no one to wake, since the host runner
 * is one thread.
 */
#include <pagoda/wait.h>

void __wake_up(struct wait_queue_head *wq, int nr)
{
	(void)wq;
	(void)nr;
}
