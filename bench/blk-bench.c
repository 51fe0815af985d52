// SPDX-License-Identifier: MIT
/*
 * `bench block` (and `make bench`): fio's standard cases on every block
 * device there is. null_blk (no data moved: the block layer alone, the
 * software ceiling), brd (a memcpy per I/O, bio-based: no blk-mq), and any
 * other disk (virtio-blk, SD) read-only, since it may hold data.
 *
 *   4 KiB random read and write at queue depth 1 (psync) and 32 (async),
 *   with one job and with one job per CPU; 64 KiB sequential read and
 *   write at queue depth 8. One second each.
 *
 * On a virtio disk it adds 4 KiB random reads at queue depth 8, the case
 * the block issue names its peer by: Debian's Linux 6.1 with fio 3.33
 * (libaio, direct) on the same QEMU settings (q35, TCG, 2 vCPUs, a 64 MiB
 * raw virtio-blk image) does 3,863 IOPS; the ratio is printed beside it.
 *
 * It ends with the block layer's own cost: null_blk IOPS per CPU. Every
 * row is also a BENCH JSON line for tools/bench.py.
 */
#include <pagoda/bench.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>

#include <pagoda/err.h>

#include <pagoda/null_blk.h>
#include "../shell/fio.h"

struct bench_case {
	const char *name;
	enum fio_rw rw;
	unsigned int bs, iodepth;
	bool all_cpus;
};

static const struct bench_case cases[] = {
	{ "randread-4k-qd1", FIO_RANDREAD, 4096, 1, false },
	{ "randread-4k-qd32", FIO_RANDREAD, 4096, 32, false },
	{ "randread-4k-qd32-jobsN", FIO_RANDREAD, 4096, 32, true },
	{ "randwrite-4k-qd1", FIO_RANDWRITE, 4096, 1, false },
	{ "randwrite-4k-qd32", FIO_RANDWRITE, 4096, 32, false },
	{ "randwrite-4k-qd32-jobsN", FIO_RANDWRITE, 4096, 32, true },
	{ "read-64k-qd8", FIO_READ, 65536, 8, false },
	{ "write-64k-qd8", FIO_WRITE, 65536, 8, false },
};

/* The peer's case, and its figure (measured by the block issue). */
static const struct bench_case peer_case = { "randread-4k-qd8", FIO_RANDREAD, 4096, 8, false };
#define PEER_LINUX_VIRTIO_QD8_IOPS 3863

struct bench_dev {
	char name[BDEVNAME_SIZE];
	bool writable;
};

static void collect(struct block_device *bdev, void *arg)
{
	struct bench_dev *devs = arg;
	unsigned int i;

	if (bdev->bd_partno)
		return;
	for (i = 0; i < 8 && devs[i].name[0]; i++)
		;
	if (i == 8)
		return;
	strlcpy(devs[i].name, bdev->bd_name, sizeof(devs[i].name));
	/* Only the RAM-only devices may be written. */
	devs[i].writable = !strncmp(bdev->bd_name, "nullb", 5) || !strncmp(bdev->bd_name, "ram", 3);
}

static u64 run_case(const struct bench_dev *d, const struct bench_case *c, struct fio_summary *s)
{
	struct fio_opts o;
	int dir = c->rw == FIO_WRITE || c->rw == FIO_RANDWRITE;

	fio_default_opts(&o);
	strlcpy(o.filename, d->name, sizeof(o.filename));
	o.rw = c->rw;
	o.bs = c->bs;
	o.iodepth = c->iodepth;
	o.ioengine = c->iodepth > 1 ? FIO_ASYNC : FIO_PSYNC;
	o.numjobs = c->all_cpus ? num_online_cpus() : 1;
	o.size = 64 << 20;
	o.runtime_ns = NSEC_PER_SEC;
	o.group_reporting = true;
	o.quiet = true;
	memset(s, 0, sizeof(*s));
	if (fio_run(&o, s))
		return 0;
	kprintf("  %-8s %-24s %10llu %10llu %10llu %10llu %10llu\n", d->name, c->name,
		(unsigned long long)s->iops[dir], (unsigned long long)(s->bw_kib[dir] / 1024),
		(unsigned long long)(s->lat_avg_ns[dir] / 1000),
		(unsigned long long)(s->lat_p50_ns[dir] / 1000),
		(unsigned long long)(s->lat_p99_ns[dir] / 1000));
	kprintf("BENCH {\"bench\":\"block\",\"arch\":\"%s\",\"accel\":\"%s\",\"cpus\":%u,"
		"\"dev\":\"%s\",\"case\":\"%s\",\"jobs\":%u,\"iops\":%llu,\"bw_kib\":%llu,"
		"\"lat_avg_ns\":%llu,\"lat_p50_ns\":%llu,\"lat_p99_ns\":%llu}\n",
		arch_name, arch_accelerator(), num_online_cpus(), d->name, c->name, o.numjobs,
		(unsigned long long)s->iops[dir], (unsigned long long)s->bw_kib[dir],
		(unsigned long long)s->lat_avg_ns[dir], (unsigned long long)s->lat_p50_ns[dir],
		(unsigned long long)s->lat_p99_ns[dir]);
	return s->iops[dir];
}

static void bench_block(void)
{
	struct bench_dev devs[8];
	struct fio_summary s;
	u64 nullb_jobs_n = 0;
	const char *nullb = NULL;

	struct nullb_config cfg;
	struct nullb *percpu;

	/* A null_blk with one hardware queue per CPU, beside the boot's own. */
	null_default_config(&cfg);
	cfg.size_mb = 1024;
	cfg.submit_queues = 0;
	cfg.memory_backed = false;
	cfg.irqmode = NULL_IRQ_SOFTIRQ;
	percpu = null_create(&cfg);
	if (IS_ERR(percpu))
		percpu = NULL;
	memset(devs, 0, sizeof(devs));
	bdev_for_each(collect, devs);
	kprintf("%u CPUs online, accelerator %s; fio jobs pinned one per CPU; 1 s per case\n",
		num_online_cpus(), arch_accelerator());
	kprintf("  %-8s %-24s %10s %10s %10s %10s %10s\n", "device", "case", "IOPS", "MiB/s",
		"avg us", "p50 us", "p99 us");
	for (unsigned int i = 0; i < 8 && devs[i].name[0]; i++) {
		for (unsigned int k = 0; k < ARRAY_SIZE(cases); k++) {
			const struct bench_case *c = &cases[k];
			u64 iops;

			if (!devs[i].writable && (c->rw == FIO_WRITE || c->rw == FIO_RANDWRITE))
				continue;
			iops = run_case(&devs[i], c, &s);
			if (percpu && !strcmp(devs[i].name, null_disk(percpu)->disk_name) &&
			    !strcmp(c->name, "randread-4k-qd32-jobsN")) {
				nullb = devs[i].name;
				nullb_jobs_n = iops;
			}
		}
		if (!strncmp(devs[i].name, "vd", 2)) {
			u64 iops = run_case(&devs[i], &peer_case, &s);

			kprintf("peer: Linux 6.1 + fio 3.33 (libaio) on q35, TCG, 2 vCPUs: %u IOPS; "
				"%s here (%s, %u CPUs): %llu IOPS = %llu.%02llu x\n",
				PEER_LINUX_VIRTIO_QD8_IOPS, devs[i].name, arch_accelerator(),
				num_online_cpus(), (unsigned long long)iops,
				(unsigned long long)(iops / PEER_LINUX_VIRTIO_QD8_IOPS),
				(unsigned long long)(iops * 100 / PEER_LINUX_VIRTIO_QD8_IOPS % 100));
		}
	}
	if (nullb) {
		kprintf("block layer cost: %s (a hardware queue per CPU) randread 4k qd32, %u jobs: "
			"%llu IOPS = %llu IOPS per CPU\n", nullb, num_online_cpus(),
			(unsigned long long)nullb_jobs_n,
			(unsigned long long)(nullb_jobs_n / num_online_cpus()));
		kprintf("BENCH {\"bench\":\"block\",\"arch\":\"%s\",\"accel\":\"%s\",\"cpus\":%u,"
			"\"dev\":\"%s\",\"case\":\"iops-per-cpu\",\"iops\":%llu}\n", arch_name,
			arch_accelerator(), num_online_cpus(), nullb,
			(unsigned long long)(nullb_jobs_n / num_online_cpus()));
	}
	if (percpu && null_destroy(percpu))
		kprintf("bench block: could not remove %s\n", null_disk(percpu)->disk_name);
}
KBENCH(block, "fio cases on null_blk, brd and any disk: IOPS, MiB/s, latency; IOPS per CPU",
       bench_block);
