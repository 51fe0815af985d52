/* SPDX-License-Identifier: MIT */
/*
 * arch_this_cpu() and arch_current() for an arch that keeps both pointers
 * where one instruction reads them. Both arches do (x86-64 at %gs:0 and
 * %gs:8, arm64 in TPIDR_EL1 and SP_EL0), so the accessors are written once
 * here and the arch's asm/percpu.h only names the two instructions:
 *
 *   __ARCH_THIS_CPU_INSN  loads this CPU's struct cpu_local into %0
 *   __ARCH_CURRENT_INSN   loads the running task into %0
 *
 * One instruction is the point: a preemption (and so a move to another
 * CPU) cannot fall between "which CPU" and "read its field".
 */
#ifndef ASM_GENERIC_PERCPU_H
#define ASM_GENERIC_PERCPU_H

#if !defined(__ARCH_THIS_CPU_INSN) || !defined(__ARCH_CURRENT_INSN)
#error "asm/percpu.h: define __ARCH_THIS_CPU_INSN and __ARCH_CURRENT_INSN first"
#endif

struct cpu_local;
struct task;

static inline struct cpu_local *arch_this_cpu(void)
{
	struct cpu_local *p;

	__asm__ volatile(__ARCH_THIS_CPU_INSN : "=r"(p));
	return p;
}

static inline struct task *arch_current(void)
{
	struct task *t;

	__asm__ volatile(__ARCH_CURRENT_INSN : "=r"(t));
	return t;
}

#endif
