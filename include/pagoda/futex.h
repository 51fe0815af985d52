/* SPDX-License-Identifier: MIT */
/*
 * Fast user-space mutexes (kernel/futex/): the kernel's half of every
 * pthread lock, condition variable and join. A futex is a 32-bit word in
 * a process's memory; a thread sleeps on it while it holds a value
 * (futex_wait) and is woken by another (futex_wake). The kernel keeps
 * nothing for a futex nobody sleeps on.
 */
#ifndef PAGODA_FUTEX_H
#define PAGODA_FUTEX_H

#include <pagoda/types.h>

struct process;
struct thread;

#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

/* Wake up to nr threads of p sleeping on uaddr whose bitset meets bitset: how many. */
int futex_wake(struct process *p, u64 uaddr, int nr, u32 bitset);
/* At a thread's exit: mark the futexes on its robust list owner-died and wake a waiter each. */
void exit_robust_list(struct process *p, struct thread *t);

#endif
