// SPDX-License-Identifier: MIT
/*
 * The shell's fio (shell/fio.c) on a memory-backed null_blk: fio's options
 * parse as fio parses them, a mixed random job with two threads moves data
 * both ways and reports its latencies, a device error ends the run with
 * that error, and nonsense options are refused with a message.
 */
#include <pagoda/err.h>
#include <pagoda/ktest.h>
#include <pagoda/null_blk.h>
#include <pagoda/printk.h>
#include "fio.h"

/*
 * null_blk's defaults, then what the job needs: 64 MiB kept in memory,
 * timer completions and one queue per CPU, so the jobs overlap for real.
 */
static struct nullb *make_nullb(struct ktest *t)
{
	struct nullb_config cfg;
	struct nullb *nb;

	null_default_config(&cfg);
	cfg.size_mb = 64;
	cfg.bs = 512;
	cfg.submit_queues = 0;
	cfg.hw_queue_depth = 16;
	cfg.irqmode = NULL_IRQ_TIMER;
	cfg.completion_nsec = 20000;
	cfg.memory_backed = true;
	cfg.cache_size_mb = 0;
	cfg.fua = false;
	nb = null_create(&cfg);
	if (IS_ERR(nb)) {
		ktest_fail(t, __FILE__, __LINE__, "null_create: %ld", PTR_ERR(nb));
		return NULL;
	}
	return nb;
}

static void test_fio(struct ktest *t)
{
	struct nullb *nb = make_nullb(t);
	struct fio_summary sum;
	struct fio_opts o;
	char a0[] = "fio", a1[] = "--rw=randrw", a2[] = "--bs=8k", a3[] = "--iodepth=8",
	     a4[] = "--ioengine=async", a5[] = "--size=2M", a6[] = "--numjobs=2",
	     a7[] = "--group_reporting", bad1[] = "--rw=sideways", bad2[] = "--bs=1000",
	     bad3[] = "--frobnicate=1", fname[40];
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, a7, fname };
	char *badv[] = { a0, fname, NULL };

	if (!nb)
		return;
	snprintf(fname, sizeof(fname), "--filename=%s", null_disk(nb)->disk_name);
	fio_default_opts(&o);
	KASSERT_EQ(t, fio_parse(&o, ARRAY_SIZE(argv), argv), 0);
	KEXPECT_EQ(t, o.rw, FIO_RANDRW);
	KEXPECT_EQ(t, o.bs, 8192);
	KEXPECT_EQ(t, o.numjobs, 2);
	o.quiet = true;
	KEXPECT_EQ(t, fio_run(&o, &sum), 0);
	/* 2 jobs x 2 MiB of 8 KiB I/Os, about half reads: both directions ran. */
	KEXPECT_GT(t, sum.iops[0], 0);
	KEXPECT_GT(t, sum.iops[1], 0);
	KEXPECT_GT(t, sum.lat_p99_ns[0], 0);
	KEXPECT_GE(t, sum.lat_p99_ns[0], sum.lat_p50_ns[0]);
	/* Device errors end the run with the error. */
	null_badblocks_add(nb, 0, 4096);
	KEXPECT_EQ(t, fio_run(&o, &sum), -EIO);
	null_badblocks_clear(nb);
	/* Nonsense options are refused, each with a message. */
	ktest_expect_reports(t, true);
	for (unsigned int i = 0; i < 3; i++) {
		char *b[] = { bad1, bad2, bad3 };

		badv[2] = b[i];
		fio_default_opts(&o);
		KEXPECT_EQ(t, fio_parse(&o, 3, badv), -EINVAL);
	}
	KEXPECT_EQ(t, null_destroy(nb), 0);
}

static struct ktest_case fio_cases[] = {
	KTEST_CASE(test_fio),
	{}
};
KTEST_SUITE_FULL(fio, .cases = fio_cases, .kernel_only = true);
