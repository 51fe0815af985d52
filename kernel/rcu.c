// SPDX-License-Identifier: MIT
/*
 * The grace period of include/pagoda/rculist.h. Readers walk with
 * interrupts off, so once every online CPU has taken an interrupt, here an
 * IPI that does nothing, every walk that began before has ended. Linux
 * (kernel/rcu/) instead watches each CPU pass through a quiescent state,
 * which costs a reader nothing and a writer no IPIs; Pagoda's few writers
 * (swiotlb shrinking a pool, every few seconds at most) can pay for them.
 */
#include <pagoda/rculist.h>
#include <pagoda/smp.h>

static void rcu_ipi(void *info)
{
}

void synchronize_rcu(void)
{
	on_each_cpu(rcu_ipi, NULL, true);
}
