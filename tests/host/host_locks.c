// SPDX-License-Identifier: MIT
/*
 * The locking and CPU calls portable code makes, for the host test runner:
 * one CPU, one thread, so a spinlock is its bare ticket lock and nothing
 * else (the kernel's kernel/locking/ adds statistics and lockdep).
 */
#include <pagoda/rculist.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>

bool lockdep_enabled, lockstat_enabled;

unsigned int num_online_cpus(void) { return 1; }
unsigned int num_possible_cpus(void) { return 1; }
bool need_resched(void) { return false; }
void preempt_schedule(void) { }
void __might_sleep(const char *file, int line) { (void)file; (void)line; }
void flush_tlb_kernel_range(u64 start, u64 end) { (void)start; (void)end; }

void spin_lock(spinlock_t *l) { arch_spin_lock(&l->raw); }
bool spin_trylock(spinlock_t *l) { return arch_spin_trylock(&l->raw); }
void spin_unlock(spinlock_t *l) { arch_spin_unlock(&l->raw); }
void spin_lock_irq(spinlock_t *l) { arch_spin_lock(&l->raw); }
void spin_unlock_irq(spinlock_t *l) { arch_spin_unlock(&l->raw); }

unsigned long _spin_lock_irqsave(spinlock_t *l)
{
	unsigned long flags = arch_irq_save();

	arch_spin_lock(&l->raw);
	return flags;
}

void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	arch_spin_unlock(&l->raw);
	arch_irq_restore(flags);
}

/* One CPU: running fn here is running it everywhere. */
void on_each_cpu(smp_call_func_t fn, void *info, bool wait)
{
	(void)wait;
	fn(info);
}

/* One CPU, and no reader walks while a writer waits: the grace period is over. */
void synchronize_rcu(void)
{
}
