// SPDX-License-Identifier: MIT
/*
 * The first seed's measurement, shared by the host benchmark
 * (tests/host/bench_hibernate.c: simulated memory up to 16 TiB) and the
 * kernel's `bench hibernate` (the guest's own zones): the bitmap work of a
 * hibernation resume, before (the linked-list bitmap, swsusp_free() over
 * every pfn) and after (the radix tree, swsusp_free() over the set bits).
 *
 * Over the given zones: a forbidden and a free bitmap of each layout, and
 * the image's pages (one pfn in 256, in runs of 2 MiB at scattered places,
 * as an allocator hands out the pages an image is read into):
 *   mark    memory_bm_set_bit() on both maps for each image page;
 *   test    swsusp_page_is_forbidden(): memory_bm_test_bit() per image page;
 *   free    swsusp_free(): every pfn tested in both maps (before), or the
 *           set bits walked (after).
 * Where the list's lookups or the pfn loop would run for minutes, a slice
 * is timed and scaled by the count (linear in it), and the row says so
 * with "~". The answers (bits found, pages released) must be identical
 * wherever both layouts did the whole work; a difference is a failure.
 */
#include <pagoda/memory_bitmap.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

#define IMAGE_STRIDE 256UL
/* Time a phase of the list layout for at most this long, then scale. */
#define SLICE_NS 400000000ULL

/*
 * The i-th image page. The image is read into free pages as the buddy
 * allocator hands them out: runs of 512 pages (2 MiB) in a row, the runs
 * scattered over memory, one page in IMAGE_STRIDE in all. The zones here
 * are contiguous (the top one starts at 4 GiB, where the low one ends).
 */
#define IMAGE_RUN 512UL

/* Image pages lie from the first zone's start: bm_base. */
static unsigned long bm_base;

static unsigned long sorted_image_pfn(unsigned long i)
{
	return bm_base + (i / IMAGE_RUN) * (IMAGE_RUN * IMAGE_STRIDE) + i % IMAGE_RUN;
}

static unsigned long image_pfn(unsigned long i, unsigned long n)
{
	unsigned long runs = n / IMAGE_RUN ? n / IMAGE_RUN : 1;
	/* runs is a power of two: an odd multiplier permutes them. */
	unsigned long run = ((i / IMAGE_RUN) * 2654435761UL + 12345) & (runs - 1);

	return sorted_image_pfn(run * IMAGE_RUN + i % IMAGE_RUN);
}

struct phase {
	u64 ns;		/* measured, or scaled from a slice */
	bool scaled;
	unsigned long answers;
};

struct side {
	struct phase mark, test, free;
	unsigned long pages;
};

static void release(unsigned long pfn, void *arg)
{
	*(unsigned long *)arg += pfn;
}

/*
 * t * n / done, without floating point (the kernel has none) and without
 * overflow for the sizes here: n and done stay below 2^32.
 */
static u64 scale(u64 t, u64 n, u64 done)
{
	return (t / done) * n + (t % done) * n / done;
}

/*
 * Run n operations of op(i), timing; if a slice of the first ones already
 * took SLICE_NS, stop and scale by n / done.
 */
#define TIMED(ph, n, scalable, ...)                                               \
	do {                                                                       \
		u64 __t0 = ktime_get_ns(), __t = 0;                                      \
		unsigned long __i;                                                 \
		for (__i = 0; __i < (n); __i++) {                                  \
			unsigned long i = __i;                                     \
			__VA_ARGS__;                                               \
			if ((scalable) && !(__i & 1023) && (__t = ktime_get_ns() - __t0) > SLICE_NS) \
				break;                                             \
		}                                                                  \
		__t = ktime_get_ns() - __t0;                                             \
		if (__i < (n)) {                                                   \
			(ph).ns = scale(__t, (n), __i + 1);                        \
			(ph).scaled = true;                                        \
		} else {                                                           \
			(ph).ns = __t;                                             \
		}                                                                  \
	} while (0)

static int run_side(struct side *s, enum bm_kind kind, const struct bm_zone_range *z,
		    unsigned int nz, unsigned long nimg, unsigned long *checks,
		    const struct bm_page_ops *ops)
{
	struct memory_bitmap fb, fr;
	bool list = kind == BM_LIST;
	unsigned long hits = 0, sum = 0;

	memset(s, 0, sizeof(*s));
	memset(&fb, 0, sizeof(fb));
	memset(&fr, 0, sizeof(fr));
	if (memory_bm_create(&fb, kind, z, nz, ops) || memory_bm_create(&fr, kind, z, nz, ops)) {
		kprintf("bench hibernate: out of memory building the bitmaps\n");
		memory_bm_free(&fb);
		memory_bm_free(&fr);
		return -1;
	}
	s->pages = memory_bm_pages(&fb) + memory_bm_pages(&fr);
	TIMED(s->mark, nimg, list, {
		unsigned long pfn = image_pfn(i, nimg);

		memory_bm_set_bit(&fb, pfn);
		memory_bm_set_bit(&fr, pfn);
	});
	if (s->mark.scaled) {
		/* The rest is marked sequentially (cheap for both): the
		 * later phases need every image page marked. */
		for (unsigned long i = 0; i < nimg; i++) {
			unsigned long pfn = sorted_image_pfn(i);

			memory_bm_set_bit(&fb, pfn);
			memory_bm_set_bit(&fr, pfn);
		}
	}
	TIMED(s->test, nimg, list, {
		hits += memory_bm_test_bit(&fb, image_pfn(i, nimg));
	});
	s->test.answers = hits;
	checks[0] = s->test.scaled ? 0 : hits;
	if (list) {
		/* Every pfn of every zone, twice: time the first 2^24 pfns. */
		struct bm_zone_range part[8];
		unsigned long total = 0, slice, left, done;
		unsigned int np = 0;
		u64 t0;

		for (unsigned int k = 0; k < nz; k++)
			total += z[k].end_pfn - z[k].start_pfn;
		slice = left = MIN(total, 1UL << 24);
		for (unsigned int k = 0; k < nz && left && np < ARRAY_SIZE(part); k++, np++) {
			unsigned long n = MIN(left, z[k].end_pfn - z[k].start_pfn);

			part[np] = (struct bm_zone_range){ z[k].start_pfn, z[k].start_pfn + n };
			left -= n;
		}
		t0 = ktime_get_ns();
		done = swsusp_free_pfns(&fb, &fr, part, np, release, &sum);
		s->free.ns = ktime_get_ns() - t0;
		if (slice < total) {
			s->free.ns = scale(s->free.ns, total, slice);
			s->free.scaled = true;
		}
		s->free.answers = done;
	} else {
		u64 t0 = ktime_get_ns();

		s->free.answers = swsusp_free_bits(&fb, &fr, release, &sum);
		s->free.ns = ktime_get_ns() - t0;
	}
	checks[1] = s->free.scaled ? 0 : sum;
	memory_bm_free(&fb);
	memory_bm_free(&fr);
	return 0;
}

static void fmt_ns(char *buf, size_t n, const struct phase *p)
{
	if (p->ns < 1000000)
		snprintf(buf, n, "%s%llu us", p->scaled ? "~" : "",
			 (unsigned long long)(p->ns / 1000));
	else if (p->ns >= 1000000000ULL)
		snprintf(buf, n, "%s%llu.%01llu s", p->scaled ? "~" : "",
			 (unsigned long long)(p->ns / 1000000000ULL),
			 (unsigned long long)(p->ns / 100000000ULL % 10));
	else
		snprintf(buf, n, "%s%llu.%01llu ms", p->scaled ? "~" : "",
			 (unsigned long long)(p->ns / 1000000ULL),
			 (unsigned long long)(p->ns / 100000ULL % 10));
}


void bm_bench_header(const char *where)
{
	kprintf("hibernate: the resume path's bitmap work, before (linked-list bitmap, "
		"swsusp_free over every pfn) and after (radix tree, swsusp_free over set bits)\n");
	kprintf("  %s; one page in %lu is the image's, in runs of %lu at scattered places; "
		"~ = a timed slice scaled by the count\n", where, IMAGE_STRIDE, IMAGE_RUN);
	kprintf("  %-9s %12s | %-28s %-10s | %-28s %-10s | %8s\n", "memory", "image pages",
		"before: mark / test / free", "total", "after: mark / test / free", "total",
		"after is");
}

void bm_bench_footer(void)
{
	kprintf("  the seed (Linux, a 12 TB machine, the whole resume): 76 s before, "
		"2.4 s after (32x)\n");
}

/* One row: both layouts over zones; 1 when they disagree, -1 without memory. */
int bm_bench_row(const char *where, const struct bm_zone_range *z, unsigned int nz,
		 const struct bm_page_ops *ops)
{
	unsigned long pfns = 0, nimg, cb[2], ca[2], gib;
	struct side before, after;
	char m0[16], t0[16], f0[16], m1[16], t1[16], f1[16], tb[16], ta[16], size[16];
	struct phase tot_b = { 0, false, 0 }, tot_a = { 0, false, 0 };
	u64 ratio10;
	int bad = 0;

	for (unsigned int k = 0; k < nz; k++)
		pfns += z[k].end_pfn - z[k].start_pfn;
	gib = pfns >> 18;
	/* A power of two of image pages, within the zones' first pfns. */
	for (nimg = 1; nimg * 2 <= pfns / IMAGE_STRIDE; nimg *= 2)
		;
	bm_base = nz ? z[0].start_pfn : 0;
	if (run_side(&before, BM_LIST, z, nz, nimg, cb, ops) ||
	    run_side(&after, BM_RTREE, z, nz, nimg, ca, ops))
		return -1;
	if ((cb[0] && cb[0] != ca[0]) || (cb[1] && cb[1] != ca[1]) ||
	    after.test.answers != nimg || after.free.answers != nimg) {
		kprintf("  %lu MiB: FAIL: the layouts disagree (test %lu/%lu, free %lu/%lu)\n",
			pfns >> 8, cb[0], ca[0], cb[1], ca[1]);
		bad = 1;
	}
	tot_b.ns = before.mark.ns + before.test.ns + before.free.ns;
	tot_b.scaled = before.mark.scaled || before.test.scaled || before.free.scaled;
	tot_a.ns = after.mark.ns + after.test.ns + after.free.ns;
	fmt_ns(m0, sizeof(m0), &before.mark);
	fmt_ns(t0, sizeof(t0), &before.test);
	fmt_ns(f0, sizeof(f0), &before.free);
	fmt_ns(m1, sizeof(m1), &after.mark);
	fmt_ns(t1, sizeof(t1), &after.test);
	fmt_ns(f1, sizeof(f1), &after.free);
	fmt_ns(tb, sizeof(tb), &tot_b);
	fmt_ns(ta, sizeof(ta), &tot_a);
	ratio10 = tot_a.ns ? tot_b.ns * 10 / tot_a.ns : 0;
	if (gib && !(pfns & ((1UL << 18) - 1)))
		snprintf(size, sizeof(size), "%lu GiB", gib);
	else
		snprintf(size, sizeof(size), "%lu MiB", pfns >> 8);
	kprintf("  %-9s %12lu | %8s %8s %8s   %-10s | %8s %8s %8s   %-10s | %5llu.%llux\n",
		size, nimg, m0, t0, f0, tb, m1, t1, f1, ta,
		(unsigned long long)(ratio10 / 10), (unsigned long long)(ratio10 % 10));
	kprintf("BENCH {\"bench\":\"hibernate\",\"where\":\"%s\",\"mib\":%lu,"
		"\"image_pages\":%lu,\"before_ns\":%llu,\"before_scaled\":%s,"
		"\"after_ns\":%llu,\"bitmap_pages\":%lu}\n", where, pfns >> 8, nimg,
		(unsigned long long)tot_b.ns, tot_b.scaled ? "true" : "false",
		(unsigned long long)tot_a.ns, after.pages);
	return bad;
}
