// SPDX-License-Identifier: MIT
/*
 * The soft-lockup watchdog, with its threshold shortened to 400 ms:
 * a CPU that spins with preemption off for longer is reported (once), one
 * that schedules is not, nor one that only passes preemption points now
 * and then; and the hibernation bitmap's worst case, a walk
 * over a bitmap of the guest's whole memory with every bit set, repeated
 * with preemption off for longer than the threshold, stays quiet because
 * the walk touches the watchdog at each leaf (the memory-bitmap seed's
 * patch 6).
 */
#include <pagoda/gfp.h>
#include <pagoda/ktest.h>
#include <pagoda/memory_bitmap.h>
#include <pagoda/mm.h>
#include <pagoda/mmzone.h>
#include <pagoda/preempt.h>
#include <pagoda/sched.h>
#include <pagoda/time.h>
#include <pagoda/watchdog.h>

/*
 * The threshold the tests use, and how long each case spins: twice the
 * threshold. Short, because every boot of make test runs these; long
 * enough that a tick (10 ms) lands many times within it under TCG.
 */
#define TEST_THRESH_MS 400
#define SPIN_NS (2 * TEST_THRESH_MS * NSEC_PER_MSEC)

static void spin_preempt_off(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	preempt_disable();
	while (ktime_get_ns() < end)
		arch_cpu_relax();
	preempt_enable();
}

static void test_stuck_cpu_is_reported(struct ktest *t)
{
	unsigned long before = softlockup_reports();

	watchdog_set_test_thresh_ms(TEST_THRESH_MS);
	msleep(20); /* schedule: start from a fresh timestamp */
	ktest_expect_reports(t, true);	/* the report is the point: mark it */
	spin_preempt_off(SPIN_NS);
	ktest_expect_reports(t, false);
	watchdog_set_test_thresh_ms(0);
	/* Once per episode: twice the threshold is still one report. */
	KEXPECT_EQ(t, softlockup_reports() - before, 1);
}

static void test_scheduling_cpu_is_quiet(struct ktest *t)
{
	unsigned long before = softlockup_reports();
	u64 end;

	watchdog_set_test_thresh_ms(TEST_THRESH_MS);
	end = ktime_get_ns() + SPIN_NS;
	while (ktime_get_ns() < end)
		arch_cpu_relax(); /* busy, but preemptible: not stuck */
	watchdog_set_test_thresh_ms(0);
	KEXPECT_EQ(t, softlockup_reports(), before);
}

/*
 * Preemption off in 20 ms stretches for twice the threshold, on again
 * for a few instructions between them: a tick almost never lands in the
 * gaps, but the CPU could schedule at each. The watchdog's half-way
 * reschedule makes the next gap schedule; without it this is reported
 * (the SD card's programmed I/O during a Pi 4 resume was).
 */
static void test_preemption_points_are_quiet(struct ktest *t)
{
	unsigned long before = softlockup_reports();
	u64 end;

	watchdog_set_test_thresh_ms(TEST_THRESH_MS);
	msleep(20);
	end = ktime_get_ns() + SPIN_NS;
	while (ktime_get_ns() < end)
		spin_preempt_off(20 * NSEC_PER_MSEC);
	watchdog_set_test_thresh_ms(0);
	KEXPECT_EQ(t, softlockup_reports(), before);
}

static void *wd_alloc_page(void *ctx)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	return page ? page_address(page) : NULL;
}

static void wd_free_page(void *ctx, void *p)
{
	__free_page(virt_to_page(p));
}

static void test_full_bitmap_walk_is_quiet(struct ktest *t)
{
	static const struct bm_page_ops ops = { wd_alloc_page, wd_free_page, NULL };
	struct pglist_data *pgdat = NODE_DATA(0);
	struct bm_zone_range z = { ~0UL, 0 };
	unsigned long before = softlockup_reports(), walks = 0, bits = 0;
	struct memory_bitmap bm;
	struct zone *zone;
	u64 end;

	/* One zone spanning the whole node: the largest bitmap this guest has. */
	for_each_zone_in_node(zone, pgdat) {
		if (!zone->spanned_pages)
			continue;
		z.start_pfn = MIN(z.start_pfn, zone->zone_start_pfn);
		z.end_pfn = MAX(z.end_pfn, zone_end_pfn(zone));
	}
	KASSERT_EQ(t, memory_bm_create(&bm, BM_RTREE, &z, 1, &ops), 0);
	for (unsigned long pfn = z.start_pfn; pfn < z.end_pfn; pfn++)
		memory_bm_set_bit(&bm, pfn);
	watchdog_set_test_thresh_ms(TEST_THRESH_MS);
	msleep(20);
	end = ktime_get_ns() + SPIN_NS;
	preempt_disable();
	while (ktime_get_ns() < end) {
		memory_bm_position_reset(&bm);
		while (memory_bm_next_pfn(&bm) != BM_END_OF_MAP)
			bits++;
		walks++;
	}
	preempt_enable();
	watchdog_set_test_thresh_ms(0);
	memory_bm_free(&bm);
	ktest_log(t, "%lu walks over %lu pfns with every bit set, preemption off, %llu ms",
		  walks, z.end_pfn - z.start_pfn, (unsigned long long)(SPIN_NS / NSEC_PER_MSEC));
	KEXPECT_EQ(t, bits, walks * (z.end_pfn - z.start_pfn));
	KEXPECT_EQ(t, softlockup_reports(), before);
}

static struct ktest_case watchdog_cases[] = {
	KTEST_CASE(test_stuck_cpu_is_reported),
	KTEST_CASE(test_scheduling_cpu_is_quiet),
	KTEST_CASE(test_preemption_points_are_quiet),
	KTEST_CASE(test_full_bitmap_walk_is_quiet),
	{}
};
KTEST_SUITE_FULL(softlockup, .cases = watchdog_cases, .kernel_only = true);
