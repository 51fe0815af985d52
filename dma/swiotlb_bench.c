// SPDX-License-Identifier: MIT
/*
 * `bench swiotlb`: the workloads of the dynamic-SWIOTLB seed ("Allow
 * dynamic allocation of software IO TLB bounce buffers", Petr Tesarik, v6,
 * July 2023) on the first real disk, every mapping bounced (the boot says
 * swiotlb=force; tools/bench.py boots it so):
 *
 *   small  one job, 4 KiB blocks        big  one job, 64 KiB blocks
 *   4way   four jobs, 4 KiB blocks
 *
 * each run RUNS times for a second; it prints the mean bandwidth and the
 * coefficient of variance (the seed's "var"), and what the bounce pool did
 * (its size at the start and the end, pools grown, transient pools). The
 * seed compares three kernels: unpatched ("base"), patched with the usual
 * 64 MiB pool ("default") and patched starting from 1 MiB ("growing");
 * tools/bench.py boots three configurations for those columns
 * (swiotlb.dynamic=0; the default; swiotlb=512) and prints the table with
 * each one's bandwidth difference from base.
 *
 * Reads only: a real disk may hold data (the seed measured reads and
 * writes).
 */
#include <pagoda/bench.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>

#include "../block/blk.h"
#include "../block/fio.h"

#define RUNS 5

extern struct io_tlb_mem io_tlb_default_mem;

static const struct {
	const char *name;
	unsigned int bs, jobs;
} cases[] = {
	{ "small", 4096, 1 },
	{ "big", 65536, 1 },
	{ "4way", 4096, 4 },
};

static void find_disk(struct block_device *bdev, void *arg)
{
	char *name = arg;

	/* A device that maps DMA through the API: virtio-blk or an SD card. */
	if (name[0] || bdev->bd_partno)
		return;
	if (!strncmp(bdev->bd_name, "vd", 2) || !strncmp(bdev->bd_name, "mmcblk", 6))
		strlcpy(name, bdev->bd_name, BDEVNAME_SIZE);
}

static u64 isqrt(u64 v)
{
	u64 r = v, last = 0;

	if (v < 2)
		return v;
	while (r != last) {
		last = r;
		r = (r + v / r) / 2;
	}
	while (r * r > v)
		r--;
	return r;
}

static void bench_swiotlb(void)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	char dev[BDEVNAME_SIZE] = "";
	unsigned long start_kib = mem->nslabs * IO_TLB_SIZE / 1024;

	bdev_for_each(find_disk, dev);
	if (!dev[0]) {
		kprintf("bench swiotlb: no virtio-blk or SD disk (make run DISK=img.raw)\n");
		return;
	}
	kprintf("swiotlb pool: %lu KiB at the start, %s, %s; %s, %u runs of 1 s per case, "
		"reads\n", start_kib, mem->can_grow ? "dynamic" : "static",
		mem->force_bounce ? "every mapping bounced (swiotlb=force)" :
				    "only unreachable buffers bounced",
		dev, RUNS);
	kprintf("  %-6s %10s %8s\n", "case", "MiB/s", "var");
	for (unsigned int c = 0; c < ARRAY_SIZE(cases); c++) {
		u64 kib[RUNS], sum = 0, sq = 0, mean, var_ppm;
		struct fio_summary s;
		struct fio_opts o;

		for (unsigned int r = 0; r < RUNS; r++) {
			fio_default_opts(&o);
			strlcpy(o.filename, dev, sizeof(o.filename));
			o.rw = FIO_RANDREAD;
			o.bs = cases[c].bs;
			o.numjobs = cases[c].jobs;
			o.iodepth = 1;
			o.ioengine = FIO_PSYNC;
			o.runtime_ns = NSEC_PER_SEC;
			o.group_reporting = true;
			o.quiet = true;
			memset(&s, 0, sizeof(s));
			if (fio_run(&o, &s)) {
				kprintf("bench swiotlb: fio on %s failed\n", dev);
				return;
			}
			kib[r] = s.bw_kib[0];
			sum += kib[r];
		}
		mean = sum / RUNS;
		for (unsigned int r = 0; r < RUNS; r++) {
			s64 d = (s64)kib[r] - (s64)mean;

			sq += (u64)(d * d);
		}
		/* The seed's "var": the standard deviation over the mean. */
		var_ppm = mean ? isqrt(sq / RUNS) * 1000000 / mean : 0;
		kprintf("  %-6s %6llu.%02llu %5llu.%02llu%%\n", cases[c].name,
			(unsigned long long)(mean / 1024),
			(unsigned long long)(mean % 1024 * 100 / 1024),
			(unsigned long long)(var_ppm / 10000),
			(unsigned long long)(var_ppm / 100 % 100));
		kprintf("BENCH {\"bench\":\"swiotlb\",\"arch\":\"%s\",\"accel\":\"%s\","
			"\"case\":\"%s\",\"dev\":\"%s\",\"dynamic\":%s,\"start_kib\":%lu,"
			"\"mean_kib\":%llu,\"var_ppm\":%llu}\n", arch_name, arch_accelerator(),
			cases[c].name, dev, mem->can_grow ? "true" : "false", start_kib,
			(unsigned long long)mean, (unsigned long long)var_ppm);
	}
	kprintf("swiotlb pool: %lu KiB at the end (%lu pools grown), %lu transient pools, "
		"%lu slots in use at most\n", mem->nslabs * IO_TLB_SIZE / 1024, mem->pools_grown,
		mem->transient_total, mem->used_hiwater);
}
KBENCH(swiotlb, "the dynamic-SWIOTLB seed's small/big/4way reads through bounce buffers",
       bench_swiotlb);
