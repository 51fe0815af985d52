// SPDX-License-Identifier: MIT
/*
 * Data integrity on real (emulated) disks: virtio-blk, SD cards. The suite
 * overwrites the disks it is given, so it touches only those named on the
 * command line as scratch:
 *
 *	disktest.devs=vda,mmcblk0     disks this suite may overwrite
 *	disktest.bad=vdb:4096         a disk whose sector 4096 fails to read
 *	                              (QEMU blkdebug injects EIO there)
 *
 * Every 512-byte sector written carries its own address and a generation
 * number, so data that lands at the wrong place, comes from an older
 * write or is torn is told apart from data that is right. The harness
 * makes the scratch images and passes these parameters (tools/pagoda).
 */
#include <pagoda/atomic.h>
#include <pagoda/bio.h>
#include <pagoda/blkdev.h>
#include <pagoda/completion.h>
#include <pagoda/err.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/vmalloc.h>

static char disktest_devs[128];
PARAM_STRING("disktest.devs", disktest_devs,
	     "scratch disks the disk_integrity suite may overwrite (comma list)");
static char disktest_bad[48];
PARAM_STRING("disktest.bad", disktest_bad,
	     "DEV:SECTOR: a disk whose SECTOR QEMU's blkdebug fails to read");

static u64 stamp_word(u64 sector, u32 gen, unsigned int i)
{
	u64 x = sector * 0x9e3779b97f4a7c15ULL ^ ((u64)gen << 32 | i);

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 29);
}

static void stamp(void *buf, u64 sector, unsigned int nsect, u32 gen)
{
	for (unsigned int s = 0; s < nsect; s++) {
		u64 *w = (u64 *)((u8 *)buf + 512 * s);

		w[0] = sector + s;
		w[1] = gen;
		for (unsigned int i = 2; i < 64; i++)
			w[i] = stamp_word(sector + s, gen, i);
	}
}

/* The first sector of buf that is not what stamp() wrote, or -1. */
static long check_stamp(const void *buf, u64 sector, unsigned int nsect, u32 gen)
{
	for (unsigned int s = 0; s < nsect; s++) {
		const u64 *w = (const u64 *)((const u8 *)buf + 512 * s);

		if (w[0] != sector + s || w[1] != gen)
			return s;
		for (unsigned int i = 2; i < 64; i++)
			if (w[i] != stamp_word(sector + s, gen, i))
				return s;
	}
	return -1;
}

/* blkdev_rw() wants direct-mapped buffers: whole pages from the allocator. */
static void *big_alloc(size_t bytes)
{
	return (void *)__get_free_pages(GFP_KERNEL, get_order(bytes));
}

static void big_free(void *p, size_t bytes)
{
	if (p)
		free_pages((unsigned long)p, get_order(bytes));
}

/* Call fn on each scratch disk; skip the case when there is none. */
static void for_each_scratch(struct ktest *t,
			     void (*fn)(struct ktest *t, struct block_device *bdev))
{
	char list[sizeof(disktest_devs)], *p = list, *name;
	int n = 0;

	strlcpy(list, disktest_devs, sizeof(list));
	while ((name = strsep(&p, ","))) {
		struct block_device *bdev;

		if (!*name)
			continue;
		bdev = blkdev_get_by_name(name);
		if (IS_ERR(bdev)) {
			ktest_fail(t, __FILE__, __LINE__, "scratch disk %s not found (%ld)", name,
				   PTR_ERR(bdev));
			continue;
		}
		ktest_log(t, "on %s (%llu sectors)", name,
			  (unsigned long long)bdev_nr_sectors(bdev));
		fn(t, bdev);
		blkdev_put(bdev);
		n++;
	}
	if (!n && !t->failures)
		ktest_skip(t, "no scratch disks (disktest.devs=)");
}

static int write_read(struct ktest *t, struct block_device *bdev, u8 *wbuf, u8 *rbuf,
		      u64 sector, unsigned int nsect, u32 gen)
{
	int err;
	long bad;

	stamp(wbuf, sector, nsect, gen);
	err = blkdev_rw(bdev, REQ_OP_WRITE, sector, wbuf, 512 * nsect);
	if (err) {
		ktest_fail(t, __FILE__, __LINE__, "write %u at %llu: %d", nsect,
			   (unsigned long long)sector, err);
		return err;
	}
	memset(rbuf, 0xee, 512 * nsect);
	err = blkdev_rw(bdev, REQ_OP_READ, sector, rbuf, 512 * nsect);
	if (err) {
		ktest_fail(t, __FILE__, __LINE__, "read %u at %llu: %d", nsect,
			   (unsigned long long)sector, err);
		return err;
	}
	bad = check_stamp(rbuf, sector, nsect, gen);
	if (bad >= 0) {
		ktest_fail(t, __FILE__, __LINE__, "%u sectors at %llu: sector %llu reads wrong",
			   nsect, (unsigned long long)sector,
			   (unsigned long long)(sector + (u64)bad));
		return -EIO;
	}
	return 0;
}

/*
 * Size classes: one sector, sub-page, a page, several pages (several
 * segments), and more than one request may carry (the core splits).
 */
static const unsigned int size_classes[] = { 1, 3, 8, 9, 64, 600 };

static void patterns_on(struct ktest *t, struct block_device *bdev)
{
	u64 cap = bdev_nr_sectors(bdev);
	unsigned int max = 600;
	u8 *w = big_alloc(512 * max), *r = big_alloc(512 * max);
	u32 gen = 1;

	if (!w || !r || cap < 2 * max) {
		ktest_fail(t, __FILE__, __LINE__, "setup (disk of %llu sectors)",
			   (unsigned long long)cap);
		goto out;
	}
	for (unsigned int c = 0; c < ARRAY_SIZE(size_classes); c++) {
		unsigned int n = size_classes[c];
		/* Offsets: the start, odd and page-aligned ones, the very end. */
		u64 offsets[] = { 0, 1, 7, 8, 4095, cap / 2 + 3, cap - n };

		for (unsigned int o = 0; o < ARRAY_SIZE(offsets); o++)
			if (write_read(t, bdev, w, r, offsets[o], n, gen++))
				goto out;
	}
out:
	big_free(w, 512 * max);
	big_free(r, 512 * max);
}

static void test_patterns_every_offset_and_size(struct ktest *t)
{
	for_each_scratch(t, patterns_on);
}

static void unaligned_on(struct ktest *t, struct block_device *bdev)
{
	u8 *w = kmalloc(8 * 512 + 64, GFP_KERNEL), *r = kmalloc(8 * 512 + 64, GFP_KERNEL);
	/* Buffers that start at odd addresses and cross page boundaries. */
	static const unsigned int shifts[] = { 1, 3, 4, 60 };

	if (!w || !r) {
		ktest_fail(t, __FILE__, __LINE__, "no memory");
		goto out;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(shifts); i++)
		if (write_read(t, bdev, w + shifts[i], r + shifts[(i + 1) % 4], 100 + 16 * i, 8,
			       1000 + i))
			break;
out:
	kfree(w);
	kfree(r);
}

static void test_unaligned_buffers(struct ktest *t)
{
	for_each_scratch(t, unaligned_on);
}

/* ---- concurrent writers ---- */

struct writer {
	struct block_device *bdev;
	u64 first;		/* its own region */
	unsigned int nsect, rounds;
	int result;
};

static int writer_fn(void *arg)
{
	struct writer *wr = arg;
	u8 *w = kmalloc(16 * 512, GFP_KERNEL), *r = kmalloc(16 * 512, GFP_KERNEL);
	int err = w && r ? 0 : -ENOMEM;

	for (unsigned int round = 0; !err && round < wr->rounds; round++) {
		for (u64 s = wr->first; !err && s < wr->first + wr->nsect; s += 16) {
			stamp(w, s, 16, round + 1);
			err = blkdev_rw(wr->bdev, REQ_OP_WRITE, s, w, 16 * 512);
		}
		for (u64 s = wr->first; !err && s < wr->first + wr->nsect; s += 16) {
			err = blkdev_rw(wr->bdev, REQ_OP_READ, s, r, 16 * 512);
			if (!err && check_stamp(r, s, 16, round + 1) >= 0)
				err = -EILSEQ;
		}
	}
	kfree(w);
	kfree(r);
	wr->result = err;
	return err;
}

static void concurrent_on(struct ktest *t, struct block_device *bdev)
{
	unsigned int nr = MAX(2u, num_online_cpus() * 2);
	struct writer wr[16];
	struct task *task[16];

	nr = MIN(nr, 16u);
	for (unsigned int i = 0; i < nr; i++) {
		wr[i] = (struct writer){ .bdev = bdev, .first = 8192 + 256 * i, .nsect = 128,
					 .rounds = 3 };
		task[i] = kthread_run(writer_fn, &wr[i], "diskw%u", i);
		KASSERT_TRUE(t, task[i] != NULL);
	}
	for (unsigned int i = 0; i < nr; i++) {
		kthread_join(task[i]);
		if (wr[i].result)
			ktest_fail(t, __FILE__, __LINE__, "writer %u: %d%s", i, wr[i].result,
				   wr[i].result == -EILSEQ ? " (read back wrong data)" : "");
	}
}

static void test_concurrent_writers(struct ktest *t)
{
	for_each_scratch(t, concurrent_on);
}

/* ---- more requests in flight than the device has descriptors ---- */

struct flood {
	atomic_t left, errors;
	struct completion done;
};

static void flood_end_io(struct bio *bio)
{
	struct flood *f = bio->bi_private;

	if (bio->bi_status)
		atomic_inc(&f->errors);
	if (atomic_dec_return(&f->left) == 0)
		complete(&f->done);
	bio_put(bio);
}

static void flood_on(struct ktest *t, struct block_device *bdev)
{
	/*
	 * Far more than any ring or tag set here (virtio: 256-1024
	 * descriptors, three per request; SD: two tags), on every other
	 * sector and marked REQ_NOMERGE, so the block core cannot merge them
	 * into fewer requests.
	 */
	enum { NR = 1024, BASE = 16384 };
	struct flood f;
	u8 *buf = vmalloc(NR * 512), *r = big_alloc(2 * NR * 512);
	struct blk_plug plug;
	unsigned int wrong = 0;

	KASSERT_TRUE(t, buf && r);
	for (unsigned int i = 0; i < NR; i++)
		stamp(buf + 512 * i, BASE + 2 * i, 1, 77);
	atomic_set(&f.left, NR);
	atomic_set(&f.errors, 0);
	init_completion(&f.done);
	blk_start_plug(&plug);
	for (unsigned int i = 0; i < NR; i++) {
		struct bio *bio = bio_alloc(bdev, 1, REQ_OP_WRITE | REQ_NOMERGE, GFP_KERNEL);

		KASSERT_TRUE(t, bio != NULL);
		bio->bi_iter.bi_sector = BASE + 2 * i;
		/* One sector of a vmalloc buffer: its page, found by lookup. */
		bio_add_page(bio, vmalloc_to_page(buf + 512 * i), 512,
			     (unsigned long)(buf + 512 * i) & (PAGE_SIZE - 1));
		bio->bi_private = &f;
		bio->bi_end_io = flood_end_io;
		submit_bio(bio);
	}
	blk_finish_plug(&plug);
	wait_for_completion(&f.done);
	KEXPECT_EQ(t, atomic_read(&f.errors), 0);
	for (unsigned int i = 0; i < 2 * NR; i += 128)
		KASSERT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, BASE + i, r + 512 * i, 128 * 512), 0);
	for (unsigned int i = 0; i < NR; i++)
		wrong += check_stamp(r + 1024 * i, BASE + 2 * i, 1, 77) >= 0;
	KEXPECT_EQ(t, wrong, 0);
	vfree(buf);
	big_free(r, 2 * NR * 512);
}

static void test_full_queue_waits(struct ktest *t)
{
	for_each_scratch(t, flood_on);
}

static void flush_on(struct ktest *t, struct block_device *bdev)
{
	u8 *w = kmalloc(4096, GFP_KERNEL), *r = kmalloc(4096, GFP_KERNEL);

	KASSERT_TRUE(t, w && r);
	/* Written, flushed (the write is durable when this returns), read. */
	stamp(w, 200, 8, 5);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA, 200, w, 4096), 0);
	KEXPECT_EQ(t, blkdev_issue_flush(bdev), 0);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 200, r, 4096), 0);
	KEXPECT_EQ(t, check_stamp(r, 200, 8, 5), -1);
	kfree(w);
	kfree(r);
}

static void test_flush(struct ktest *t)
{
	for_each_scratch(t, flush_on);
}

static void beyond_end_on(struct ktest *t, struct block_device *bdev)
{
	u64 cap = bdev_nr_sectors(bdev);
	u8 *w = kzalloc(4096, GFP_KERNEL), *r = kmalloc(512, GFP_KERNEL);

	KASSERT_TRUE(t, w && r);
	stamp(r, cap - 1, 1, 9);
	KASSERT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE, cap - 1, r, 512), 0);
	/* Straddles the end: refused, and the last sector is untouched. */
	KEXPECT_NE(t, blkdev_rw(bdev, REQ_OP_WRITE, cap - 1, w, 4096), 0);
	KEXPECT_NE(t, blkdev_rw(bdev, REQ_OP_READ, cap, r, 512), 0);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, cap - 1, r, 512), 0);
	KEXPECT_EQ(t, check_stamp(r, cap - 1, 1, 9), -1);
	kfree(w);
	kfree(r);
}

static void test_beyond_end_refused(struct ktest *t)
{
	for_each_scratch(t, beyond_end_on);
}

static void test_injected_error(struct ktest *t)
{
	char name[32], *colon;
	struct block_device *bdev;
	u64 bad;
	u8 *buf;
	int err;

	strlcpy(name, disktest_bad, sizeof(name));
	colon = strchr(name, ':');
	if (!colon) {
		ktest_skip(t, "no error-injecting disk (disktest.bad=DEV:SECTOR)");
		return;
	}
	*colon = 0;
	KASSERT_EQ(t, kstrtou64(colon + 1, 0, &bad), 0);
	bdev = blkdev_get_by_name(name);
	KASSERT_TRUE(t, !IS_ERR(bdev));
	buf = kmalloc(8 * 512, GFP_KERNEL);
	KASSERT_TRUE(t, buf != NULL);
	/* The failing sector inside a larger read: the caller sees -EIO... */
	err = blkdev_rw(bdev, REQ_OP_READ, bad - 2, buf, 8 * 512);
	KEXPECT_EQ(t, err, -EIO);
	/* ...and its neighbours still read (nothing hangs, nothing is stuck). */
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, bad + 64, buf, 8 * 512), 0);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, bad - 2, buf, 8 * 512), -EIO);
	kfree(buf);
	blkdev_put(bdev);
}

static char disktest_pi4card[32];
PARAM_STRING("disktest.pi4card", disktest_pi4card,
	     "a partition holding the Pi 4 boot files (make sdcard): read-only checks");

static u32 le32_at(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/*
 * The card `make sdcard` writes, read through the SD host: its FAT32 boot
 * sector, the root directory, and in it kernel8.img, whose first bytes are
 * an arm64 Image header. Nothing is written.
 */
static void test_pi4_card_image(struct ktest *t)
{
	struct block_device *bdev;
	u32 reserved, nfats, fatsz, rootclus, spc, first_sector, clus = 0;
	u8 *buf;
	bool found = false;

	if (!disktest_pi4card[0]) {
		ktest_skip(t, "no Pi 4 card image (disktest.pi4card=)");
		return;
	}
	bdev = blkdev_get_by_name(disktest_pi4card);
	KASSERT_TRUE(t, !IS_ERR(bdev));
	buf = kmalloc(4096, GFP_KERNEL);
	KASSERT_TRUE(t, buf != NULL);
	KASSERT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 0, buf, 512), 0);
	KEXPECT_EQ(t, buf[510], 0x55);
	KEXPECT_EQ(t, buf[511], 0xaa);
	KEXPECT_EQ(t, memcmp(buf + 82, "FAT32   ", 8), 0);
	KASSERT_EQ(t, buf[11] | buf[12] << 8, 512);
	spc = buf[13];
	reserved = buf[14] | buf[15] << 8;
	nfats = buf[16];
	fatsz = le32_at(buf + 36);
	rootclus = le32_at(buf + 44);
	KASSERT_TRUE(t, spc && nfats && fatsz && rootclus >= 2);
	first_sector = reserved + nfats * fatsz;
	/* The root directory's first sector: 16 entries of 32 bytes. */
	KASSERT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, first_sector + (rootclus - 2) * spc, buf,
				512), 0);
	for (int e = 0; e < 16 && !found; e++) {
		const u8 *d = buf + 32 * e;

		if (!memcmp(d, "KERNEL8 IMG", 11)) {
			found = true;
			clus = (u32)(d[20] | d[21] << 8) << 16 | (d[26] | d[27] << 8);
		}
	}
	KEXPECT_TRUE(t, found);
	if (found && clus >= 2) {
		KASSERT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, first_sector + (clus - 2) * spc, buf,
					512), 0);
		/* The arm64 Image header's magic, "ARM\x64", at byte 56. */
		KEXPECT_EQ(t, le32_at(buf + 56), 0x644d5241);
	}
	kfree(buf);
	blkdev_put(bdev);
}

static struct ktest_case disk_integrity_cases[] = {
	KTEST_CASE(test_patterns_every_offset_and_size),
	KTEST_CASE(test_unaligned_buffers),
	KTEST_CASE(test_concurrent_writers),
	KTEST_CASE(test_full_queue_waits),
	KTEST_CASE(test_flush),
	KTEST_CASE(test_beyond_end_refused),
	KTEST_CASE(test_injected_error),
	KTEST_CASE(test_pi4_card_image),
	{}
};
KTEST_SUITE_FULL(disk_integrity, .cases = disk_integrity_cases, .kernel_only = true);
