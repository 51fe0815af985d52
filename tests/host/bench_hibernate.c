// SPDX-License-Identifier: MIT
/*
 * The first seed's table on the host: the bitmap work of a hibernation
 * resume, with the linked-list memory bitmap Linux had before "PM /
 * Hibernate: Memory bitmap scalability improvements" (July 2014) and with
 * the radix tree it introduced, over simulated memory from 1 GiB to 16 TiB
 * (bitmaps only: no struct pages, no data). Same kernel/power/ code as the
 * kernel, gcc -O2, no sanitizers.
 *
 * Per size: two zones (below 4 GiB and above); the measurement itself is
 * bench/bitmap_bench.c, which the kernel's `bench hibernate` runs
 * over the guest's own zones.
 *
 *   build/host/bench-hibernate [--max-gib N]   (make bench-host runs it)
 */
#include <pagoda/memory_bitmap.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

void host_env_init(void);
bool ktest_on_host(void) { return true; }
bool ktest_interrupted(void) { return false; }

extern void *calloc(unsigned long n, unsigned long size);
extern void free(void *p);
extern long strtol(const char *s, char **end, int base);

static void *page_alloc(void *ctx)
{
	return calloc(1, BM_PAGE_SIZE);
}

static void page_free(void *ctx, void *p)
{
	free(p);
}

static const struct bm_page_ops ops = { page_alloc, page_free, NULL };

int main(int argc, char **argv)
{
	static const unsigned long gib[] = { 1, 16, 256, 1024, 4096, 16384 };
	unsigned long max_gib = 16384;
	int bad = 0;

	host_env_init();
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--max-gib") && i + 1 < argc)
			max_gib = (unsigned long)strtol(argv[++i], NULL, 10);
	bm_bench_header("host gcc -O2, simulated zones (below 4 GiB, and above)");
	for (unsigned int k = 0; k < ARRAY_SIZE(gib) && gib[k] <= max_gib; k++) {
		unsigned long pfns = gib[k] << 18, low = MIN(pfns, 1UL << 20);
		struct bm_zone_range z[2] = { { 0, low }, { 1UL << 20, (1UL << 20) + pfns - low } };
		int r = bm_bench_row("host", z, pfns > low ? 2 : 1, &ops);

		if (r < 0)
			return 1;
		bad += r;
	}
	bm_bench_footer();
	return bad ? 1 : 0;
}
