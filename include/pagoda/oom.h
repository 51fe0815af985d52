/* SPDX-License-Identifier: MIT */
/*
 * The out-of-memory killer (mm/oom_kill.c), as Linux's include/linux/oom.h.
 */
#ifndef PAGODA_OOM_H
#define PAGODA_OOM_H

#include <pagoda/types.h>

struct process;

/* oom_score_adj's range: the lowest never chosen, the highest chosen first. */
#define OOM_SCORE_ADJ_MIN (-1000)
#define OOM_SCORE_ADJ_MAX 1000

/* Killing p would give back this many pages (LONG_MIN: not a candidate). */
long oom_badness(struct process *p, unsigned long totalpages);
/*
 * A fault in p found no page: true when a victim (not p) was killed or is
 * dying and its memory is back, so p should touch again; false when p
 * itself must go.
 */
bool pagefault_out_of_memory(struct process *p);
/* p, an exiting process, has given all its memory back. */
void exit_oom_victim(struct process *p);

#endif
