/* SPDX-License-Identifier: MIT */
/*
 * A latency histogram cheap enough to stay compiled in: one atomic add per
 * sample into a bucket, eight buckets per power of two (each bucket at
 * most 12.5% wide), so the median, p90 and p99 of a run can be read back
 * afterwards without keeping the samples. Linux keeps such distributions
 * in tracing's hist triggers; this is the small fixed-size kind for one
 * counter set.
 */
#ifndef PAGODA_LAT_HIST_H
#define PAGODA_LAT_HIST_H

#include <pagoda/types.h>

#define LAT_HIST_SUB_BITS 3
/* Values up to 2^44 ns (about 4.9 hours); larger ones land in the last bucket. */
#define LAT_HIST_BUCKETS ((44 - LAT_HIST_SUB_BITS + 1) << LAT_HIST_SUB_BITS)

struct lat_hist {
	u32 count[LAT_HIST_BUCKETS];
	u64 max;
};

void lat_hist_record(struct lat_hist *h, u64 ns);
void lat_hist_reset(struct lat_hist *h);
/* dst += src (samples taken while src was quiet) */
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);
u64 lat_hist_samples(const struct lat_hist *h);
/* The value below which pct percent of the samples lie (a bucket's upper bound); 0 if empty. */
u64 lat_hist_percentile(const struct lat_hist *h, unsigned int pct);

#endif
