// SPDX-License-Identifier: MIT
/*
 * `bench dmsnap` (and `make bench`): the seed's table. Nikos Tsironis
 * measured his patch with fio on null_blk through Linux's device-mapper
 * test suite: fio_origin_randwrite_throughput_N and
 * fio_snapshot_randwrite_throughput_N (direct random 4 KiB writes,
 * asynchronous engine) and ..._latency_N (synchronous engine), for N = 1,
 * 2, 4, 8 workers, before (one mutex) and after (fine-grained locks).
 *
 * Here the same, with Pagoda's fio, both schemes in one boot: for each
 * case a fresh origin null_blk (a hardware queue per CPU, softirq
 * completions) and a memory-backed COW null_blk, snapshot-origin and
 * snapshot (P, 4 KiB chunks) on them, dm_snapshot.locking set before the
 * snapshot's table is loaded. Each run is bench.dmsnap_runtime ms; each
 * figure is the median of five, the two schemes taken in turns, with the
 * spread (max/min) of the five beside it. Every
 * write lands on a new chunk with high probability, so each one costs a
 * chunk copy and a commit: the contention the seed removed is on the
 * exception tables and the pending-exception completion beside them.
 * Beside each pair: the ratio after/before, and the time spent waiting
 * for the snapshot's locks (the mutex, or the semaphore and the bit
 * locks of the buckets, which lockstat cannot see), per scheme.
 */
#include <pagoda/bench.h>
#include <pagoda/device-mapper.h>
#include <pagoda/err.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>

#include <pagoda/null_blk.h>
#include "../shell/fio.h"
#include "../block/dm/dm-snap.h"
#include "../block/dm/dm-trace.h"

static u64 dmsnap_runtime_ms = 1000;
PARAM_UINT("bench.dmsnap_runtime", dmsnap_runtime_ms, 100, 60000,
	   "bench dmsnap: milliseconds per fio run");
/* Which rows: 1 origin throughput, 2 snapshot throughput, 4 origin latency, 8 snapshot latency. */
static u64 dmsnap_rows = 15;
PARAM_UINT("bench.dmsnap_rows", dmsnap_rows, 1, 15,
	   "bench dmsnap: row groups to run (bits: 1 origin/2 snapshot throughput, 4/8 latency)");

/* The step trace of the origin throughput rows, per job count and scheme, all runs summed. */
static struct dm_trace *origin_traces;	/* [jobs index][scheme] */

struct dmsnap_result {
	u64 iops, lat_avg_ns;
	u64 wait_ns, waits;
	int err;
};

static struct nullb *bench_nullb(u64 size_mb, bool memory_backed)
{
	struct nullb_config cfg;

	null_default_config(&cfg);
	cfg.size_mb = size_mb;
	cfg.bs = 512;
	cfg.submit_queues = 0;		/* one per CPU, as the seed's submit_queues */
	cfg.irqmode = NULL_IRQ_SOFTIRQ;	/* the seed's irqmode=1 */
	cfg.completion_nsec = 0;
	cfg.memory_backed = memory_backed;
	cfg.cache_size_mb = 0;
	return null_create(&cfg);
}

/* One fio run on a fresh origin + snapshot under one scheme. */
static void run_one(const char *locking, bool on_snapshot, bool latency, unsigned int jobs,
		    struct dmsnap_result *r, struct dm_trace *trace)
{
	struct nullb *onb = bench_nullb(4096, false), *cnb = bench_nullb(4096, true);
	struct mapped_device *om = NULL, *sm = NULL;
	struct fio_summary sum;
	struct fio_opts o;
	char table[128];

	memset(r, 0, sizeof(*r));
	if (IS_ERR(onb) || IS_ERR(cnb)) {
		r->err = -ENOMEM;
		goto out;
	}
	param_set(param_find("dm_snapshot.locking"), locking);
	snprintf(table, sizeof(table), "0 %u snapshot-origin %s", 4096U * 2048,
		 null_disk(onb)->disk_name);
	r->err = dm_create("bench-origin", &om);
	if (!r->err)
		r->err = dm_table_load(om, table);
	if (!r->err)
		r->err = dm_resume(om);
	snprintf(table, sizeof(table), "0 %u snapshot %s %s P 8", 4096U * 2048,
		 null_disk(onb)->disk_name, null_disk(cnb)->disk_name);
	if (!r->err)
		r->err = dm_create("bench-snap", &sm);
	if (!r->err)
		r->err = dm_table_load(sm, table);
	if (!r->err)
		r->err = dm_resume(sm);
	if (r->err)
		goto out;

	fio_default_opts(&o);
	strlcpy(o.filename, dm_disk_name(on_snapshot ? sm : om), sizeof(o.filename));
	o.rw = FIO_RANDWRITE;
	o.bs = 4096;
	o.iodepth = latency ? 1 : 8;
	o.ioengine = latency ? FIO_PSYNC : FIO_ASYNC;
	o.numjobs = jobs;
	o.runtime_ns = dmsnap_runtime_ms * NSEC_PER_MSEC;
	o.group_reporting = true;
	o.quiet = true;
	memset(&sum, 0, sizeof(sum));
	atomic64_set(&dm_snap_lock_wait_ns, 0);
	atomic64_set(&dm_snap_lock_waits, 0);
	dm_trace_reset();
	r->err = fio_run(&o, &sum);
	r->wait_ns = (u64)atomic64_read(&dm_snap_lock_wait_ns);
	r->waits = (u64)atomic64_read(&dm_snap_lock_waits);
	r->iops = sum.iops[1];
	r->lat_avg_ns = sum.lat_avg_ns[1];
out:
	if (sm)
		dm_remove(sm);
	if (om)
		dm_remove(om);
	/* Removed: every copy and commit has finished, the trace is whole. */
	if (trace)
		dm_trace_merge(trace);
	if (!IS_ERR_OR_NULL(cnb))
		null_destroy(cnb);
	if (!IS_ERR_OR_NULL(onb))
		null_destroy(onb);
	param_set(param_find("dm_snapshot.locking"), "fine");
}

static int cmp_result(const struct dmsnap_result *x, const struct dmsnap_result *y, bool lat)
{
	u64 a = lat ? x->lat_avg_ns : x->iops, b = lat ? y->lat_avg_ns : y->iops;

	return a < b ? -1 : a > b;
}

#define DMSNAP_RUNS 5

/* max/min of a cell's runs, in hundredths (115: 1.15x): how steady it was */
static u64 spread_x100(const struct dmsnap_result *sorted, bool lat)
{
	u64 lo = lat ? sorted[0].lat_avg_ns : sorted[0].iops;
	u64 hi = lat ? sorted[DMSNAP_RUNS - 1].lat_avg_ns : sorted[DMSNAP_RUNS - 1].iops;

	return lo ? hi * 100 / lo : 0;
}

/*
 * The median of DMSNAP_RUNS of each scheme, taken in turns (a noisy host
 * hits both alike), and each scheme's spread.
 */
static void run_median(bool on_snapshot, bool latency, unsigned int jobs,
		       struct dmsnap_result *before, struct dmsnap_result *after,
		       u64 spread[2], struct dm_trace *traces)
{
	struct dmsnap_result r[2][DMSNAP_RUNS], t;

	for (int i = 0; i < DMSNAP_RUNS; i++) {
		run_one("mutex", on_snapshot, latency, jobs, &r[0][i], traces ? &traces[0] : NULL);
		run_one("fine", on_snapshot, latency, jobs, &r[1][i], traces ? &traces[1] : NULL);
	}
	/* Each run as it came, so a spread can be read: a trend, one outlier, or scatter. */
	kprintf("    runs in turn order (%s), mutex / fine:", latency ? "us" : "IOPS");
	for (int i = 0; i < DMSNAP_RUNS; i++)
		kprintf(" %llu/%llu",
			(unsigned long long)(latency ? r[0][i].lat_avg_ns / 1000 : r[0][i].iops),
			(unsigned long long)(latency ? r[1][i].lat_avg_ns / 1000 : r[1][i].iops));
	kprintf("\n");
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < DMSNAP_RUNS; i++)
			for (int k = i + 1; k < DMSNAP_RUNS; k++)
				if (cmp_result(&r[s][k], &r[s][i], latency) < 0) {
					t = r[s][i];
					r[s][i] = r[s][k];
					r[s][k] = t;
				}
		spread[s] = spread_x100(r[s], latency);
	}
	*before = r[0][DMSNAP_RUNS / 2];
	*after = r[1][DMSNAP_RUNS / 2];
	for (int i = 0; i < DMSNAP_RUNS; i++) {
		if (r[0][i].err && !before->err)
			before->err = r[0][i].err;
		if (r[1][i].err && !after->err)
			after->err = r[1][i].err;
	}
}

static void print_ratio(u64 after, u64 before)
{
	if (!before)
		kprintf(" %7s", "-");
	else
		kprintf(" %4llu.%02llux", (unsigned long long)(after / before),
			(unsigned long long)(after * 100 / before % 100));
}

/*
 * Where the origin throughput rows' time went: each step of a chunk's
 * copy and commit (dm-trace.h), over all five runs of a scheme, mutex
 * beside fine. Times in microseconds.
 */
static void print_origin_traces(const unsigned int *jobs, unsigned int n)
{
	kprintf("where an origin write's copy went, per step (fio_origin_randwrite_throughput_N, "
		"all %d runs; us):\n", DMSNAP_RUNS);
	for (unsigned int j = 0; j < n; j++) {
		struct dm_trace *tr = &origin_traces[j * 2];

		kprintf("  N=%u %-15s %8s %7s %7s %7s  %8s %7s %7s %7s\n", jobs[j], "step",
			"mutex: n", "median", "p90", "p99", "fine: n", "median", "p90", "p99");
		for (unsigned int i = 0; i < DM_TRACE_NR_STEPS; i++) {
			kprintf("      %-15s", dm_trace_step_names[i]);
			for (int s = 0; s < 2; s++) {
				const struct lat_hist *h = &tr[s].step[i];

				kprintf(" %9llu %7llu %7llu %7llu ",
					(unsigned long long)lat_hist_samples(h),
					(unsigned long long)(lat_hist_percentile(h, 50) / 1000),
					(unsigned long long)(lat_hist_percentile(h, 90) / 1000),
					(unsigned long long)(lat_hist_percentile(h, 99) / 1000));
			}
			kprintf("\n");
		}
		kprintf("      %-15s %9llu in %llu writes %19s %llu in %llu writes\n", "commits",
			(unsigned long long)tr[0].exceptions_committed,
			(unsigned long long)tr[0].metadata_writes, "",
			(unsigned long long)tr[1].exceptions_committed,
			(unsigned long long)tr[1].metadata_writes);
		for (int s = 0; s < 2; s++)
			kprintf("BENCH {\"bench\":\"dmsnap-trace\",\"arch\":\"%s\",\"cpus\":%u,"
				"\"jobs\":%u,\"scheme\":\"%s\",\"total_p50_ns\":%llu,"
				"\"total_p99_ns\":%llu,\"commit_p50_ns\":%llu,"
				"\"exceptions\":%llu,\"metadata_writes\":%llu}\n",
				arch_name, num_online_cpus(), jobs[j], s ? "fine" : "mutex",
				(unsigned long long)lat_hist_percentile(&tr[s].step[DM_TRACE_TOTAL], 50),
				(unsigned long long)lat_hist_percentile(&tr[s].step[DM_TRACE_TOTAL], 99),
				(unsigned long long)lat_hist_percentile(&tr[s].step[DM_TRACE_COMMIT], 50),
				(unsigned long long)tr[s].exceptions_committed,
				(unsigned long long)tr[s].metadata_writes);
	}
}

static void bench_dmsnap(void)
{
	static const unsigned int jobs[] = { 1, 2, 4, 8 };
	static const char *const kinds[] = { "origin", "snapshot" };

	kprintf("dm-snapshot, the seed's table: fio random 4 KiB writes through snapshot-origin "
		"and snapshot (P, 4 KiB chunks) on null_blk (a queue per CPU, softirq), %llu ms "
		"per run\n", (unsigned long long)dmsnap_runtime_ms);
	bench_print_machine();
	kprintf("each figure: the median of %d runs, the schemes taken in turns; spread: "
		"max/min of those runs, before/after\n", DMSNAP_RUNS);
	/* A first run warms the allocator and the workers; not counted. */
	{
		struct dmsnap_result w;

		run_one("fine", false, false, 1, &w, NULL);
	}
	origin_traces = vzalloc(ARRAY_SIZE(jobs) * 2 * sizeof(*origin_traces));
	kprintf("  %-40s %12s %12s %8s %13s %14s %14s\n", "test", "before", "after", "ratio",
		"spread", "wait before", "wait after");
	for (unsigned int lat = 0; lat < 2; lat++) {
		for (unsigned int k = 0; k < 2; k++) {
			for (unsigned int j = 0; j < ARRAY_SIZE(jobs); j++) {
				struct dmsnap_result b, a;
				u64 spread[2];
				char name[64];

				if (!(dmsnap_rows & (1U << (lat * 2 + k))))
					continue;
				snprintf(name, sizeof(name), "fio_%s_randwrite_%s_%u", kinds[k],
					 lat ? "latency" : "throughput", jobs[j]);
				run_median(k == 1, lat, jobs[j], &b, &a, spread,
					   !lat && !k && origin_traces ? &origin_traces[j * 2] : NULL);
				if (b.err || a.err) {
					kprintf("  %-40s failed: %d / %d\n", name, b.err, a.err);
					continue;
				}
				if (lat) {
					kprintf("  %-40s %9llu us %9llu us", name,
						(unsigned long long)(b.lat_avg_ns / 1000),
						(unsigned long long)(a.lat_avg_ns / 1000));
					/* Lower is better: before/after, as the seed reads it. */
					print_ratio(b.lat_avg_ns, a.lat_avg_ns);
				} else {
					kprintf("  %-40s %7llu IOPS %7llu IOPS", name,
						(unsigned long long)b.iops,
						(unsigned long long)a.iops);
					print_ratio(a.iops, b.iops);
				}
				kprintf("  %2llu.%02llux/%llu.%02llux",
					(unsigned long long)(spread[0] / 100),
					(unsigned long long)(spread[0] % 100),
					(unsigned long long)(spread[1] / 100),
					(unsigned long long)(spread[1] % 100));
				kprintf(" %11llu us %11llu us\n",
					(unsigned long long)(b.wait_ns / 1000),
					(unsigned long long)(a.wait_ns / 1000));
				kprintf("BENCH {\"bench\":\"dmsnap\",\"arch\":\"%s\",\"accel\":\"%s\","
					"\"cpus\":%u,\"case\":\"%s\",\"jobs\":%u,"
					"\"before_iops\":%llu,\"after_iops\":%llu,"
					"\"before_lat_ns\":%llu,\"after_lat_ns\":%llu,"
					"\"before_wait_ns\":%llu,\"after_wait_ns\":%llu,"
					"\"before_waits\":%llu,\"after_waits\":%llu,"
					"\"before_spread_x100\":%llu,\"after_spread_x100\":%llu}\n",
					arch_name, arch_accelerator(), num_online_cpus(), name,
					jobs[j], (unsigned long long)b.iops,
					(unsigned long long)a.iops,
					(unsigned long long)b.lat_avg_ns,
					(unsigned long long)a.lat_avg_ns,
					(unsigned long long)b.wait_ns, (unsigned long long)a.wait_ns,
					(unsigned long long)b.waits, (unsigned long long)a.waits,
					(unsigned long long)spread[0], (unsigned long long)spread[1]);
			}
		}
	}
	kprintf("ratio: IOPS after/before; latency before/after (above 1 the fine scheme wins). "
		"The seed on real hardware (origin, N=1,2,4,8): IOPS 57708/63415/67276/60564 before, "
		"66421/77589/98839/109258 after; latency 16.3/31.7/55.3/121.5 us before, "
		"13.3/25.1/41.1/74.4 us after\n");
	if (origin_traces && (dmsnap_rows & 1))
		print_origin_traces(jobs, ARRAY_SIZE(jobs));
	vfree(origin_traces);
	origin_traces = NULL;
}
KBENCH(dmsnap, "dm-snapshot: fio through origin and snapshot, mutex vs fine locking (the seed's table)",
       bench_dmsnap);
