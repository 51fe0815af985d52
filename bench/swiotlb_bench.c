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
 * each run RUNS times for a second with IODEPTH requests in flight in all,
 * random reads and writes half and half as the seed measured (bench.swiotlb_rw=1, which tools/bench.py gives its
 * scratch disk; otherwise reads only, since a real disk may hold data). It
 * prints the mean bandwidth and the coefficient of variance (the seed's
 * "var"), what the bounce memory did (its size at the start and the end,
 * pools grown and given back, transient pools, the peak footprint), and
 * what one map+unmap costs direct and bounced. The seed compares three
 * kernels: unpatched ("base"), patched with the usual 64 MiB pool
 * ("default") and patched starting from 1 MiB ("growing"); tools/bench.py
 * boots three configurations for those columns (swiotlb.dynamic=0; the
 * default; swiotlb=512) and prints the table with each one's bandwidth
 * difference from base.
 */
#include <pagoda/arch.h>
#include <pagoda/bench.h>
#include <pagoda/dma-mapping.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/swiotlb.h>
#include <pagoda/time.h>

#include "../shell/fio.h"

#define RUNS 5
/*
 * Requests in flight, shared among the jobs (4way: 8 each). The seed's
 * pool grew from 1 MiB to 5 MiB under its workloads, so they had many
 * mappings live at once; at depth 1 a 1 MiB pool is never close to full.
 * Sharing one depth among the jobs keeps 4way from queueing four times as
 * much as the others.
 */
#define IODEPTH 32
#define COST_ITERS 20000

static bool bench_rw;
PARAM_BOOL("bench.swiotlb_rw", bench_rw,
	   "bench swiotlb writes too (random read-write, as the seed): the disk's data is lost");

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

/* ns per dma_map_single + dma_unmap_single of size bytes for dev. */
static u64 map_unmap_ns(struct device *dev, void *buf, size_t size)
{
	u64 t0 = ktime_get_ns();

	for (unsigned int i = 0; i < COST_ITERS; i++) {
		dma_addr_t a = dma_map_single(dev, buf, size, DMA_BIDIRECTIONAL);

		if (dma_mapping_error(dev, a))
			return 0;
		dma_unmap_single(dev, a, size, DMA_BIDIRECTIONAL);
	}
	return (ktime_get_ns() - t0) / COST_ITERS;
}

/*
 * The same device twice: with the default pools (bounced, as swiotlb=force
 * makes every mapping) and with none (the direct mapping).
 */
static void map_cost(void)
{
	static const size_t sizes[] = { 64, 4096, 65536 };
	struct page *page = alloc_pages(GFP_KERNEL, 4);
	struct device dev;

	if (!page)
		return;
	device_initialize(&dev, "bench-swiotlb");
	dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64));
	kprintf("  map+unmap, ns per call:   %8s %8s %6s\n", "direct", "bounced", "ratio");
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct io_tlb_mem *mem = dev.dma_io_tlb_mem;
		u64 direct, bounced;

		dev.dma_io_tlb_mem = NULL;
		direct = map_unmap_ns(&dev, page_address(page), sizes[i]);
		dev.dma_io_tlb_mem = mem;
		bounced = mem && mem->force_bounce ?
			  map_unmap_ns(&dev, page_address(page), sizes[i]) : 0;
		kprintf("  %-24zu %8llu %8llu %5llu.%llux\n", sizes[i], (unsigned long long)direct,
			(unsigned long long)bounced,
			(unsigned long long)(direct ? bounced / direct : 0),
			(unsigned long long)(direct ? bounced * 10 / direct % 10 : 0));
		kprintf("BENCH {\"bench\":\"swiotlb\",\"arch\":\"%s\",\"accel\":\"%s\","
			"\"case\":\"map%zu\",\"direct_ns\":%llu,\"bounced_ns\":%llu}\n", arch_name,
			arch_accelerator(), sizes[i], (unsigned long long)direct,
			(unsigned long long)bounced);
	}
	__free_pages(page, 4);
}

static void bench_swiotlb(void)
{
	struct io_tlb_mem *mem = &io_tlb_default_mem;
	char dev[BDEVNAME_SIZE] = "";
	unsigned long start_kib = mem->nslabs * IO_TLB_SIZE / 1024;
	unsigned long grown0 = mem->pools_grown, freed0 = mem->pools_freed;

	bdev_for_each(find_disk, dev);
	if (!dev[0]) {
		kprintf("bench swiotlb: no virtio-blk or SD disk (make run DISK=img.raw)\n");
		return;
	}
	kprintf("swiotlb pool: %lu KiB at the start, %s, %s; %s, %u runs of 1 s per case, "
		"%s, %u in flight\n", start_kib, mem->can_grow ? "dynamic" : "static",
		mem->force_bounce ? "every mapping bounced (swiotlb=force)" :
				    "only unreachable buffers bounced",
		dev, RUNS, bench_rw ? "random read-write 50/50" : "random reads", IODEPTH);
	kprintf("  %-6s %10s %8s\n", "case", "MiB/s", "var");
	for (unsigned int c = 0; c < ARRAY_SIZE(cases); c++) {
		u64 kib[RUNS], sum = 0, sq = 0, mean, var_ppm;
		struct fio_summary s;
		struct fio_opts o;

		for (unsigned int r = 0; r < RUNS; r++) {
			fio_default_opts(&o);
			strlcpy(o.filename, dev, sizeof(o.filename));
			o.rw = bench_rw ? FIO_RANDRW : FIO_RANDREAD;
			o.rwmixread = 50;
			o.bs = cases[c].bs;
			o.numjobs = cases[c].jobs;
			o.iodepth = IODEPTH / cases[c].jobs;
			o.ioengine = FIO_ASYNC;
			o.runtime_ns = NSEC_PER_SEC;
			o.group_reporting = true;
			o.quiet = true;
			memset(&s, 0, sizeof(s));
			if (fio_run(&o, &s)) {
				kprintf("bench swiotlb: fio on %s failed\n", dev);
				return;
			}
			kib[r] = s.bw_kib[0] + s.bw_kib[1];
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
			"\"rw\":%s,\"iodepth\":%u,\"mean_kib\":%llu,\"var_ppm\":%llu}\n", arch_name,
			arch_accelerator(), cases[c].name, dev, mem->can_grow ? "true" : "false",
			start_kib, bench_rw ? "true" : "false", IODEPTH, (unsigned long long)mean,
			(unsigned long long)var_ppm);
	}
	kprintf("swiotlb pool: %lu KiB at the start, %lu KiB at the end; %lu pools grown, "
		"%lu given back; %lu transient pools; peak footprint %lu KiB; %lu slots in use at "
		"most\n", start_kib, mem->nslabs * IO_TLB_SIZE / 1024, mem->pools_grown - grown0,
		mem->pools_freed - freed0, mem->transient_total,
		mem->footprint_hiwater * IO_TLB_SIZE / 1024, mem->used_hiwater);
	kprintf("BENCH {\"bench\":\"swiotlb\",\"arch\":\"%s\",\"accel\":\"%s\",\"case\":\"pool\","
		"\"start_kib\":%lu,\"end_kib\":%lu,\"peak_kib\":%lu,\"grown\":%lu,\"freed\":%lu,"
		"\"transient\":%lu,\"hiwater_slots\":%lu}\n", arch_name, arch_accelerator(),
		start_kib, mem->nslabs * IO_TLB_SIZE / 1024,
		mem->footprint_hiwater * IO_TLB_SIZE / 1024, mem->pools_grown - grown0,
		mem->pools_freed - freed0, mem->transient_total, mem->used_hiwater);
	map_cost();
}
KBENCH(swiotlb, "the dynamic-SWIOTLB seed's small/big/4way read-write through bounce buffers",
       bench_swiotlb);
