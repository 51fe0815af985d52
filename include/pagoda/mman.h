/* SPDX-License-Identifier: MIT */
/*
 * Commit accounting (mm/util.c), as Linux's include/linux/mman.h: what
 * private writable mappings have been promised, and whether one more
 * promise may be made under vm.overcommit_memory.
 */
#ifndef PAGODA_MMAN_H
#define PAGODA_MMAN_H

struct process;

#define OVERCOMMIT_GUESS 0
#define OVERCOMMIT_ALWAYS 1
#define OVERCOMMIT_NEVER 2

extern int sysctl_overcommit_memory;
extern int sysctl_overcommit_ratio;

/* Promise p `pages` more: 0, or -ENOMEM with nothing recorded. */
int vm_enough_memory(struct process *p, unsigned long pages);
/* Take back a promise of `pages` (an accounted area going away). */
void vm_unacct_memory(unsigned long pages);
/* meminfo's Committed_AS and CommitLimit, in pages. */
unsigned long vm_memory_committed(void);
unsigned long vm_commit_limit(void);

#endif
