/* SPDX-License-Identifier: MIT */
/*
 * x86-64 per-CPU access: GS base points at this CPU's struct cpu_local,
 * whose first two words are a pointer to itself and the current task
 * (pagoda/smp.h fixes that layout). A %gs-relative load is one
 * instruction, so a preemption cannot split "which CPU" from "read it".
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

struct cpu_local;
struct task;

static inline struct cpu_local *arch_this_cpu(void)
{
	struct cpu_local *p;

	__asm__ volatile("movq %%gs:0, %0" : "=r"(p));
	return p;
}

static inline struct task *arch_current(void)
{
	struct task *t;

	__asm__ volatile("movq %%gs:8, %0" : "=r"(t));
	return t;
}

#endif
