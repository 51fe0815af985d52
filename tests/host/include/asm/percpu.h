/* SPDX-License-Identifier: MIT */
/* The host test build is one CPU running one task (tests/host/host_env.c). */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

struct cpu_local;
struct task;
extern struct cpu_local *host_cpu_local;
extern struct task *host_current;

static inline struct cpu_local *arch_this_cpu(void) { return host_cpu_local; }
static inline struct task *arch_current(void) { return host_current; }

#endif
