// SPDX-License-Identifier: MIT
/*
 * test=dm: the device-mapper core and dm-snapshot, on memory-backed
 * null_blk devices.
 *
 * The heart is a model check: an origin with three snapshots (persistent
 * 4 KiB chunks, transient 64 KiB, persistent 512 KiB), made at different
 * moments, written and read at random through every device from a thread
 * on every CPU, then with unaligned bios crossing many chunks. A model
 * keeps, per sector of each device, the tag of the write it must hold;
 * every sector read must carry its tag. Each thread owns a stripe of 4 KiB
 * blocks (so the model needs no lock), while chunks of 64 and 512 KiB are
 * shared between threads: origin writes and snapshot writes on them race
 * for the same pending exceptions. It runs once per locking scheme.
 *
 * Then: Linux's on-disk format from hand-built fixtures, reload of a
 * persistent store, a full COW device (Invalid, origin intact), refused
 * headers, a merge back into the origin while it is read, and the
 * exception table's buckets read from inside.
 */
#include <pagoda/device-mapper.h>
#include <pagoda/err.h>
#include <pagoda/ktest.h>
#include <pagoda/params.h>
#include <pagoda/random.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/unaligned.h>
#include <pagoda/vmalloc.h>

#include <pagoda/null_blk.h>
#include "dm-core.h"
#include "dm-exception-store.h"
#include "dm-snap-format.h"
#include "dm-snap.h"
#include "dm_test.h"

struct nullb *dmt_nullb(struct ktest *t, u64 size_mb)
{
	struct nullb_config cfg;
	struct nullb *nb;

	null_default_config(&cfg);
	cfg.size_mb = size_mb;
	cfg.bs = 512;
	cfg.memory_backed = true;
	cfg.cache_size_mb = 0;
	nb = null_create(&cfg);
	if (IS_ERR(nb)) {
		ktest_fail(t, __FILE__, __LINE__, "null_create: %ld", PTR_ERR(nb));
		return NULL;
	}
	return nb;
}

const char *nbname(struct nullb *nb)
{
	return null_disk(nb)->disk_name;
}

static struct mapped_device *dmt_create(struct ktest *t, const char *name, const char *table)
{
	struct mapped_device *md;
	int err = dm_create(name, &md);

	if (err) {
		ktest_fail(t, __FILE__, __LINE__, "dm_create %s: %d", name, err);
		return NULL;
	}
	err = dm_table_load(md, table);
	if (!err)
		err = dm_resume(md);
	if (err) {
		ktest_fail(t, __FILE__, __LINE__, "%s: table '%s': %d (%s)", name, table, err,
			   dm_last_error());
		dm_remove(md);
		return NULL;
	}
	return md;
}

static struct block_device *dmt_open(struct ktest *t, struct mapped_device *md)
{
	struct block_device *bdev = blkdev_get_by_name(dm_disk_name(md));

	if (IS_ERR(bdev)) {
		ktest_fail(t, __FILE__, __LINE__, "open %s: %ld", dm_disk_name(md), PTR_ERR(bdev));
		return NULL;
	}
	return bdev;
}

static void dmt_close_remove(struct ktest *t, struct mapped_device *md, struct block_device *b)
{
	if (b)
		blkdev_put(b);
	if (md)
		KEXPECT_EQ(t, dm_remove(md), 0);
}

/* The first line of a device's status, without the "start len target " part. */
static void dmt_status(struct mapped_device *md, char *buf, size_t size)
{
	char *p;

	dm_status(md, STATUSTYPE_INFO, buf, size);
	for (int i = 0; i < 3 && (p = strchr(buf, ' ')); i++)
		memmove(buf, p + 1, strlen(p + 1) + 1);
	if ((p = strchr(buf, '\n')))
		*p = 0;
}

/* ------------------------------------------------------------ the model */

#define MODEL_SECTORS 8192U	/* 4 MiB origin */
#define MODEL_BLOCKS (MODEL_SECTORS / 8)
#define MODEL_DEVS 4		/* origin + three snapshots */
/* Kept small: test=all runs this on every target under TCG. */
#define MODEL_OPS 64		/* per phase, shared among the CPUs' threads */
#define MODEL_BIG_OPS 8

/* A sector's bytes say which write put them there, and where. */
static void fill_sector(u8 *p, u32 tag, u64 sector)
{
	u32 *w = (u32 *)p;

	for (int i = 0; i < 128; i++)
		w[i] = tag * 2654435761U + (u32)sector * 40503U + (u32)i;
	w[0] = tag;
	w[1] = (u32)sector;
}

static bool sector_has(const u8 *p, u32 tag, u64 sector)
{
	const u32 *w = (const u32 *)p;

	if (w[0] != tag || w[1] != (u32)sector)
		return false;
	for (int i = 2; i < 128; i++)
		if (w[i] != tag * 2654435761U + (u32)sector * 40503U + (u32)i)
			return false;
	return true;
}

struct model {
	struct block_device *dev[MODEL_DEVS];
	u32 *tag[MODEL_DEVS];	/* per sector: the write it must read back */
	unsigned int ndevs;
	atomic_t next_tag;
	atomic_t errors;
};

static int model_write(struct model *m, unsigned int d, u64 sector, unsigned int n, u8 *buf)
{
	u32 tag = (u32)atomic_inc_return(&m->next_tag);
	int err;

	for (unsigned int i = 0; i < n; i++)
		fill_sector(buf + i * 512, tag, sector + i);
	err = blkdev_rw(m->dev[d], REQ_OP_WRITE, sector, buf, (size_t)n * 512);
	if (err)
		return err;
	for (unsigned int i = 0; i < n; i++)
		m->tag[d][sector + i] = tag;
	return 0;
}

static int model_check(struct model *m, unsigned int d, u64 sector, unsigned int n, u8 *buf)
{
	int err = blkdev_rw(m->dev[d], REQ_OP_READ, sector, buf, (size_t)n * 512);

	if (err)
		return err;
	for (unsigned int i = 0; i < n; i++)
		if (!sector_has(buf + i * 512, m->tag[d][sector + i], sector + i)) {
			const u32 *w = (const u32 *)(buf + i * 512);

			pr_err("dm model: dev %u sector %llu: want tag %u, read tag %u sector %u\n",
			       d, (unsigned long long)(sector + i), m->tag[d][sector + i], w[0], w[1]);
			return -EILSEQ;
		}
	return 0;
}

struct model_worker {
	struct model *m;
	unsigned int id, nthreads, ops;
	u64 seed;
	int err;
};

/* Random I/O inside this thread's own 4 KiB blocks, on every device. */
static int model_worker_fn(void *arg)
{
	struct model_worker *w = arg;
	struct model *m = w->m;
	u8 *buf = kmalloc(4096, GFP_KERNEL);
	struct rng rng;

	if (!buf) {
		w->err = -ENOMEM;
		return 0;
	}
	rng_seed(&rng, w->seed);
	for (unsigned int op = 0; op < w->ops && !w->err; op++) {
		unsigned int d = rng_below(&rng, 2) ? 0 : 1 + (unsigned int)rng_below(&rng, m->ndevs - 1);
		u64 block = rng_below(&rng, MODEL_BLOCKS / w->nthreads) * w->nthreads + w->id;
		unsigned int off = (unsigned int)rng_below(&rng, 8);
		unsigned int n = 1 + (unsigned int)rng_below(&rng, 8 - off);
		u64 sector = block * 8 + off;

		if (rng_below(&rng, 3) == 0)
			n = 8, sector = block * 8;	/* whole 4 KiB chunks skip the copy */
		if (rng_below(&rng, 2))
			w->err = model_write(m, d, sector, n, buf);
		else
			w->err = model_check(m, d, sector, n, buf);
	}
	kfree(buf);
	return 0;
}

static void model_phase(struct ktest *t, struct model *m, unsigned int ops, u64 seed)
{
	unsigned int n = num_online_cpus(), cpu = 0;
	struct model_worker *w = kcalloc(n, sizeof(*w), GFP_KERNEL);
	struct task **tasks = kcalloc(n, sizeof(*tasks), GFP_KERNEL);

	if (!w || !tasks) {
		ktest_fail(t, __FILE__, __LINE__, "no memory");
		goto out;
	}
	for (unsigned int i = 0; i < n; i++) {
		w[i] = (struct model_worker){ .m = m, .id = i, .nthreads = n, .ops = ops / n,
					      .seed = seed * 1000 + i };
		tasks[i] = kthread_create(model_worker_fn, &w[i], "dmmodel%u", i);
		if (!tasks[i]) {
			n = i;
			break;
		}
		while (!cpu_online(cpu % NR_CPUS))
			cpu++;
		set_cpus_allowed(tasks[i], 1ULL << (cpu++ % NR_CPUS));
		wake_up_process(tasks[i]);
	}
	for (unsigned int i = 0; i < n; i++) {
		kthread_join(tasks[i]);
		if (w[i].err)
			ktest_fail(t, __FILE__, __LINE__, "worker %u (seed %llu): %d", i,
				   (unsigned long long)w[i].seed, w[i].err);
	}
out:
	kfree(w);
	kfree(tasks);
}

/* One thread: unaligned bios up to 1 MiB, across many chunks. */
static void model_big_bios(struct ktest *t, struct model *m, unsigned int ops, u64 seed)
{
	u8 *buf = kmalloc(2048 * 512, GFP_KERNEL);
	struct rng rng;

	if (!buf) {
		ktest_fail(t, __FILE__, __LINE__, "no memory");
		return;
	}
	rng_seed(&rng, seed);
	for (unsigned int op = 0; op < ops; op++) {
		unsigned int d = (unsigned int)rng_below(&rng, m->ndevs);
		unsigned int n = 1 + (unsigned int)rng_below(&rng, 2048);
		u64 sector = rng_below(&rng, MODEL_SECTORS - n);
		int err = rng_below(&rng, 2) ? model_write(m, d, sector, n, buf) :
					       model_check(m, d, sector, n, buf);

		if (err) {
			ktest_fail(t, __FILE__, __LINE__, "dev %u sector %llu +%u: %d", d,
				   (unsigned long long)sector, n, err);
			break;
		}
	}
	kfree(buf);
}

static void model_check_all(struct ktest *t, struct model *m)
{
	u8 *buf = kmalloc(2048 * 512, GFP_KERNEL);

	if (!buf)
		return;
	for (unsigned int d = 0; d < m->ndevs; d++)
		for (u64 s = 0; s < MODEL_SECTORS; s += 2048) {
			int err = model_check(m, d, s, 2048, buf);

			if (err) {
				ktest_fail(t, __FILE__, __LINE__, "final read dev %u at %llu: %d", d,
					   (unsigned long long)s, err);
				break;
			}
		}
	kfree(buf);
}

static const char *const snap_specs[] = { "P 8", "N 128", "P 1024" };

static void set_locking(const char *mode)
{
	param_set(param_find("dm_snapshot.locking"), mode);
}

static void run_model(struct ktest *t, const char *locking)
{
	struct nullb *onb = NULL, *cnb[3] = { NULL };
	struct mapped_device *omd = NULL, *smd[3] = { NULL };
	struct model m = { 0 };
	char table[160], name[16];
	u8 *buf = kmalloc(2048 * 512, GFP_KERNEL);

	set_locking(locking);
	onb = dmt_nullb(t, MODEL_SECTORS / 2048);
	for (int i = 0; i < 3; i++)
		cnb[i] = dmt_nullb(t, 2 * MODEL_SECTORS / 2048);
	if (!buf || !onb || !cnb[0] || !cnb[1] || !cnb[2])
		goto out;
	for (unsigned int d = 0; d < MODEL_DEVS; d++)
		m.tag[d] = vzalloc(MODEL_SECTORS * sizeof(u32));
	snprintf(table, sizeof(table), "0 %u snapshot-origin %s", MODEL_SECTORS, nbname(onb));
	omd = dmt_create(t, "model-origin", table);
	if (!omd || !(m.dev[0] = dmt_open(t, omd)))
		goto out;
	m.ndevs = 1;
	/* The origin before any snapshot: every sector tagged. */
	for (u64 s = 0; s < MODEL_SECTORS; s += 2048)
		KASSERT_EQ(t, model_write(&m, 0, s, 2048, buf), 0);

	for (int i = 0; i < 3; i++) {
		snprintf(table, sizeof(table), "0 %u snapshot %s %s %s", MODEL_SECTORS,
			 nbname(onb), nbname(cnb[i]), snap_specs[i]);
		snprintf(name, sizeof(name), "model-snap%d", i);
		smd[i] = dmt_create(t, name, table);
		if (!smd[i] || !(m.dev[1 + i] = dmt_open(t, smd[i])))
			goto out;
		/* Made now: it must read as the origin reads now. */
		memcpy(m.tag[1 + i], m.tag[0], MODEL_SECTORS * sizeof(u32));
		m.ndevs = 2 + i;
		model_phase(t, &m, MODEL_OPS, 1 + i);
	}
	model_big_bios(t, &m, MODEL_BIG_OPS, 99);
	model_phase(t, &m, MODEL_OPS, 7);
	model_check_all(t, &m);
	for (int i = 0; i < 3; i++) {
		char st[128];

		dmt_status(smd[i], st, sizeof(st));
		KEXPECT_TRUE(t, strcmp(st, "Invalid") != 0);
		ktest_log(t, "locking=%s snapshot %s: status %s", locking, snap_specs[i], st);
	}
out:
	for (int i = 2; i >= 0; i--)
		dmt_close_remove(t, smd[i], m.dev[1 + i]);
	dmt_close_remove(t, omd, m.dev[0]);
	for (int i = 0; i < 3; i++)
		null_destroy(cnb[i]);
	null_destroy(onb);
	for (unsigned int d = 0; d < MODEL_DEVS; d++)
		vfree(m.tag[d]);
	kfree(buf);
	set_locking("fine");
}

static void test_dm_snapshot_model_fine(struct ktest *t)
{
	run_model(t, "fine");
}

static void test_dm_snapshot_model_mutex(struct ktest *t)
{
	run_model(t, "mutex");
}

/* --------------------------------------------------------- core, linear */

static void test_dm_linear(struct ktest *t)
{
	struct nullb *a = dmt_nullb(t, 1), *b = dmt_nullb(t, 1);
	struct mapped_device *md = NULL;
	struct block_device *bdev = NULL, *ba = NULL, *bb = NULL;
	u8 *buf = kmalloc(8192, GFP_KERNEL), *chk = kmalloc(4096, GFP_KERNEL);
	char table[160], st[256];

	if (!a || !b || !buf || !chk)
		goto out;
	/* 8 sectors of a from 100, then 16 of b from 0: a write across the seam. */
	snprintf(table, sizeof(table), "0 8 linear %s 100\n8 16 linear /dev/%s 0", nbname(a),
		 nbname(b));
	md = dmt_create(t, "lin", table);
	if (!md || !(bdev = dmt_open(t, md)))
		goto out;
	KEXPECT_EQ(t, bdev_nr_sectors(bdev), 24);
	for (int i = 0; i < 8192; i++)
		buf[i] = (u8)(i * 7 + 3);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE, 4, buf, 8192), 0);
	ba = blkdev_get_by_name(nbname(a));
	bb = blkdev_get_by_name(nbname(b));
	KASSERT_TRUE(t, !IS_ERR(ba) && !IS_ERR(bb));
	KEXPECT_EQ(t, blkdev_rw(ba, REQ_OP_READ, 104, chk, 2048), 0);
	KEXPECT_EQ(t, memcmp(chk, buf, 2048), 0);
	KEXPECT_EQ(t, blkdev_rw(bb, REQ_OP_READ, 0, chk, 4096), 0);
	KEXPECT_EQ(t, memcmp(chk, buf + 2048, 4096), 0);
	/* Beyond the table's end: refused by the block layer. */
	KEXPECT_NE(t, blkdev_rw(bdev, REQ_OP_READ, 20, chk, 4096), 0);
	dm_status(md, STATUSTYPE_TABLE, st, sizeof(st));
	ktest_log(t, "table: %s", st);
	KEXPECT_TRUE(t, strstr(st, "0 8 linear") != NULL);
	KEXPECT_TRUE(t, strstr(st, "8 16 linear") != NULL);

	/* Load while live, then suspend/resume swaps: now only b, from 8. */
	snprintf(table, sizeof(table), "0 16 linear %s 8", nbname(b));
	KEXPECT_EQ(t, dm_table_load(md, table), 0);
	KEXPECT_TRUE(t, dm_has_inactive_table(md));
	KEXPECT_EQ(t, dm_suspend(md), 0);
	KEXPECT_TRUE(t, dm_suspended(md));
	KEXPECT_EQ(t, dm_resume(md), 0);
	KEXPECT_FALSE(t, dm_suspended(md));
	KEXPECT_EQ(t, bdev_nr_sectors(bdev), 16);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_READ, 0, chk, 2048), 0);
	KEXPECT_EQ(t, memcmp(chk, buf + 2048 + 2048, 2048), 0);
	/* An open device is not removed. */
	KEXPECT_EQ(t, dm_remove(md), -EBUSY);
out:
	if (ba && !IS_ERR(ba))
		blkdev_put(ba);
	if (bb && !IS_ERR(bb))
		blkdev_put(bb);
	dmt_close_remove(t, md, bdev);
	null_destroy(a);
	null_destroy(b);
	kfree(buf);
	kfree(chk);
}

static void test_dm_bad_tables(struct ktest *t)
{
	struct nullb *a = dmt_nullb(t, 1), *b = dmt_nullb(t, 1);
	struct mapped_device *md = NULL;
	char table[128];

	if (!a)
		return;
	KASSERT_EQ(t, dm_create("bad", &md), 0);
	KEXPECT_EQ(t, dm_create("bad", &md), -EEXIST);
	snprintf(table, sizeof(table), "0 8 linear %s 0\n16 8 linear %s 0", nbname(a), nbname(a));
	KEXPECT_EQ(t, dm_table_load(md, table), -EINVAL);
	KEXPECT_TRUE(t, strstr(dm_last_error(), "gap") != NULL);
	KEXPECT_EQ(t, dm_table_load(md, "0 8 frobnicate x"), -EINVAL);
	KEXPECT_TRUE(t, strstr(dm_last_error(), "unknown target type") != NULL);
	KEXPECT_NE(t, dm_table_load(md, "0 8 linear nosuchdisk 0"), 0);
	snprintf(table, sizeof(table), "0 4096 linear %s 0", nbname(a));
	KEXPECT_EQ(t, dm_table_load(md, table), -EINVAL);	/* past a's end */
	snprintf(table, sizeof(table), "0 8 snapshot %s %s P 3", nbname(a), nbname(a));
	KEXPECT_NE(t, dm_table_load(md, table), 0);
	KEXPECT_EQ(t, dm_resume(md), -EINVAL);	/* nothing loaded: Linux's answer */
	/* Words past the four: Linux's feature group, or refused (never dropped). */
	if (b) {
		static const struct {
			const char *tail, *error;
		} extra[] = {
			{ "extra", "Invalid number of feature arguments" },
			{ "3 a b c", "Invalid number of feature arguments" },
			{ "2 discard_zeroes_cow", "Insufficient feature arguments" },
			{ "1 frobnicate", "Unrecognised feature requested" },
			{ "1 discard_zeroes_cow", "not supported" },
			{ "0 extra", "Too many arguments" },
		};

		for (unsigned int i = 0; i < ARRAY_SIZE(extra); i++) {
			snprintf(table, sizeof(table), "0 8 snapshot %s %s P 8 %s", nbname(a),
				 nbname(b), extra[i].tail);
			KEXPECT_EQ(t, dm_table_load(md, table), -EINVAL);
			KEXPECT_TRUE(t, strstr(dm_last_error(), extra[i].error) != NULL);
		}
		snprintf(table, sizeof(table), "0 8 snapshot %s %s P 8 0", nbname(a), nbname(b));
		KEXPECT_EQ(t, dm_table_load(md, table), 0);
	}
	KEXPECT_EQ(t, dm_remove(md), 0);
	null_destroy(a);
	null_destroy(b);
}

/* ---------------------------------------------------- Linux's COW format */

/*
 * A COW device as Linux would have left it, written byte by byte from the
 * documented layout: chunk size 8, exceptions 5 -> 2 and 9 -> 3.
 */
static void write_fixture(struct block_device *cow, u32 magic, u32 version, u32 chunk,
			  u64 bad_new)
{
	u8 *b = kzalloc(4096, GFP_KERNEL);

	put_unaligned_le32(magic, b);
	put_unaligned_le32(1, b + 4);
	put_unaligned_le32(version, b + 8);
	put_unaligned_le32(chunk, b + 12);
	blkdev_rw(cow, REQ_OP_WRITE, 0, b, 4096);
	memset(b, 0, 4096);
	put_unaligned_le64(5, b);
	put_unaligned_le64(bad_new ? bad_new : 2, b + 8);
	put_unaligned_le64(9, b + 16);
	put_unaligned_le64(3, b + 24);
	blkdev_rw(cow, REQ_OP_WRITE, 8, b, 4096);
	memset(b, 0xa5, 4096);
	blkdev_rw(cow, REQ_OP_WRITE, 16, b, 4096);
	memset(b, 0x5a, 4096);
	blkdev_rw(cow, REQ_OP_WRITE, 24, b, 4096);
	kfree(b);
}

static bool all_bytes(const u8 *p, u8 v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void test_dm_snapshot_linux_format(struct ktest *t)
{
	struct nullb *onb = dmt_nullb(t, 1), *cnb = dmt_nullb(t, 1);
	struct block_device *o = NULL, *c = NULL, *sb = NULL;
	struct mapped_device *md = NULL;
	u8 *b = kmalloc(4096, GFP_KERNEL);
	char table[128], st[128];

	if (!onb || !cnb || !b)
		goto out;
	o = blkdev_get_by_name(nbname(onb));
	c = blkdev_get_by_name(nbname(cnb));
	memset(b, 0x11, 4096);
	for (int i = 0; i < 16; i++)
		blkdev_rw(o, REQ_OP_WRITE, (sector_t)i * 8, b, 4096);
	write_fixture(c, SNAP_MAGIC, 1, 8, 0);

	snprintf(table, sizeof(table), "0 2048 snapshot %s %s P 8", nbname(onb), nbname(cnb));
	md = dmt_create(t, "fixture", table);
	if (!md || !(sb = dmt_open(t, md)))
		goto out;
	KEXPECT_EQ(t, blkdev_rw(sb, REQ_OP_READ, 5 * 8, b, 4096), 0);
	KEXPECT_TRUE(t, all_bytes(b, 0xa5, 4096));
	KEXPECT_EQ(t, blkdev_rw(sb, REQ_OP_READ, 9 * 8, b, 4096), 0);
	KEXPECT_TRUE(t, all_bytes(b, 0x5a, 4096));
	KEXPECT_EQ(t, blkdev_rw(sb, REQ_OP_READ, 0, b, 4096), 0);
	KEXPECT_TRUE(t, all_bytes(b, 0x11, 4096));
	/* next_free is 4: 4 chunks of 8 sectors used, header + one area of metadata. */
	dmt_status(md, st, sizeof(st));
	KEXPECT_STREQ(t, st, "32/2048 16");

	/* Pagoda's own write lands where Linux would put it: record 2 = {7, 4}. */
	memset(b, 0x77, 4096);
	KEXPECT_EQ(t, blkdev_rw(sb, REQ_OP_WRITE, 7 * 8, b, 4096), 0);
	KEXPECT_EQ(t, blkdev_rw(c, REQ_OP_READ, 8, b, 4096), 0);
	KEXPECT_EQ(t, get_unaligned_le64(b + 32), 7);
	KEXPECT_EQ(t, get_unaligned_le64(b + 40), 4);
	KEXPECT_EQ(t, get_unaligned_le64(b + 48), 0);
	KEXPECT_EQ(t, blkdev_rw(c, REQ_OP_READ, 32, b, 4096), 0);
	KEXPECT_TRUE(t, all_bytes(b, 0x77, 4096));
	KEXPECT_EQ(t, blkdev_rw(c, REQ_OP_READ, 0, b, 512), 0);
	KEXPECT_EQ(t, get_unaligned_le64(b) & 0xffffffff, SNAP_MAGIC);
	dmt_status(md, st, sizeof(st));
	KEXPECT_STREQ(t, st, "40/2048 16");
out:
	dmt_close_remove(t, md, sb);
	if (o && !IS_ERR(o))
		blkdev_put(o);
	if (c && !IS_ERR(c))
		blkdev_put(c);
	null_destroy(onb);
	null_destroy(cnb);
	kfree(b);
}

static void test_dm_snapshot_refuses_bad_header(struct ktest *t)
{
	static const struct {
		u32 magic, version, chunk;
		u64 bad_new;
		const char *why;
	} cases[] = {
		{ 0xdeadbeef, 1, 8, 0, "corrupt" },
		{ SNAP_MAGIC, 2, 8, 0, "version" },
		{ SNAP_MAGIC, 1, 3, 0, "chunk size" },
		{ SNAP_MAGIC, 1, 8, 1, "outside" },	/* a record pointing at area 0 */
		{ SNAP_MAGIC, 1, 8, 1 << 20, "outside" },
		/* 1 MiB chunks on 1 MiB: area 0 past the end (fuzz-dm-snap) */
		{ SNAP_MAGIC, 1, 2048, 0, "ends before" },
	};
	struct nullb *onb = dmt_nullb(t, 1), *cnb = dmt_nullb(t, 1);
	struct block_device *c;
	struct mapped_device *md;
	char table[128];

	if (!onb || !cnb)
		return;
	c = blkdev_get_by_name(nbname(cnb));
	KASSERT_EQ(t, dm_create("badcow", &md), 0);
	snprintf(table, sizeof(table), "0 2048 snapshot %s %s P 8", nbname(onb), nbname(cnb));
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		write_fixture(c, cases[i].magic, cases[i].version, cases[i].chunk, cases[i].bad_new);
		KEXPECT_NE(t, dm_table_load(md, table), 0);
		ktest_log(t, "case %u refused: %s", i, dm_last_error());
		KEXPECT_TRUE(t, strstr(dm_last_error(), cases[i].why) != NULL);
	}
	KEXPECT_EQ(t, dm_remove(md), 0);
	blkdev_put(c);
	null_destroy(onb);
	null_destroy(cnb);
}

/* ------------------------------------------- reload, overflow, merge */

/* An origin and a snapshot of it, each on a memory disk of its own. */
struct dmt_snap {
	struct nullb *onb, *cnb;
	struct mapped_device *om, *sm;
	struct block_device *ob, *sbd;
};

/* Closes and removes what was made, in the reverse order; NULLs are skipped. */
static void dmt_snap_destroy(struct ktest *t, struct dmt_snap *d)
{
	dmt_close_remove(t, d->sm, d->sbd);
	dmt_close_remove(t, d->om, d->ob);
	null_destroy(d->onb);
	null_destroy(d->cnb);
}

/* The origin, 4 MiB over d->onb, as "<name>-origin"; opened. */
static bool dmt_snap_origin(struct ktest *t, struct dmt_snap *d, const char *name)
{
	char mdname[32], table[64];

	snprintf(mdname, sizeof(mdname), "%s-origin", name);
	snprintf(table, sizeof(table), "0 8192 snapshot-origin %s", nbname(d->onb));
	d->om = dmt_create(t, mdname, table);
	return d->om && (d->ob = dmt_open(t, d->om));
}

/* A snapshot of it on d->cnb, as "<name>-snap", store as a table says it ("P 8"); opened. */
static bool dmt_snap_snapshot(struct ktest *t, struct dmt_snap *d, const char *name,
			      const char *store)
{
	char mdname[32], table[128];

	snprintf(mdname, sizeof(mdname), "%s-snap", name);
	snprintf(table, sizeof(table), "0 8192 snapshot %s %s %s", nbname(d->onb), nbname(d->cnb),
		 store);
	d->sm = dmt_create(t, mdname, table);
	return d->sm && (d->sbd = dmt_open(t, d->sm));
}

static void fill_pattern(u8 *b, size_t n, u32 seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (u8)((i * 31 + seed * 7) >> 2);
}

static void test_dm_snapshot_reload(struct ktest *t)
{
	struct dmt_snap d = { .onb = dmt_nullb(t, 4), .cnb = dmt_nullb(t, 4) };
	u8 *want = kmalloc(4 << 20, GFP_KERNEL), *got = kmalloc(4 << 20, GFP_KERNEL);
	char st1[128], st2[128];
	struct rng rng;

	if (!d.onb || !d.cnb || !want || !got)
		goto out;
	if (!dmt_snap_origin(t, &d, "rl") || !dmt_snap_snapshot(t, &d, "rl", "P 16"))
		goto out;
	fill_pattern(want, 4 << 20, 1);
	KEXPECT_EQ(t, blkdev_rw(d.sbd, REQ_OP_READ, 0, want, 4 << 20), 0);
	rng_seed(&rng, 18);
	for (int i = 0; i < 40; i++) {
		u64 s = rng_below(&rng, 8192 - 16);
		unsigned int n = 1 + (unsigned int)rng_below(&rng, 16);

		fill_pattern(got, n * 512, i + 5);
		if (i % 2) {
			KEXPECT_EQ(t, blkdev_rw(d.sbd, REQ_OP_WRITE, s, got, n * 512), 0);
			memcpy(want + s * 512, got, n * 512);
		} else {
			KEXPECT_EQ(t, blkdev_rw(d.ob, REQ_OP_WRITE, s, got, n * 512), 0);
		}
	}
	dmt_status(d.sm, st1, sizeof(st1));
	/* Forget it all: a new table on the same COW device reads it back. */
	dmt_close_remove(t, d.sm, d.sbd);
	d.sbd = NULL;
	/* Chunk 8 asked, the header's 16 wins. */
	if (!dmt_snap_snapshot(t, &d, "rl", "P 8"))
		goto out;
	dmt_status(d.sm, st2, sizeof(st2));
	KEXPECT_STREQ(t, st1, st2);
	ktest_log(t, "status before %s, after reload %s", st1, st2);
	KEXPECT_EQ(t, blkdev_rw(d.sbd, REQ_OP_READ, 0, got, 4 << 20), 0);
	KEXPECT_EQ(t, memcmp(want, got, 4 << 20), 0);
out:
	dmt_snap_destroy(t, &d);
	kfree(want);
	kfree(got);
}

#define OVERFLOW_WRITES 40

static void test_dm_snapshot_overflow(struct ktest *t)
{
	struct dmt_snap d = { .onb = dmt_nullb(t, 4), .cnb = dmt_nullb(t, 1) };
	struct nullb *bigc = dmt_nullb(t, 8);
	struct mapped_device *sm2 = NULL;
	struct block_device *sb2 = NULL;
	u8 *b = kmalloc(4096, GFP_KERNEL);
	char table[128], st[128];

	if (!d.onb || !d.cnb || !bigc || !b)
		goto out;
	/* 1 MiB of COW, 32 KiB chunks: header, one area, 30 data chunks. */
	if (!dmt_snap_origin(t, &d, "of") || !dmt_snap_snapshot(t, &d, "of", "P 64"))
		goto out;
	snprintf(table, sizeof(table), "0 8192 snapshot %s %s N 64", nbname(d.onb), nbname(bigc));
	sm2 = dmt_create(t, "of-snap2", table);
	if (!sm2 || !(sb2 = dmt_open(t, sm2)))
		goto out;
	for (int i = 0; i < OVERFLOW_WRITES; i++) {
		memset(b, i + 1, 4096);
		KEXPECT_EQ(t, blkdev_rw(d.ob, REQ_OP_WRITE, (sector_t)i * 64, b, 4096), 0);
	}
	dmt_status(d.sm, st, sizeof(st));
	KEXPECT_STREQ(t, st, "Invalid");
	/* An event for the invalidated snapshot (DM_DEV_WAIT wakes), none for the others */
	KEXPECT_EQ(t, dm_event_nr(d.sm), 1u);
	KEXPECT_EQ(t, dm_event_nr(sm2), 0u);
	KEXPECT_EQ(t, dm_event_nr(d.om), 0u);
	KEXPECT_NE(t, blkdev_rw(d.sbd, REQ_OP_READ, 0, b, 4096), 0);
	/* The origin and the other snapshot lost nothing. */
	for (int i = 0; i < OVERFLOW_WRITES; i++) {
		KEXPECT_EQ(t, blkdev_rw(d.ob, REQ_OP_READ, (sector_t)i * 64, b, 4096), 0);
		KEXPECT_TRUE(t, all_bytes(b, (u8)(i + 1), 4096));
		KEXPECT_EQ(t, blkdev_rw(sb2, REQ_OP_READ, (sector_t)i * 64, b, 4096), 0);
		KEXPECT_TRUE(t, all_bytes(b, 0, 4096));
	}
	dmt_status(sm2, st, sizeof(st));
	KEXPECT_STREQ(t, st, "2560/16384 0");
	/* Invalid on the disk too: a reload says so. */
	dmt_close_remove(t, d.sm, d.sbd);
	d.sbd = NULL;
	snprintf(table, sizeof(table), "0 8192 snapshot %s %s P 64", nbname(d.onb), nbname(d.cnb));
	d.sm = dmt_create(t, "of-snap", table);
	if (d.sm) {
		dmt_status(d.sm, st, sizeof(st));
		KEXPECT_STREQ(t, st, "Invalid");
	}
out:
	dmt_close_remove(t, sm2, sb2);
	dmt_snap_destroy(t, &d);
	null_destroy(bigc);
	kfree(b);
}

/* "allocated/total metadata" from a snapshot's status. */
static void parse_usage(const char *st, u64 *a, u64 *total, u64 *meta)
{
	u64 *v[3] = { a, total, meta };
	int i = 0;

	*a = *total = *meta = 0;
	for (const char *p = st; *p && i < 3; p++) {
		if (*p >= '0' && *p <= '9')
			*v[i] = *v[i] * 10 + (u64)(*p - '0');
		else if (*p == '/' || *p == ' ')
			i++;
		else
			break;
	}
}

static void test_dm_snapshot_merge(struct ktest *t)
{
	struct dmt_snap d = { .onb = dmt_nullb(t, 4), .cnb = dmt_nullb(t, 4) };
	struct block_device *raw = NULL;
	u8 *want = kmalloc(4 << 20, GFP_KERNEL), *got = kmalloc(4 << 20, GFP_KERNEL);
	char table[128], st[128];
	int polls = 0;

	if (!d.onb || !d.cnb || !want || !got)
		goto out;
	if (!dmt_snap_origin(t, &d, "mg"))
		goto out;
	fill_pattern(want, 4 << 20, 3);
	KEXPECT_EQ(t, blkdev_rw(d.ob, REQ_OP_WRITE, 0, want, 4 << 20), 0);
	if (!dmt_snap_snapshot(t, &d, "mg", "P 8"))
		goto out;
	/* The origin moves on; the snapshot gets writes of its own. */
	for (int i = 0; i < 30; i++) {
		fill_pattern(got, 6000, 100 + i);
		KEXPECT_EQ(t, blkdev_rw(d.ob, REQ_OP_WRITE, (sector_t)i * 97, got, 6144), 0);
		fill_pattern(got, 1024, 200 + i);
		KEXPECT_EQ(t, blkdev_rw(d.sbd, REQ_OP_WRITE, (sector_t)i * 131 + 3, got, 1024), 0);
		memcpy(want + ((size_t)i * 131 + 3) * 512, got, 1024);
	}
	dmt_close_remove(t, d.sm, d.sbd);
	d.sm = NULL;
	d.sbd = NULL;
	/* Roll the origin back: snapshot-merge in place of snapshot-origin. */
	snprintf(table, sizeof(table), "0 8192 snapshot-merge %s %s P 8", nbname(d.onb),
		 nbname(d.cnb));
	KASSERT_EQ(t, dm_table_load(d.om, table), 0);
	KEXPECT_EQ(t, dm_suspend(d.om), 0);
	KEXPECT_EQ(t, dm_resume(d.om), 0);
	/* Usable while merging: it reads as the snapshot already. */
	KEXPECT_EQ(t, blkdev_rw(d.ob, REQ_OP_READ, 0, got, 4 << 20), 0);
	KEXPECT_EQ(t, memcmp(want, got, 4 << 20), 0);
	for (;;) {
		u64 a, total, meta;

		dmt_status(d.om, st, sizeof(st));
		parse_usage(st, &a, &total, &meta);
		if ((a == meta && total) || ++polls > 20000 || strstr(st, "failed"))
			break;
		msleep(1);
	}
	ktest_log(t, "merge done after %d polls: %s", polls, st);
	KEXPECT_LE(t, polls, 20000);
	/* The snapshot is gone: the origin goes back to a plain mapping. */
	snprintf(table, sizeof(table), "0 8192 linear %s 0", nbname(d.onb));
	KEXPECT_EQ(t, dm_table_load(d.om, table), 0);
	KEXPECT_EQ(t, dm_resume(d.om), 0);
	raw = blkdev_get_by_name(nbname(d.onb));
	KEXPECT_EQ(t, blkdev_rw(raw, REQ_OP_READ, 0, got, 4 << 20), 0);
	KEXPECT_EQ(t, memcmp(want, got, 4 << 20), 0);
	blkdev_put(raw);
out:
	dmt_snap_destroy(t, &d);
	kfree(want);
	kfree(got);
}

/*
 * A mapped device over a disk with a volatile write cache keeps PREFLUSH
 * and FUA: they reach the disk as flushes (null_blk without FUA: one for
 * the PREFLUSH, one after the data for the FUA). They were dropped once,
 * so a dm-snapshot's metadata on a dm-linear COW device was never made
 * durable. A mapped device over cacheless disks advertises no cache.
 */
static void test_dm_passes_flushes_down(struct ktest *t)
{
	struct nullb_config cfg;
	struct nullb *cached, *plain = dmt_nullb(t, 1);
	struct mapped_device *md = NULL, *md2 = NULL;
	struct block_device *bdev = NULL, *bdev2 = NULL;
	u8 *buf = kzalloc(4096, GFP_KERNEL);
	char table[96];
	u64 before;

	null_default_config(&cfg);
	cfg.size_mb = 1;
	cfg.bs = 512;
	cfg.memory_backed = true;
	cfg.cache_size_mb = 1;
	cfg.fua = false;
	cached = null_create(&cfg);
	KASSERT_TRUE(t, !IS_ERR(cached));
	if (!plain || !buf)
		goto out;
	snprintf(table, sizeof(table), "0 2048 linear %s 0", nbname(cached));
	md = dmt_create(t, "flushlin", table);
	if (!md || !(bdev = dmt_open(t, md)))
		goto out;
	KEXPECT_TRUE(t, bdev_get_queue(bdev)->limits.features & BLK_FEAT_WRITE_CACHE);
	before = null_nr_flushes(cached);
	KEXPECT_EQ(t, blkdev_rw(bdev, REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA, 8, buf, 4096), 0);
	KEXPECT_GE(t, null_nr_flushes(cached) - before, 2ULL);
	KEXPECT_EQ(t, blkdev_issue_flush(bdev), 0);
	KEXPECT_GE(t, null_nr_flushes(cached) - before, 3ULL);

	snprintf(table, sizeof(table), "0 2048 linear %s 0", nbname(plain));
	md2 = dmt_create(t, "flushlin2", table);
	if (!md2 || !(bdev2 = dmt_open(t, md2)))
		goto out;
	KEXPECT_FALSE(t, bdev_get_queue(bdev2)->limits.features & BLK_FEAT_WRITE_CACHE);
out:
	dmt_close_remove(t, md, bdev);
	dmt_close_remove(t, md2, bdev2);
	if (!IS_ERR(cached))
		null_destroy(cached);
	null_destroy(plain);
	kfree(buf);
}

static int count_records(void *ctx, chunk_t old_chunk, chunk_t new_chunk)
{
	(*(unsigned int *)ctx)++;
	return 0;
}

static void count_commit(void *ctx, int success)
{
	*(int *)ctx += success ? 1 : 1000;
}

/*
 * Commit batching in the persistent store, as Linux's: exceptions whose
 * copies were in flight together are committed by one area write, when
 * the last of them completes; none of their callers hears "committed"
 * before that write, and all of them after it. A reload finds them all.
 */
static void test_dm_snapshot_commit_batches(struct ktest *t)
{
	enum { N = 8 };
	struct nullb *cnb = dmt_nullb(t, 4);
	struct dm_exception_store *s = kzalloc(sizeof(*s), GFP_KERNEL);
	struct dm_exception e[N];
	struct block_device *cow;
	const char *why = NULL;
	unsigned int loaded = 0;
	int calls = 0;

	KASSERT_TRUE(t, cnb && s);
	cow = blkdev_get_by_name(nbname(cnb));
	KASSERT_TRUE(t, !IS_ERR(cow));
	s->type = &dm_persistent_store;
	s->cow = cow;
	KASSERT_EQ(t, dm_exception_store_set_chunk_size(s, 8, &why), 0);
	KASSERT_EQ(t, s->type->ctr(s), 0);
	KEXPECT_EQ(t, s->type->read_metadata(s, count_records, &loaded), 0);
	KEXPECT_EQ(t, loaded, 0u);
	for (int i = 0; i < N; i++) {
		e[i].old_chunk = 1000 + i;
		KASSERT_EQ(t, s->type->prepare_exception(s, &e[i]), 0);
	}
	/* Completed in another order than prepared: the batch waits for the last. */
	for (int i = N - 1; i > 0; i--) {
		s->type->commit_exception(s, &e[i], 1, count_commit, &calls);
		KEXPECT_EQ(t, calls, 0);
		KEXPECT_EQ(t, s->metadata_writes, 0ULL);
	}
	s->type->commit_exception(s, &e[0], 1, count_commit, &calls);
	KEXPECT_EQ(t, calls, N);
	KEXPECT_EQ(t, s->metadata_writes, 1ULL);
	KEXPECT_EQ(t, s->exceptions_committed, (u64)N);
	/* Alone in flight: its own write. */
	e[0].old_chunk = 2000;
	KASSERT_EQ(t, s->type->prepare_exception(s, &e[0]), 0);
	s->type->commit_exception(s, &e[0], 1, count_commit, &calls);
	KEXPECT_EQ(t, calls, N + 1);
	KEXPECT_EQ(t, s->metadata_writes, 2ULL);
	s->type->dtr(s);

	/* What the area writes carried: every record, on the device. */
	memset(s, 0, sizeof(*s));
	s->type = &dm_persistent_store;
	s->cow = cow;
	KASSERT_EQ(t, dm_exception_store_set_chunk_size(s, 8, &why), 0);
	KASSERT_EQ(t, s->type->ctr(s), 0);
	KEXPECT_EQ(t, s->type->read_metadata(s, count_records, &loaded), 0);
	KEXPECT_EQ(t, loaded, N + 1u);
	s->type->dtr(s);
	kfree(s);
	blkdev_put(cow);
	null_destroy(cnb);
}

/* Entries in one bucket of an exception table. */
static unsigned int bucket_len(struct hlist_bl_head *h)
{
	struct hlist_bl_node *pos;
	struct dm_exception *e;
	unsigned int n = 0;

	hlist_bl_for_each_entry(e, pos, h, hash_list)
		n++;
	return n;
}

/*
 * The exception table itself, read from inside once the I/O is done:
 * 4 MiB origin and COW with 4 KiB chunks is 1024 chunks, so one bucket
 * per 8 (init_hash_tables()): 128. The first 512 chunks are written
 * through the origin, in order. Every exception must sit in a
 * bucket of the table (none past its end), no bucket may hold more than
 * twice its share of consecutive chunks, lookups find exactly the copied
 * chunks, and no pending exception outlives its copy.
 */
#define SPREAD_CHUNKS 512U
#define SPREAD_BIO_CHUNKS 256U

static void test_dm_exception_table_spread(struct ktest *t)
{
	struct dmt_snap d = { .onb = dmt_nullb(t, 4), .cnb = dmt_nullb(t, 4) };
	u8 *b = kzalloc(SPREAD_BIO_CHUNKS * 4096, GFP_KERNEL);
	struct dm_snapshot *s;
	unsigned int total = 0, most = 0, pending = 0, buckets;

	if (!d.onb || !d.cnb || !b)
		goto out;
	if (!dmt_snap_origin(t, &d, "ht") || !dmt_snap_snapshot(t, &d, "ht", "N 8"))
		goto out;
	/* 1 MiB bios: dm cuts them at chunks, so the copies run side by side. */
	for (u32 c = 0; c < SPREAD_CHUNKS; c += SPREAD_BIO_CHUNKS)
		if (blkdev_rw(d.ob, REQ_OP_WRITE, (sector_t)c * 8, b, SPREAD_BIO_CHUNKS * 4096)) {
			ktest_fail(t, __FILE__, __LINE__, "origin write at chunk %u failed", c);
			goto out;
		}
	s = d.sm->map->targets[0].private;
	buckets = s->complete.hash_mask + 1;
	KEXPECT_EQ(t, buckets, 128u);
	for (u32 i = 0; i < buckets; i++) {
		unsigned int n = bucket_len(&s->complete.table[i]);

		total += n;
		most = MAX(most, n);
	}
	for (u32 i = 0; i <= s->pending.hash_mask; i++)
		pending += bucket_len(&s->pending.table[i]);
	ktest_log(t, "%u exceptions in %u buckets, at most %u in one", total, buckets, most);
	KEXPECT_EQ(t, total, SPREAD_CHUNKS);
	KEXPECT_TRUE(t, most <= 2 * SPREAD_CHUNKS / buckets);
	KEXPECT_EQ(t, pending, 0u);
	for (u32 c = 0; c < 2 * SPREAD_CHUNKS; c++) {
		struct dm_exception *e = dm_lookup_exception(&s->complete, c);

		if (c < SPREAD_CHUNKS ? !e || e->old_chunk != c : e != NULL) {
			ktest_fail(t, __FILE__, __LINE__, "chunk %u: lookup gave %s", c,
				   e ? "a wrong exception" : "none");
			break;
		}
	}
out:
	dmt_snap_destroy(t, &d);
	kfree(b);
}

static struct ktest_case dm_cases[] = {
	KTEST_CASE(test_dm_linear),
	KTEST_CASE(test_dm_passes_flushes_down),
	KTEST_CASE(test_dm_bad_tables),
	KTEST_CASE(test_dm_snapshot_linux_format),
	KTEST_CASE(test_dm_snapshot_refuses_bad_header),
	KTEST_CASE(test_dm_snapshot_reload),
	KTEST_CASE(test_dm_snapshot_commit_batches),
	KTEST_CASE(test_dm_snapshot_overflow),
	KTEST_CASE(test_dm_snapshot_merge),
	KTEST_CASE(test_dm_exception_table_spread),
	KTEST_CASE(test_dm_snapshot_model_fine),
	KTEST_CASE(test_dm_snapshot_model_mutex),
	{}
};
KTEST_SUITE_FULL(dm, .cases = dm_cases, .kernel_only = true);
