// SPDX-License-Identifier: MIT
/*
 * CPU identity while only the boot CPU runs. The SMP issue replaces this
 * with per-CPU data set up for each CPU it brings online.
 */
#include <pagoda/smp.h>

unsigned int smp_processor_id(void)
{
	return 0;
}

unsigned int num_online_cpus(void)
{
	return 1;
}
