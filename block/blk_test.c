// SPDX-License-Identifier: MIT
/*
 * Block layer integrity tests on null_blk (memory_backed) and brd: what is
 * written is read back, at every size class and alignment, through every
 * completion mode, from every CPU at once; a full queue waits; device
 * errors reach the caller; flushes order a volatile cache; partitions and
 * open counts behave. Each case makes its own devices and removes them.
 */
#include <pagoda/blk-mq.h>
#include <pagoda/completion.h>
#include <pagoda/err.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/random.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>

#include <pagoda/null_blk.h>
#include "blk.h"
#include "partitions/mbr_build.h"

/* The null_blk device the cases start from: 64 MiB of memory, 20 us completions. */
static struct nullb_config nullb_cfg(int irqmode, unsigned int queues, unsigned int depth,
				     unsigned int bs)
{
	return (struct nullb_config){
		.size_mb = 64, .bs = bs, .submit_queues = queues, .hw_queue_depth = depth,
		.irqmode = irqmode, .completion_nsec = 20000, .memory_backed = true,
	};
}

static struct nullb *make_nullb(struct ktest *t, struct nullb_config cfg)
{
	struct nullb *nb = null_create(&cfg);

	if (IS_ERR(nb)) {
		ktest_fail(t, __FILE__, __LINE__, "null_create: %ld", PTR_ERR(nb));
		return NULL;
	}
	return nb;
}

static struct block_device *open_disk(struct ktest *t, struct gendisk *disk)
{
	struct block_device *bdev = blkdev_get_by_name(disk->disk_name);

	if (IS_ERR(bdev)) {
		ktest_fail(t, __FILE__, __LINE__, "open %s: %ld", disk->disk_name, PTR_ERR(bdev));
		return NULL;
	}
	return bdev;
}

/*
 * What most cases run on: a null_blk disk made and opened at the start,
 * and at the end closed and removed, which must then succeed, whatever
 * happened in between (test_disk_close() takes what was made).
 */
struct test_disk {
	struct nullb *nb;
	struct block_device *bdev;
};

static struct block_device *test_disk_open(struct ktest *t, struct test_disk *d,
					   struct nullb_config cfg)
{
	d->bdev = NULL;
	d->nb = make_nullb(t, cfg);
	if (d->nb)
		d->bdev = open_disk(t, null_disk(d->nb));
	return d->bdev;
}

static void test_disk_close(struct ktest *t, struct test_disk *d)
{
	if (d->bdev)
		blkdev_put(d->bdev);
	if (d->nb)
		KEXPECT_EQ(t, null_destroy(d->nb), 0);
}

/* Bytes that depend on their disk position and a seed: misplaced data shows. */
static void fill(u8 *buf, size_t len, u64 pos, u32 seed)
{
	for (size_t i = 0; i < len; i++) {
		u64 x = (pos + i) * 0x9e3779b97f4a7c15ULL + seed;

		buf[i] = (u8)(x >> 29);
	}
}

static size_t first_mismatch(const u8 *buf, size_t len, u64 pos, u32 seed)
{
	for (size_t i = 0; i < len; i++) {
		u64 x = (pos + i) * 0x9e3779b97f4a7c15ULL + seed;

		if (buf[i] != (u8)(x >> 29))
			return i;
	}
	return len;
}

/*
 * Write [sector, +len) from a buffer starting `skew` bytes into a page
 * allocation, read it back into a differently skewed one, compare.
 */
static void roundtrip(struct ktest *t, struct block_device *bdev, sector_t sector,
		      size_t len, unsigned int skew, u32 seed)
{
	unsigned int order = get_order(len + PAGE_SIZE);
	u8 *wbuf, *rbuf;
	size_t bad;
	int err;

	wbuf = (u8 *)__get_free_pages(GFP_KERNEL, order);
	rbuf = (u8 *)__get_free_pages(GFP_KERNEL, order);
	if (!wbuf || !rbuf) {
		ktest_fail(t, __FILE__, __LINE__, "no memory for %zu bytes", len);
		goto out;
	}
	fill(wbuf + skew, len, sector * SECTOR_SIZE, seed);
	err = blkdev_rw(bdev, REQ_OP_WRITE, sector, wbuf + skew, len);
	if (err) {
		ktest_fail(t, __FILE__, __LINE__, "%s: write %zu at sector %llu: %d",
			   bdev->bd_name, len, (unsigned long long)sector, err);
		goto out;
	}
	memset(rbuf, 0xa5, PAGE_SIZE << order);
	err = blkdev_rw(bdev, REQ_OP_READ, sector, rbuf + (skew * 7 % 61), len);
	if (err) {
		ktest_fail(t, __FILE__, __LINE__, "%s: read %zu at sector %llu: %d",
			   bdev->bd_name, len, (unsigned long long)sector, err);
		goto out;
	}
	bad = first_mismatch(rbuf + (skew * 7 % 61), len, sector * SECTOR_SIZE, seed);
	if (bad != len)
		ktest_fail(t, __FILE__, __LINE__,
			   "%s: %zu bytes at sector %llu (skew %u): byte %zu differs",
			   bdev->bd_name, len, (unsigned long long)sector, skew, bad);
out:
	if (wbuf)
		free_pages((unsigned long)wbuf, order);
	if (rbuf)
		free_pages((unsigned long)rbuf, order);
}

/* Every size class at several offsets, and skewed buffers. */
static void size_classes(struct ktest *t, struct block_device *bdev)
{
	unsigned int lbs = bdev_logical_block_size(bdev);
	static const size_t sizes[] = {
		512, 1024, 3584, 4096, 8192, 12288, 65536, 69632,
		1 << 20, (1 << 20) + 4096, 3 << 20,  /* beyond one request: split */
	};
	static const unsigned int skews[] = { 0, 8, 512, 1, 100 };
	u32 seed = 1;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t len = ALIGN_UP(sizes[i], (size_t)lbs);

		/* Block-aligned starts: the first, the next, and an odd one. */
		static const unsigned int starts[] = { 0, 1, 7 };

		for (unsigned int k = 0; k < ARRAY_SIZE(starts); k++) {
			sector_t s = starts[k] * (lbs / SECTOR_SIZE);

			roundtrip(t, bdev, s + 8192 * i, len, skews[(i + k) % ARRAY_SIZE(skews)],
				  seed++);
		}
	}
	/* The very end of the device. */
	roundtrip(t, bdev, bdev_nr_sectors(bdev) - 8192 / SECTOR_SIZE, 8192, 3, seed++);
}

static void integrity_on(struct ktest *t, int irqmode, unsigned int queues, unsigned int bs)
{
	struct test_disk d;

	if (test_disk_open(t, &d, nullb_cfg(irqmode, queues, 16, bs)))
		size_classes(t, d.bdev);
	test_disk_close(t, &d);
}

static void test_nullb_irqmode_none(struct ktest *t)
{
	integrity_on(t, NULL_IRQ_NONE, 1, 512);
}

static void test_nullb_irqmode_softirq(struct ktest *t)
{
	integrity_on(t, NULL_IRQ_SOFTIRQ, 1, 512);
}

static void test_nullb_irqmode_timer(struct ktest *t)
{
	integrity_on(t, NULL_IRQ_TIMER, 1, 512);
}

static void test_nullb_queue_per_cpu_4k(struct ktest *t)
{
	integrity_on(t, NULL_IRQ_TIMER, 0, 4096);
}

static void test_brd_integrity(struct ktest *t)
{
	struct block_device *bdev = blkdev_get_by_name("ram0");

	if (IS_ERR(bdev)) {
		ktest_skip(t, "no ram0 (brd.rd_nr=0)");
		return;
	}
	if (bdev_nr_sectors(bdev) < 16384) {
		/* Too small for the 3 MiB class: the small ones only. */
		roundtrip(t, bdev, 0, 4096, 1, 7);
		roundtrip(t, bdev, 9, 65536, 0, 8);
	} else {
		size_classes(t, bdev);
	}
	blkdev_put(bdev);
}

/* Bad lengths and positions fail the call and nothing else. */
static void test_bad_requests(struct ktest *t)
{
	struct test_disk d;
	struct block_device *bdev = test_disk_open(t, &d, nullb_cfg(NULL_IRQ_SOFTIRQ, 1, 8, 4096));
	u8 *buf = kmalloc(8192, GFP_KERNEL);

	if (!bdev || !buf)
		goto out;
	/* 4 KiB blocks: half a block, or a start inside a block, is refused. */
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 0, buf, 2048), -EINVAL);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 1, buf, 4096), -EINVAL);
	/* Past the end. */
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, bdev_nr_sectors(bdev) - 8, buf, 8192), -EIO);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, bdev_nr_sectors(bdev), buf, 4096), -EIO);
	/* And the device still works. */
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, bdev_nr_sectors(bdev) - 8, buf, 4096), 0);
out:
	kfree(buf);
	test_disk_close(t, &d);
}

/* Injected media errors reach the caller, also from one piece of a split bio. */
static void test_device_errors(struct ktest *t)
{
	struct test_disk d;
	struct block_device *bdev = test_disk_open(t, &d, nullb_cfg(NULL_IRQ_TIMER, 1, 8, 512));
	size_t big = 3 << 20;
	u8 *buf = (u8 *)__get_free_pages(GFP_KERNEL, 10);

	if (!bdev || !buf)
		goto out;
	KEXPECT_EQ(t, null_badblocks_add(d.nb, 5000, 8), 0);
	memset(buf, 0x5a, big);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE, 5000, buf, 512), -EIO);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 5007, buf, 512), -EIO);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 4992, buf, 4096), 0);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 5008, buf, 4096), 0);
	/* 3 MiB starting well before: split in three, the last piece fails. */
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE, 5008 - 4096 - 2048 - 8, buf, big), -EIO);
	null_badblocks_clear(d.nb);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE, 5000, buf, 512), 0);
out:
	if (buf)
		free_pages((unsigned long)buf, 10);
	test_disk_close(t, &d);
}

/* --- a full queue -------------------------------------------------------- */

struct async_batch {
	atomic_t left;
	atomic_t errors;
	struct completion done;
};

static void batch_endio(struct bio *bio)
{
	struct async_batch *b = bio->bi_private;

	if (bio->bi_status)
		atomic_inc(&b->errors);
	bio_put(bio);
	if (atomic_dec_and_test(&b->left))
		complete(&b->done);
}

/* 64 separate requests at a queue with 2 tags: they wait, none fails. */
static void test_full_queue_waits(struct ktest *t)
{
	struct test_disk d;
	struct block_device *bdev = test_disk_open(t, &d, nullb_cfg(NULL_IRQ_TIMER, 1, 2, 512));
	struct async_batch b;
	struct blk_mq_hw_ctx *hctx;
	u8 *buf = (u8 *)__get_free_pages(GFP_KERNEL, 0);
	const int nr = 64;
	s64 before;

	if (!bdev || !buf)
		goto out;
	/* add_disk() already read the partition table: count from here. */
	before = atomic64_read(&null_disk(d.nb)->queue->nr_requests);
	atomic_set(&b.left, nr + 1);
	atomic_set(&b.errors, 0);
	init_completion(&b.done);
	fill(buf, PAGE_SIZE, 0, 3);
	for (int i = 0; i < nr; i++) {
		struct bio *bio = bio_alloc(bdev, 1, REQ_OP_WRITE, GFP_KERNEL);

		/* Every other 4 KiB: no two are neighbours, none merge. */
		bio->bi_iter.bi_sector = (sector_t)i * 16;
		bio_add_page(bio, virt_to_page(buf), PAGE_SIZE, 0);
		bio->bi_end_io = batch_endio;
		bio->bi_private = &b;
		submit_bio(bio);
	}
	if (atomic_dec_and_test(&b.left))
		complete(&b.done);
	wait_for_completion(&b.done);
	KEXPECT_EQ(t, atomic_read(&b.errors), 0);
	hctx = null_disk(d.nb)->queue->queue_hw_ctx[0];
	/*
	 * Never more in flight than there are tags. Whether both tags were
	 * ever busy at once depends on the timer beating the submitter, which
	 * a loaded host decides: ask only for the bound.
	 */
	KEXPECT_GE(t, hctx->max_in_flight, 1);
	KEXPECT_LE(t, hctx->max_in_flight, 2);
	KEXPECT_EQ(t, atomic64_read(&null_disk(d.nb)->queue->nr_requests) - before, nr);
	/*
	 * The last bio's end_io runs before its request is freed, so wait
	 * (bounded) for the queue's count of requests not yet freed: zero,
	 * and only then are the tags all back.
	 */
	for (int ms = 0; ms < 2000 && atomic_read(&null_disk(d.nb)->queue->q_usage_counter); ms++)
		msleep(1);
	KEXPECT_EQ(t, atomic_read(&null_disk(d.nb)->queue->q_usage_counter), 0);
	KEXPECT_EQ(t, atomic_read(&hctx->tags->active), 0);
out:
	if (buf)
		free_pages((unsigned long)buf, 0);
	test_disk_close(t, &d);
}

/* Adjacent writes under a plug become fewer requests; data stays right. */
static void test_plug_merges(struct ktest *t)
{
	struct test_disk d;
	struct block_device *bdev = test_disk_open(t, &d, nullb_cfg(NULL_IRQ_SOFTIRQ, 1, 64, 512));
	struct request_queue *q;
	u8 *buf = (u8 *)__get_free_pages(GFP_KERNEL, 3), *back;
	struct async_batch b;
	struct blk_plug plug;
	s64 rqs, merges;

	if (!bdev || !buf)
		goto out;
	q = null_disk(d.nb)->queue;
	fill(buf, 8 * PAGE_SIZE, 1 << 20, 9);
	rqs = atomic64_read(&q->nr_requests);
	merges = atomic64_read(&q->nr_merges);
	atomic_set(&b.left, 9);
	atomic_set(&b.errors, 0);
	init_completion(&b.done);
	blk_start_plug(&plug);
	for (int i = 0; i < 8; i++) {
		struct bio *bio = bio_alloc(bdev, 1, REQ_OP_WRITE, GFP_KERNEL);

		bio->bi_iter.bi_sector = (1 << 20) / SECTOR_SIZE + i * 8;
		bio_add_page(bio, virt_to_page(buf + i * PAGE_SIZE), PAGE_SIZE, 0);
		bio->bi_end_io = batch_endio;
		bio->bi_private = &b;
		submit_bio(bio);
	}
	blk_finish_plug(&plug);
	if (atomic_dec_and_test(&b.left))
		complete(&b.done);
	wait_for_completion(&b.done);
	KEXPECT_EQ(t, atomic_read(&b.errors), 0);
	KEXPECT_EQ(t, atomic64_read(&q->nr_requests) - rqs, 1);
	KEXPECT_EQ(t, atomic64_read(&q->nr_merges) - merges, 7);
	back = kmalloc(8 * PAGE_SIZE, GFP_KERNEL);
	if (back) {
		KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, (1 << 20) / SECTOR_SIZE, back,
				       8 * PAGE_SIZE), 0);
		KEXPECT_EQ(t, first_mismatch(back, 8 * PAGE_SIZE, 1 << 20, 9), 8 * PAGE_SIZE);
		kfree(back);
	}
out:
	if (buf)
		free_pages((unsigned long)buf, 3);
	test_disk_close(t, &d);
}

/* --- every CPU at once --------------------------------------------------- */

struct writer {
	struct block_device *bdev;
	unsigned int id;
	int failures;
	struct task *task;
};

/* Each writer owns a 1 MiB stripe: writes patterns, reads them back. */
static int writer_fn(void *arg)
{
	struct writer *w = arg;
	u8 *buf = kmalloc(65536, GFP_KERNEL), *back = kmalloc(65536, GFP_KERNEL);
	sector_t base = (sector_t)w->id * 2048;

	if (!buf || !back) {
		w->failures++;
		goto out;
	}
	for (unsigned int round = 0; round < 24; round++) {
		size_t len = 4096 << (round % 5);
		sector_t s = base + (round * 136) % (2048 - len / SECTOR_SIZE);

		fill(buf, len, s * SECTOR_SIZE, w->id * 100 + round);
		if (blkdev_rw(w->bdev, REQ_OP_WRITE, s, buf, len) ||
		    blkdev_rw(w->bdev, REQ_OP_READ, s, back, len) ||
		    first_mismatch(back, len, s * SECTOR_SIZE, w->id * 100 + round) != len)
			w->failures++;
	}
out:
	kfree(buf);
	kfree(back);
	return 0;
}

static void concurrent_on(struct ktest *t, struct block_device *bdev)
{
	struct writer w[2 * NR_CPUS];
	unsigned int n = 2 * num_online_cpus(), cpu = 0;

	for (unsigned int i = 0; i < n; i++) {
		w[i] = (struct writer){ .bdev = bdev, .id = i };
		w[i].task = kthread_create(writer_fn, &w[i], "blkw%u", i);
		if (!w[i].task) {
			ktest_fail(t, __FILE__, __LINE__, "kthread_create");
			n = i;
			break;
		}
		while (!cpu_online(cpu % NR_CPUS))
			cpu++;
		set_cpus_allowed(w[i].task, 1ULL << (cpu++ % NR_CPUS));
		wake_up_process(w[i].task);
	}
	for (unsigned int i = 0; i < n; i++) {
		kthread_join(w[i].task);
		if (w[i].failures)
			ktest_fail(t, __FILE__, __LINE__, "writer %u: %d bad rounds", i,
				   w[i].failures);
	}
}

static void test_concurrent_writers(struct ktest *t)
{
	/* One queue per CPU, and one queue shared by all. */
	for (unsigned int queues = 0; queues < 2; queues++) {
		struct test_disk d;

		if (test_disk_open(t, &d, nullb_cfg(NULL_IRQ_TIMER, queues, 4, 512)))
			concurrent_on(t, d.bdev);
		test_disk_close(t, &d);
	}
}


/* --- flushes ------------------------------------------------------------- */

/* 16 MiB behind a 4 MiB volatile write cache, with or without FUA. */
static struct nullb_config cached_cfg(bool fua)
{
	struct nullb_config cfg = nullb_cfg(NULL_IRQ_TIMER, 1, 8, 512);

	cfg.size_mb = 16;
	cfg.cache_size_mb = 4;
	cfg.fua = fua;
	return cfg;
}

static int write_flags(struct block_device *bdev, sector_t s, u8 *buf, blk_opf_t flags)
{
	struct bio *bio = bio_alloc(bdev, 1, REQ_OP_WRITE | flags, GFP_KERNEL);
	int err;

	if (!bio)
		return -ENOMEM;
	bio->bi_iter.bi_sector = s;
	bio_add_page(bio, virt_to_page(buf), PAGE_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

static bool reads_back(struct block_device *bdev, sector_t s, u32 seed, u8 *tmp)
{
	return !blkdev_rw(bdev, REQ_OP_READ, s, tmp, PAGE_SIZE) &&
	       first_mismatch(tmp, PAGE_SIZE, s * SECTOR_SIZE, seed) == PAGE_SIZE;
}

/*
 * A volatile cache loses unflushed writes at "power failure"; a flush, a
 * PREFLUSH and FUA each make exactly what they promise durable. With
 * fua=false the core must emulate FUA by a flush after the write.
 */
static void flush_ordering(struct ktest *t, bool fua)
{
	struct test_disk d;
	struct block_device *bdev = test_disk_open(t, &d, cached_cfg(fua));
	u8 *a = (u8 *)__get_free_pages(GFP_KERNEL, 0), *b = (u8 *)__get_free_pages(GFP_KERNEL, 0);
	u8 *tmp = kmalloc(PAGE_SIZE, GFP_KERNEL);
	u64 flushes;

	if (!bdev || !a || !b || !tmp)
		goto out;
	fill(a, PAGE_SIZE, 800 * SECTOR_SIZE, 11);
	fill(b, PAGE_SIZE, 1600 * SECTOR_SIZE, 12);

	/* Unflushed: readable now, gone after the power fails. */
	KEXPECT_EQ(t, write_flags(bdev, 800, a, 0), 0);
	KEXPECT_TRUE(t, reads_back(bdev, 800, 11, tmp));
	null_cache_drop(d.nb);
	KEXPECT_FALSE(t, reads_back(bdev, 800, 11, tmp));

	/* Written, then flushed: survives. */
	KEXPECT_EQ(t, write_flags(bdev, 800, a, 0), 0);
	KEXPECT_EQ(t, blkdev_issue_flush(bdev), 0);
	null_cache_drop(d.nb);
	KEXPECT_TRUE(t, reads_back(bdev, 800, 11, tmp));

	/* A PREFLUSH write makes the earlier write durable; FUA makes itself durable. */
	fill(a, PAGE_SIZE, 3200 * SECTOR_SIZE, 13);
	flushes = null_nr_flushes(d.nb);
	KEXPECT_EQ(t, write_flags(bdev, 3200, a, 0), 0);
	KEXPECT_EQ(t, write_flags(bdev, 1600, b, REQ_PREFLUSH | REQ_FUA), 0);
	null_cache_drop(d.nb);
	KEXPECT_TRUE(t, reads_back(bdev, 3200, 13, tmp));
	KEXPECT_TRUE(t, reads_back(bdev, 1600, 12, tmp));
	/* One flush for PREFLUSH, and one more when the device has no FUA. */
	KEXPECT_EQ(t, null_nr_flushes(d.nb) - flushes, fua ? 1 : 2);
out:
	kfree(tmp);
	if (a)
		free_pages((unsigned long)a, 0);
	if (b)
		free_pages((unsigned long)b, 0);
	test_disk_close(t, &d);
}

static void test_flush_ordering_fua(struct ktest *t)
{
	flush_ordering(t, true);
}

static void test_flush_ordering_emulated_fua(struct ktest *t)
{
	flush_ordering(t, false);
}

/* Without a write cache a flush is a no-op that succeeds. */
static void test_flush_without_cache(struct ktest *t)
{
	struct test_disk d;

	if (test_disk_open(t, &d, nullb_cfg(NULL_IRQ_SOFTIRQ, 1, 8, 512))) {
		KEXPECT_EQ(t, blkdev_issue_flush(d.bdev), 0);
		KEXPECT_EQ(t, null_nr_flushes(d.nb), 0);
	}
	test_disk_close(t, &d);
}

/* Discard and write-zeroes read back as zeroes, and only where asked. */
static void test_discard_write_zeroes(struct ktest *t)
{
	struct test_disk d;
	struct block_device *bdev = test_disk_open(t, &d, nullb_cfg(NULL_IRQ_NONE, 1, 8, 512));
	struct bio *bio;
	u8 *buf = kmalloc(65536, GFP_KERNEL);

	if (!bdev || !buf)
		goto out;
	fill(buf, 65536, 0, 21);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE, 0, buf, 65536), 0);
	bio = bio_alloc(bdev, 0, REQ_OP_DISCARD, GFP_KERNEL);
	bio->bi_iter.bi_sector = 9;    /* a partial page, then whole pages */
	bio->bi_iter.bi_size = 40 * SECTOR_SIZE;
	KEXPECT_EQ(t, submit_bio_wait(bio), 0);
	bio_put(bio);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 0, buf, 65536), 0);
	KEXPECT_EQ(t, first_mismatch(buf, 9 * SECTOR_SIZE, 0, 21), 9 * SECTOR_SIZE);
	for (unsigned int i = 9 * SECTOR_SIZE; i < 49 * SECTOR_SIZE; i++)
		if (buf[i]) {
			ktest_fail(t, __FILE__, __LINE__, "byte %u not zero after discard", i);
			break;
		}
	KEXPECT_EQ(t, first_mismatch(buf + 49 * SECTOR_SIZE, 65536 - 49 * SECTOR_SIZE,
				     49 * SECTOR_SIZE, 21), 65536 - 49 * SECTOR_SIZE);
out:
	kfree(buf);
	test_disk_close(t, &d);
}

/* --- partitions on a device ---------------------------------------------- */

static void test_partitions_on_device(struct ktest *t)
{
	struct nullb *nb = make_nullb(t, nullb_cfg(NULL_IRQ_SOFTIRQ, 1, 8, 512));
	struct block_device *disk, *p1 = NULL, *p2 = NULL;
	char name[BDEVNAME_SIZE];
	u8 *buf = kzalloc(8192, GFP_KERNEL);

	if (!nb || !buf)
		goto out;
	disk = open_disk(t, null_disk(nb));
	if (!disk)
		goto out;
	/* MBR: sectors 2048+2048 and 8192+4096. */
	mbr_entry(buf, 0, 0x83, 2048, 2048);
	mbr_entry(buf, 1, 0x83, 8192, 4096);
	KEXPECT_EQ(t, blkdev_rw(disk, REQ_OP_WRITE, 0, buf, 512), 0);
	/* Rereading while the disk is open is refused. */
	KEXPECT_EQ(t, bdev_disk_changed(null_disk(nb)), -EBUSY);
	blkdev_put(disk);
	KEXPECT_EQ(t, bdev_disk_changed(null_disk(nb)), 0);
	disk_name_part(null_disk(nb)->disk_name, 1, name, sizeof(name));
	p1 = blkdev_get_by_name(name);
	KASSERT_TRUE(t, !IS_ERR(p1));
	KEXPECT_EQ(t, p1->bd_start_sect, 2048);
	KEXPECT_EQ(t, bdev_nr_sectors(p1), 2048);
	disk_name_part(null_disk(nb)->disk_name, 2, name, sizeof(name));
	p2 = blkdev_get_by_name(name);
	KASSERT_TRUE(t, !IS_ERR(p2));
	/*
	 * Device numbers: a nullb has one minor (Linux's), so its partitions
	 * take the extended major's; each is found by its number and by its
	 * /dev path as well as by its name.
	 */
	{
		struct block_device *d = null_disk(nb)->part0;
		char num[24], path[BDEVNAME_SIZE + 8];

		KEXPECT_EQ(t, MINOR(d->bd_dev), null_disk(nb)->first_minor);
		KEXPECT_EQ(t, MAJOR(p1->bd_dev), BLOCK_EXT_MAJOR);
		KEXPECT_EQ(t, MAJOR(p2->bd_dev), BLOCK_EXT_MAJOR);
		KEXPECT_NE(t, p1->bd_dev, p2->bd_dev);
		snprintf(num, sizeof(num), "%u:%u", MAJOR(p2->bd_dev), MINOR(p2->bd_dev));
		KEXPECT_TRUE(t, bdev_lookup(num) == p2);
		snprintf(num, sizeof(num), "%u:%u", MAJOR(d->bd_dev), MINOR(d->bd_dev));
		KEXPECT_TRUE(t, bdev_lookup(num) == d);
		snprintf(path, sizeof(path), "/dev/%s", name);
		KEXPECT_TRUE(t, bdev_lookup(path) == p2);
		KEXPECT_TRUE(t, bdev_lookup("511:1048575") == NULL);
		KEXPECT_TRUE(t, bdev_lookup("1:") == NULL);
		KEXPECT_TRUE(t, bdev_lookup("99999999999:0") == NULL);
	}
	/* Sector 0 of p2 is sector 8192 of the disk. */
	fill(buf, 4096, 0, 31);
	KEXPECT_EQ(t, blkdev_rw(p2, REQ_OP_WRITE, 0, buf, 4096), 0);
	/* Past the partition's end, though inside the disk: refused. */
	KEXPECT_EQ(t, blkdev_rw(p1, REQ_OP_WRITE, 2040, buf, 8192), -EIO);
	/* The disk or a partition open: no removal. */
	KEXPECT_EQ(t, null_destroy(nb), -EBUSY);
	blkdev_put(p1);
	blkdev_put(p2);
	disk = open_disk(t, null_disk(nb));
	if (disk) {
		memset(buf, 0, 4096);
		KEXPECT_EQ(t, blkdev_rw(disk, REQ_OP_READ, 8192, buf, 4096), 0);
		KEXPECT_EQ(t, first_mismatch(buf, 4096, 0, 31), 4096);
		/* Now overlap the two: the table is refused as a whole. */
		memset(buf, 0, 512);
		mbr_entry(buf, 0, 0x83, 2048, 8192);
		mbr_entry(buf, 1, 0x83, 8192, 4096);
		KEXPECT_EQ(t, blkdev_rw(disk, REQ_OP_WRITE, 0, buf, 512), 0);
		blkdev_put(disk);
	}
	ktest_expect_reports(t, true); /* "partition table ignored: ... overlap" */
	KEXPECT_EQ(t, bdev_disk_changed(null_disk(nb)), 0);
	KEXPECT_EQ(t, null_disk(nb)->nr_parts, 0);
	KEXPECT_TRUE(t, bdev_lookup(name) == NULL);
out:
	kfree(buf);
	if (nb)
		KEXPECT_EQ(t, null_destroy(nb), 0);
}

/* --- opens --------------------------------------------------------------- */

static void test_open_blocks_removal(struct ktest *t)
{
	struct nullb *nb = make_nullb(t, nullb_cfg(NULL_IRQ_NONE, 1, 4, 512));
	struct block_device *a, *b;

	if (!nb)
		return;
	a = open_disk(t, null_disk(nb));
	b = open_disk(t, null_disk(nb));
	KEXPECT_EQ(t, null_destroy(nb), -EBUSY);
	blkdev_put(a);
	KEXPECT_EQ(t, null_destroy(nb), -EBUSY);
	blkdev_put(b);
	KEXPECT_EQ(t, null_destroy(nb), 0);
	KEXPECT_TRUE(t, IS_ERR(blkdev_get_by_name("nullb_no_such")));
}

static struct ktest_case blk_cases[] = {
	KTEST_CASE(test_nullb_irqmode_none),
	KTEST_CASE(test_nullb_irqmode_softirq),
	KTEST_CASE(test_nullb_irqmode_timer),
	KTEST_CASE(test_nullb_queue_per_cpu_4k),
	KTEST_CASE(test_brd_integrity),
	KTEST_CASE(test_bad_requests),
	KTEST_CASE(test_device_errors),
	KTEST_CASE(test_full_queue_waits),
	KTEST_CASE(test_plug_merges),
	KTEST_CASE(test_concurrent_writers),
	KTEST_CASE(test_open_blocks_removal),
	KTEST_CASE(test_flush_ordering_fua),
	KTEST_CASE(test_flush_ordering_emulated_fua),
	KTEST_CASE(test_flush_without_cache),
	KTEST_CASE(test_discard_write_zeroes),
	KTEST_CASE(test_partitions_on_device),
	{}
};
KTEST_SUITE_FULL(block, .cases = blk_cases, .kernel_only = true);
