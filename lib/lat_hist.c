// SPDX-License-Identifier: MIT
/*
 * Latency histograms (pagoda/lat_hist.h). The buckets: values below 8
 * each have their own; above, a value with its highest set bit at b falls
 * in one of the 8 buckets that split [2^b, 2^(b+1)) evenly, found from b
 * and the three bits below it. Recording is one relaxed atomic add (and a
 * compare for the maximum), so it may run in interrupt handlers and on
 * every I/O; readers see a count that may be a sample or two behind.
 */
#include <pagoda/lat_hist.h>
#include <pagoda/string.h>

static unsigned int bucket_of(u64 v)
{
	unsigned int b, idx;

	if (v < (1U << LAT_HIST_SUB_BITS))
		return (unsigned int)v;
	b = 63 - (unsigned int)__builtin_clzll(v);
	idx = ((b - LAT_HIST_SUB_BITS + 1) << LAT_HIST_SUB_BITS) +
	      (unsigned int)((v >> (b - LAT_HIST_SUB_BITS)) & ((1U << LAT_HIST_SUB_BITS) - 1));
	return idx < LAT_HIST_BUCKETS ? idx : LAT_HIST_BUCKETS - 1;
}

/* The largest value that falls in bucket idx. */
static u64 bucket_top(unsigned int idx)
{
	unsigned int b, sub;

	if (idx < (1U << LAT_HIST_SUB_BITS))
		return idx;
	b = (idx >> LAT_HIST_SUB_BITS) + LAT_HIST_SUB_BITS - 1;
	sub = idx & ((1U << LAT_HIST_SUB_BITS) - 1);
	return (1ULL << b) + ((u64)(sub + 1) << (b - LAT_HIST_SUB_BITS)) - 1;
}

void lat_hist_record(struct lat_hist *h, u64 ns)
{
	u64 max = __atomic_load_n(&h->max, __ATOMIC_RELAXED);

	__atomic_fetch_add(&h->count[bucket_of(ns)], 1, __ATOMIC_RELAXED);
	while (ns > max && !__atomic_compare_exchange_n(&h->max, &max, ns, false,
							 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void lat_hist_reset(struct lat_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	for (unsigned int i = 0; i < LAT_HIST_BUCKETS; i++)
		dst->count[i] += src->count[i];
	if (src->max > dst->max)
		dst->max = src->max;
}

u64 lat_hist_samples(const struct lat_hist *h)
{
	u64 n = 0;

	for (unsigned int i = 0; i < LAT_HIST_BUCKETS; i++)
		n += h->count[i];
	return n;
}

u64 lat_hist_percentile(const struct lat_hist *h, unsigned int pct)
{
	u64 n = lat_hist_samples(h), want, seen = 0;

	if (!n)
		return 0;
	/* The smallest bucket holding at least pct% of the samples at or below it. */
	want = (n * pct + 99) / 100;
	if (!want)
		want = 1;
	for (unsigned int i = 0; i < LAT_HIST_BUCKETS; i++) {
		seen += h->count[i];
		/* The last bucket holds everything larger: its top is the maximum. */
		if (seen >= want)
			return i == LAT_HIST_BUCKETS - 1 ? h->max : MIN(bucket_top(i), h->max);
	}
	return h->max;
}
