/* SPDX-License-Identifier: MIT */
/*
 * Checkpoint/restore of processes (kernel/cr/, docs/checkpoint-restore.md):
 * what the rest of the kernel calls. The freeze points sit on the way back
 * to user mode, where a process's whole user state is in its saved frame
 * and struct arch_user_state, and nowhere else.
 */
#ifndef PAGODA_CR_H
#define PAGODA_CR_H

#include <pagoda/types.h>

struct process;
struct pt_regs;

/* From signal_deliver(): stop here while a checkpoint reads the process. */
void cr_freeze_point(struct process *p, struct pt_regs *regs);
/*
 * From syscall_dispatch(): a call that returned -EINTR because of a
 * freeze (no signal wants it) is rewound to run again after the stop.
 */
void cr_note_interrupted(struct process *p, unsigned long nr, unsigned long arg0);
/*
 * From the arch's single-step trap in user mode: true when the step was
 * the freeze's (it steps a process out of the vDSO, freeze.c), and the
 * caller then runs signal_deliver(), where it stops once out; false: a
 * step the program asked for itself (SIGTRAP).
 */
bool cr_step_trap(struct pt_regs *regs);
/* Before a signal frame is pushed: the frame must not save the freeze's step flag. */
void cr_step_off(struct pt_regs *regs);

/* At boot: the running vDSO's symbol table, once (CRIU's kdat), and cr.vdso=. */
void cr_init(void);

/* The kernel operations each path took (bench cr prints them). */
struct cr_stats {
	u64 symtab_parses;  /* vDSO ELF symbol tables read */
	u64 vdso_maps;      /* vDSO/vvar mapped in place */
	u64 vdso_moves;     /* vDSO/vvar moved from a parking place */
	u64 trampolines;    /* jumps written at old entry points */
	u64 pte_updates;    /* page-table entries set or cleared for the vDSO */
	u64 pages_copied;   /* pages written into images or restored processes */
	u64 vdso_ns;        /* time in restore's vDSO step: the table, the mappings, jumps */
};
extern struct cr_stats cr_stats;

#endif
