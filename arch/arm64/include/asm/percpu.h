/* SPDX-License-Identifier: MIT */
/*
 * arm64 per-CPU access, as Linux does it: TPIDR_EL1 (a register the
 * hardware leaves to the OS) holds this CPU's struct cpu_local, and SP_EL0
 * holds the current task. The kernel always runs on SP_EL1, so SP_EL0 is
 * free for that until there is user space (whose stack pointer the entry
 * code would then swap out). Each read is one MRS: a preemption cannot
 * fall between "which CPU" and "read its field".
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

struct cpu_local;
struct task;

static inline struct cpu_local *arch_this_cpu(void)
{
	struct cpu_local *p;

	__asm__ volatile("mrs %0, tpidr_el1" : "=r"(p));
	return p;
}

static inline struct task *arch_current(void)
{
	struct task *t;

	__asm__ volatile("mrs %0, sp_el0" : "=r"(t));
	return t;
}

#endif
