// SPDX-License-Identifier: MIT
/* Latency histograms: every value lands in a bucket no wider than 1/8 of it. */
#include <pagoda/ktest.h>
#include <pagoda/lat_hist.h>
#include <pagoda/slab.h>

static void test_lat_hist_percentiles(struct ktest *t)
{
	struct lat_hist *h = kzalloc(sizeof(*h), GFP_KERNEL);
	u64 p50, p90, p99;

	KASSERT_TRUE(t, h != NULL);
	KEXPECT_EQ(t, lat_hist_percentile(h, 50), 0ULL);
	/* 1..1000 us, one sample each */
	for (u64 us = 1; us <= 1000; us++)
		lat_hist_record(h, us * 1000);
	KEXPECT_EQ(t, lat_hist_samples(h), 1000ULL);
	p50 = lat_hist_percentile(h, 50);
	p90 = lat_hist_percentile(h, 90);
	p99 = lat_hist_percentile(h, 99);
	/* A bucket's top is at most 12.5% above the true value, never below. */
	KEXPECT_TRUE(t, p50 >= 500000 && p50 <= 500000 * 9 / 8);
	KEXPECT_TRUE(t, p90 >= 900000 && p90 <= 900000 * 9 / 8);
	KEXPECT_TRUE(t, p99 >= 990000 && p99 <= 1000000);
	KEXPECT_EQ(t, lat_hist_percentile(h, 100), 1000000ULL);
	kfree(h);
}

static void test_lat_hist_small_and_huge(struct ktest *t)
{
	struct lat_hist *h = kzalloc(sizeof(*h), GFP_KERNEL), *sum = kzalloc(sizeof(*sum), GFP_KERNEL);

	KASSERT_TRUE(t, h != NULL);
	KASSERT_TRUE(t, sum != NULL);
	for (u64 v = 0; v < 8; v++)
		lat_hist_record(h, v);
	/* Below 8 every value is exact. */
	KEXPECT_EQ(t, lat_hist_percentile(h, 50), 3ULL);
	lat_hist_record(h, ~0ULL);	/* past the last bucket: counted, kept as the max */
	KEXPECT_EQ(t, lat_hist_samples(h), 9ULL);
	KEXPECT_EQ(t, lat_hist_percentile(h, 100), ~0ULL);
	lat_hist_merge(sum, h);
	lat_hist_merge(sum, h);
	KEXPECT_EQ(t, lat_hist_samples(sum), 18ULL);
	KEXPECT_EQ(t, sum->max, ~0ULL);
	lat_hist_reset(h);
	KEXPECT_EQ(t, lat_hist_samples(h), 0ULL);
	kfree(h);
	kfree(sum);
}

static struct ktest_case lat_hist_cases[] = {
	KTEST_CASE(test_lat_hist_percentiles),
	KTEST_CASE(test_lat_hist_small_and_huge),
	{}
};
KTEST_SUITE(lat_hist, lat_hist_cases);
