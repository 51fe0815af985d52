/* SPDX-License-Identifier: MIT */
/*
 * CPUs: numbering, per-CPU data, bring-up and cross-CPU calls.
 *
 * CPU n's data is cpu_locals[n]; the running CPU finds its own through
 * this_cpu() (one %gs-relative load on x86, TPIDR_EL1 on arm64). Per-CPU
 * arrays elsewhere are sized NR_CPUS and indexed by smp_processor_id(),
 * which is only stable while preemption or interrupts are off.
 *
 * Cross-CPU calls (all run in interrupt context on the target):
 *   smp_call_function_single(cpu, fn, info, wait)
 *   smp_call_function(fn, info, wait)     every other online CPU
 *   on_each_cpu(fn, info, wait)           every online CPU, this one too
 *   flush_tlb_kernel_range(start, end)    the TLB shootdown mm calls after
 *                                         changing kernel mappings
 *   flush_tlb_mm_range(mm, start, end)    the same for a user address space,
 *                                         on the CPUs that have it loaded
 */
#ifndef PAGODA_SMP_H
#define PAGODA_SMP_H

#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/types.h>

#define NR_CPUS 16

struct cpu_local {
	/* The arch reads these two at fixed offsets: keep them first. */
	struct cpu_local *self;    /* offset 0 */
	struct task *current_task; /* offset 8 */
	/* For the arch's syscall entry (x86): also at fixed offsets. */
	unsigned long entry_stack;   /* offset 16: current task's kernel stack top */
	unsigned long entry_scratch; /* offset 24: the user's stack pointer, briefly */
	unsigned int cpu;
	unsigned int irq_depth;    /* nested interrupt handlers running */
	bool need_resched;         /* set by the scheduler (maybe remotely) */
	bool irq_from_user;        /* the interrupt being handled came from user mode (the tick's user time) */
	bool online;
	struct task *idle;
	/* statistics for `cpus` */
	u64 irqs, timer_irqs, ipis[NR_IPI];
	u64 idle_cycles, idle_since;
	u64 resched_ipi_cycles;    /* when the last reschedule IPI arrived (bench wakeup) */
};

extern struct cpu_local cpu_locals[NR_CPUS];

static inline struct cpu_local *this_cpu(void)
{
	return arch_this_cpu();
}

static inline unsigned int smp_processor_id(void)
{
	return this_cpu()->cpu;
}

unsigned int num_online_cpus(void);
/* CPUs found by the arch, online or not. */
unsigned int num_possible_cpus(void);
static inline bool cpu_online(unsigned int cpu)
{
	return cpu < NR_CPUS && smp_load_acquire(&cpu_locals[cpu].online);
}
#define for_each_online_cpu(c) \
	for ((c) = 0; (c) < NR_CPUS; (c)++) if (cpu_online(c))

static inline bool in_interrupt(void)
{
	return this_cpu()->irq_depth != 0;
}

typedef void (*smp_call_func_t)(void *info);
int smp_call_function_single(unsigned int cpu, smp_call_func_t fn, void *info, bool wait);
void smp_call_function(smp_call_func_t fn, void *info, bool wait);
void on_each_cpu(smp_call_func_t fn, void *info, bool wait);
/*
 * Calls that waited past smp.csd_lock_timeout= and were reported (with
 * their IPI sent again); a test may shorten the timeout (0: the param's).
 */
unsigned long smp_csd_lock_reports(void);
void smp_set_test_csd_timeout_ms(unsigned int ms);
void flush_tlb_kernel_range(u64 start, u64 end);
void flush_tlb_mm_range(struct mm_struct *mm, u64 start, u64 end);
/* Halt every other CPU (panic, poweroff). */
void smp_send_stop(void);

/* Boot: the boot CPU's per-CPU data, before anything takes a lock. */
void percpu_init_boot_cpu(void);
/* Start every CPU the arch found; they idle until given work. */
void smp_init(void);
/* The first portable code a secondary CPU runs (from the arch). */
__noreturn void secondary_start_kernel(unsigned int cpu);
/* Called by the arch's IPI entry. */
void ipi_handle(enum ipi_type type);

#endif
