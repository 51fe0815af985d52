// SPDX-License-Identifier: MIT
/*
 * The snapshot's step trace: always compiled, a cycle-counter read and a
 * histogram add per step, so it can stay on in benchmarks. It answers
 * "where does an origin write's time go": in finding its exception, in
 * kcopyd's queue, in the copy's I/O, in the commit (waiting for the batch
 * and the area write), or in letting the held bios go. Linux would hang
 * tracepoints at these points and build the histograms with a hist
 * trigger; here the histograms are the trace.
 * The shell's `dmsnapstat` prints them (shell/dmsnapstat.c).
 */
#include <pagoda/arch.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

#include "dm-trace.h"

struct dm_trace dm_trace;

const char *const dm_trace_step_names[DM_TRACE_NR_STEPS] = {
	[DM_TRACE_LOOKUP] = "lookup",
	[DM_TRACE_KCOPYD_QUEUE] = "kcopyd-queue",
	[DM_TRACE_KCOPYD_READ] = "kcopyd-read",
	[DM_TRACE_KCOPYD_HANDOFF] = "kcopyd-handoff",
	[DM_TRACE_KCOPYD_WRITE] = "kcopyd-write",
	[DM_TRACE_KCOPYD_NOTIFY] = "kcopyd-notify",
	[DM_TRACE_COMMIT] = "commit",
	[DM_TRACE_RELEASE] = "release",
	[DM_TRACE_TOTAL] = "total",
};

u64 dm_trace_step(enum dm_trace_step step, u64 t0)
{
	u64 now = arch_cycles();

	if (t0 && now >= t0)
		lat_hist_record(&dm_trace.step[step], cycles_to_ns(now - t0));
	return now;
}

void dm_trace_metadata_write(unsigned int nr)
{
	__atomic_fetch_add(&dm_trace.exceptions_committed, nr, __ATOMIC_RELAXED);
	__atomic_fetch_add(&dm_trace.metadata_writes, 1, __ATOMIC_RELAXED);
}

void dm_trace_reset(void)
{
	memset(&dm_trace, 0, sizeof(dm_trace));
}

void dm_trace_merge(struct dm_trace *dst)
{
	for (unsigned int i = 0; i < DM_TRACE_NR_STEPS; i++)
		lat_hist_merge(&dst->step[i], &dm_trace.step[i]);
	dst->exceptions_committed += dm_trace.exceptions_committed;
	dst->metadata_writes += dm_trace.metadata_writes;
}

void dm_trace_print(const struct dm_trace *t, const char *indent)
{
	kprintf("%s%-15s %9s %10s %10s %10s %10s\n", indent, "step (us)", "samples", "median",
		"p90", "p99", "max");
	for (unsigned int i = 0; i < DM_TRACE_NR_STEPS; i++) {
		const struct lat_hist *h = &t->step[i];

		kprintf("%s%-15s %9llu %10llu %10llu %10llu %10llu\n", indent,
			dm_trace_step_names[i], (unsigned long long)lat_hist_samples(h),
			(unsigned long long)(lat_hist_percentile(h, 50) / 1000),
			(unsigned long long)(lat_hist_percentile(h, 90) / 1000),
			(unsigned long long)(lat_hist_percentile(h, 99) / 1000),
			(unsigned long long)(h->max / 1000));
	}
	kprintf("%scommits: %llu exceptions in %llu metadata writes\n", indent,
		(unsigned long long)t->exceptions_committed,
		(unsigned long long)t->metadata_writes);
}
