/* SPDX-License-Identifier: MIT */
/*
 * Where a snapshot exception's time goes, step by step (dm-trace.c). Each
 * step is a latency histogram filled as exceptions pass; `dmsnapstat`
 * prints them and `bench dmsnap` prints them per scheme.
 */
#ifndef BLOCK_DM_TRACE_H
#define BLOCK_DM_TRACE_H

#include <pagoda/lat_hist.h>

enum dm_trace_step {
	DM_TRACE_LOOKUP,	/* a write reaches the snapshot -> its copy is queued */
	DM_TRACE_KCOPYD_QUEUE,	/* copy queued -> a kcopyd worker submits the read */
	DM_TRACE_KCOPYD_READ,	/* read submitted -> read done (interrupt) */
	DM_TRACE_KCOPYD_HANDOFF, /* read done -> a worker submits the writes */
	DM_TRACE_KCOPYD_WRITE,	/* writes submitted -> the last is done */
	DM_TRACE_KCOPYD_NOTIFY,	/* writes done -> the notify function runs */
	DM_TRACE_COMMIT,	/* commit asked -> committed (the batch's area written) */
	DM_TRACE_RELEASE,	/* committed -> the held bios let go */
	DM_TRACE_TOTAL,		/* a write reaches the snapshot -> released */
	DM_TRACE_NR_STEPS
};

struct dm_trace {
	struct lat_hist step[DM_TRACE_NR_STEPS];
	u64 exceptions_committed;	/* records the persistent store wrote */
	u64 metadata_writes;		/* area writes that carried them */
};

extern struct dm_trace dm_trace;
extern const char *const dm_trace_step_names[DM_TRACE_NR_STEPS];

/* Record step as lasting from t0 (arch_cycles()) until now; returns now. t0 0: not timed. */
u64 dm_trace_step(enum dm_trace_step step, u64 t0);
/* The persistent store wrote one area carrying nr new records. */
void dm_trace_metadata_write(unsigned int nr);
void dm_trace_reset(void);
/* dst += the live counters (for a bench's per-scheme totals) */
void dm_trace_merge(struct dm_trace *dst);
/* The per-step table, as `dmsnapstat` prints it. */
void dm_trace_print(const struct dm_trace *t, const char *indent);

#endif
