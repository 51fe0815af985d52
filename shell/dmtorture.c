// SPDX-License-Identifier: MIT
/*
 * dmtorture: the shell's half of the persistence and crash tests
 * (tests/levels/dmsnap.py). The harness boots with a snapshot-origin and a
 * persistent snapshot on two virtio disks, has `dmtorture run` write,
 * kills QEMU at a random moment (or lets it power off), boots again on the
 * same disks, reloads the tables and has `dmtorture verify` check.
 *
 *	dmtorture init DEV SECTORS          seed 1 everywhere: the origin before the snapshot
 *	dmtorture run ORIGIN SNAP N         write k = 0..N-1: 8 sectors at 16k + k%3, seed
 *	                                    100 + k, to the origin when k is even, else to
 *	                                    the snapshot; "write k done" once it completed
 *	dmtorture verify ORIGIN SNAP K      writes 0..K-1 must all be there; and where the
 *	                                    origin was written the snapshot still reads seed 1
 *
 * ORIGIN and SNAP are mapped devices' names. Every write that completed
 * before the crash must be found, because a snapshot's commit (data,
 * then metadata with FUA) happens before the write is acknowledged.
 */
#include <pagoda/device-mapper.h>
#include <pagoda/err.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#define TORTURE_SECTORS 8
#define TORTURE_STRIDE 16
#define TORTURE_MAX 1000

static void fill(u8 *buf, sector_t sector, unsigned int count, u32 seed)
{
	for (unsigned int s = 0; s < count; s++) {
		u32 *w = (u32 *)(buf + s * 512);

		for (int i = 0; i < 128; i++)
			w[i] = (u32)(sector + s) * 2654435761U ^ seed * 40503U ^ (u32)i;
	}
}

static struct block_device *open_dev(const char *name)
{
	struct mapped_device *md = dm_find(name);
	struct block_device *bdev = blkdev_get_by_name(md ? dm_disk_name(md) : name);

	if (IS_ERR(bdev)) {
		kprintf("dmtorture: no device %s\n", name);
		return NULL;
	}
	return bdev;
}

static sector_t where(unsigned int k)
{
	return (sector_t)k * TORTURE_STRIDE + k % 3;
}

static int do_init(struct block_device *dev, u64 sectors, u8 *buf)
{
	for (u64 s = 0; s < sectors; s += 2048) {
		unsigned int n = (unsigned int)MIN(2048ULL, sectors - s);
		int err;

		fill(buf, s, n, 1);
		err = blkdev_rw(dev, REQ_OP_WRITE, s, buf, n * 512);
		if (err)
			return err;
	}
	kprintf("dmtorture: %llu sectors of seed 1\n", (unsigned long long)sectors);
	return 0;
}

static int do_run(struct block_device *o, struct block_device *s, unsigned int n, u8 *buf)
{
	for (unsigned int k = 0; k < n; k++) {
		int err;

		fill(buf, where(k), TORTURE_SECTORS, 100 + k);
		err = blkdev_rw(k % 2 ? s : o, REQ_OP_WRITE, where(k), buf, TORTURE_SECTORS * 512);
		if (err) {
			kprintf("dmtorture: write %u failed: %d\n", k, err);
			return err;
		}
		kprintf("dmtorture: write %u done\n", k);
	}
	kprintf("dmtorture: ran %u writes\n", n);
	return 0;
}

static bool holds(struct block_device *dev, sector_t sector, u32 seed, u8 *buf, u8 *want)
{
	fill(want, sector, TORTURE_SECTORS, seed);
	return !blkdev_rw(dev, REQ_OP_READ, sector, buf, TORTURE_SECTORS * 512) &&
	       !memcmp(buf, want, TORTURE_SECTORS * 512);
}

static int do_verify(struct block_device *o, struct block_device *s, unsigned int n, u8 *buf)
{
	u8 *want = buf + TORTURE_SECTORS * 512;
	unsigned int bad = 0;

	for (unsigned int k = 0; k < n; k++) {
		bool ok;

		if (k % 2)
			ok = holds(s, where(k), 100 + k, buf, want) && holds(o, where(k), 1, buf, want);
		else
			ok = holds(o, where(k), 100 + k, buf, want) && holds(s, where(k), 1, buf, want);
		if (!ok) {
			if (!bad)
				kprintf("dmtorture: write %u (to the %s) is not there\n", k,
					k % 2 ? "snapshot" : "origin");
			bad++;
		}
	}
	kprintf("dmtorture: verified %u writes, %u bad\n", n, bad);
	return bad ? -EIO : 0;
}

static int cmd_dmtorture(int argc, char **argv)
{
	struct block_device *a = NULL, *b = NULL;
	u8 *buf;
	u64 n;
	int err = -EINVAL;

	if (argc < 4 || kstrtou64(argv[argc - 1], 10, &n))
		return -EINVAL;
	buf = kmalloc(2048 * 512, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	a = open_dev(argv[2]);
	if (!a)
		goto out;
	if (!strcmp(argv[1], "init") && argc == 4) {
		err = do_init(a, n, buf);
	} else if (argc == 5 && n <= TORTURE_MAX && (b = open_dev(argv[3])) != NULL) {
		if (!strcmp(argv[1], "run"))
			err = do_run(a, b, (unsigned int)n, buf);
		else if (!strcmp(argv[1], "verify"))
			err = do_verify(a, b, (unsigned int)n, buf);
	}
out:
	if (b)
		blkdev_put(b);
	if (a)
		blkdev_put(a);
	kfree(buf);
	return err;
}

SHELL_CMD(dmtorture, "dmtorture init DEV SECTORS | run|verify ORIGIN SNAP N",
	  "dm-snapshot persistence and crash checks (tests/levels/dmsnap.py)", cmd_dmtorture);
