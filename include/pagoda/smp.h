/* SPDX-License-Identifier: MIT */
/*
 * CPU numbering. Per-CPU arrays are sized by NR_CPUS and indexed by
 * smp_processor_id(). Until secondary CPUs are brought up (the SMP issue)
 * only CPU 0 runs.
 */
#ifndef PAGODA_SMP_H
#define PAGODA_SMP_H

#include <pagoda/types.h>

#define NR_CPUS 16

unsigned int smp_processor_id(void);
unsigned int num_online_cpus(void);

#endif
