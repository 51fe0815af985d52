// SPDX-License-Identifier: MIT
/*
 * Shell commands for block devices: `lsblk` lists them, `blk` reads,
 * patterns and verifies sectors (a hex dump, a known pattern per sector,
 * and a check of that pattern), so a device can be inspected by hand.
 */
#include <pagoda/blk-mq.h>
#include <pagoda/err.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>


static void format_size(u64 bytes, char *buf, size_t n)
{
	static const char units[] = "BKMGTP";
	unsigned int u = 0;
	u64 whole = bytes, frac = 0;

	while (whole >= 1024 && u < sizeof(units) - 2) {
		frac = whole % 1024;
		whole /= 1024;
		u++;
	}
	if (u && whole < 10 && frac)
		snprintf(buf, n, "%llu.%llu%c", (unsigned long long)whole,
			 (unsigned long long)(frac * 10 / 1024), units[u]);
	else
		snprintf(buf, n, "%llu%c", (unsigned long long)whole, units[u]);
}

static void lsblk_one(struct block_device *bdev, void *arg)
{
	struct request_queue *q = bdev_get_queue(bdev);
	char size[16], queues[24], name[BDEVNAME_SIZE + 2], devt[16];
	const char *type = bdev->bd_partno ? "part" : "disk";

	(void)arg;
	format_size((u64)bdev->bd_nr_sectors << SECTOR_SHIFT, size, sizeof(size));
	if (q->mq_ops)
		snprintf(queues, sizeof(queues), "%ux%u", q->nr_hw_queues,
			 q->tag_set->queue_depth);
	else
		snprintf(queues, sizeof(queues), "bio");
	snprintf(name, sizeof(name), "%s%s", bdev->bd_partno ? "`-" : "", bdev->bd_name);
	snprintf(devt, sizeof(devt), "%u:%u", MAJOR(bdev->bd_dev), MINOR(bdev->bd_dev));
	kprintf("%-12s %-8s %8s %5u %5u %-8s %-5s %5d %12llu\n", name, devt, size,
		q->limits.logical_block_size, q->limits.physical_block_size, queues, type,
		atomic_read(&bdev->bd_openers), (unsigned long long)bdev->bd_start_sect);
}

static int cmd_lsblk(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	/* NAME and MAJ:MIN first, as Linux's lsblk */
	kprintf("NAME         MAJ:MIN      SIZE   LOG  PHYS QUEUES   TYPE   OPEN        START\n");
	bdev_for_each(lsblk_one, NULL);
	return 0;
}
SHELL_CMD(lsblk, "lsblk", "block devices: MAJ:MIN, size, block sizes, hw queues x depth, partitions",
	  cmd_lsblk);

/* The pattern of one 512-byte sector: its number and a seed, repeated. */
static void pattern_fill(u8 *buf, sector_t sector, u32 seed)
{
	u64 *w = (u64 *)buf;

	for (unsigned int i = 0; i < SECTOR_SIZE / 8; i++)
		w[i] = (sector << 20) ^ ((u64)seed << 40) ^ (i * 0x9e3779b97f4a7c15ULL);
}

static int blk_parse_u64(const char *s, u64 *v, const char *what)
{
	if (kstrtou64(s, 0, v)) {
		kprintf("blk: %s '%s' is not a number\n", what, s);
		return -EINVAL;
	}
	return 0;
}

static void hexdump(const u8 *buf, size_t len, u64 base)
{
	for (size_t off = 0; off < len; off += 16) {
		kprintf("%08llx:", (unsigned long long)(base + off));
		for (size_t i = 0; i < 16 && off + i < len; i++)
			kprintf(" %02x", buf[off + i]);
		kprintf("\n");
	}
}

#define POISON_BYTE 0xa5

/* Did the read leave the poisoned buffer as it was? */
static bool untouched(const u8 *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != POISON_BYTE)
			return false;
	return true;
}

static int cmd_blk(int argc, char **argv)
{
	struct block_device *bdev;
	u64 sector, count = 1, seed = 1;
	u8 *buf;
	size_t len;
	int err = 0;

	if (argc < 4 || argc > 6) {
		/* The shell prints the usage line after this. */
		kprintf("blk: read: hex dump; write: pattern (sector number, seed); "
			"verify: check it\n");
		return -EINVAL;
	}
	if (blk_parse_u64(argv[3], &sector, "sector") ||
	    (argc > 4 && blk_parse_u64(argv[4], &count, "count")) ||
	    (argc > 5 && blk_parse_u64(argv[5], &seed, "seed")))
		return -EINVAL;
	if (!count || count > 2048) {
		kprintf("blk: count must be 1..2048 sectors\n");
		return -EINVAL;
	}
	bdev = blkdev_get_by_name(argv[2]);
	if (IS_ERR(bdev)) {
		kprintf("blk: no block device '%s' (see lsblk)\n", argv[2]);
		return -ENOENT;
	}
	if (sector >= bdev_nr_sectors(bdev) || count > bdev_nr_sectors(bdev) - sector) {
		/* Linux's words for the same mistake, and where the device ends */
		kprintf("blk: %s: attempt to access beyond end of device (sectors %llu-%llu, "
			"the device has %llu)\n", bdev->bd_name, (unsigned long long)sector,
			(unsigned long long)(sector + count - 1),
			(unsigned long long)bdev_nr_sectors(bdev));
		blkdev_put(bdev);
		return -ENOSPC;
	}
	len = count * SECTOR_SIZE;
	if (len % bdev_logical_block_size(bdev) ||
	    (sector * SECTOR_SIZE) % bdev_logical_block_size(bdev)) {
		kprintf("blk: %s has %u-byte blocks: sector and count must be multiples of %u\n",
			bdev->bd_name, bdev_logical_block_size(bdev),
			bdev_logical_block_size(bdev) / SECTOR_SIZE);
		blkdev_put(bdev);
		return -EINVAL;
	}
	buf = kmalloc(len, GFP_KERNEL);
	if (!buf) {
		blkdev_put(bdev);
		return -ENOMEM;
	}
	/*
	 * A device may complete a read without moving a byte (null_blk keeps
	 * nothing unless memory_backed): poison the buffer first, so an old
	 * buffer's contents never pass for the disk's.
	 */
	memset(buf, POISON_BYTE, len);
	if (!strcmp(argv[1], "read")) {
		err = blkdev_rw(bdev, REQ_OP_READ, sector, buf, len);
		if (!err)
			hexdump(buf, len, sector * SECTOR_SIZE);
	} else if (!strcmp(argv[1], "write")) {
		for (u64 i = 0; i < count; i++)
			pattern_fill(buf + i * SECTOR_SIZE, sector + i, (u32)seed);
		err = blkdev_rw(bdev, REQ_OP_WRITE, sector, buf, len);
		if (!err)
			kprintf("blk: wrote %llu sectors at %llu (seed %llu)\n",
				(unsigned long long)count, (unsigned long long)sector,
				(unsigned long long)seed);
	} else if (!strcmp(argv[1], "verify")) {
		u8 want[SECTOR_SIZE];
		u64 bad = 0;

		err = blkdev_rw(bdev, REQ_OP_READ, sector, buf, len);
		for (u64 i = 0; !err && i < count; i++) {
			pattern_fill(want, sector + i, (u32)seed);
			if (memcmp(want, buf + i * SECTOR_SIZE, SECTOR_SIZE)) {
				if (!bad)
					kprintf("blk: sector %llu differs\n",
						(unsigned long long)(sector + i));
				bad++;
			}
		}
		if (!err)
			kprintf("blk: verify %llu sectors at %llu: %llu bad\n",
				(unsigned long long)count, (unsigned long long)sector,
				(unsigned long long)bad);
		if (!err && bad == count && untouched(buf, len))
			kprintf("blk: %s returned no data at all: it keeps nothing written to it "
				"(null_blk does unless null_blk.memory_backed=1)\n", argv[2]);
		if (bad)
			err = -EIO;
	} else {
		kprintf("blk: unknown action '%s' (read, write, verify)\n", argv[1]);
		err = -EINVAL;
	}
	/* The shell names the error. */
	if (err && err != -EINVAL)
		kprintf("blk: %s of %s failed\n", argv[1], argv[2]);
	kfree(buf);
	blkdev_put(bdev);
	return err;
}
SHELL_CMD(blk, "blk read|write|verify DEV SECTOR [COUNT [SEED]]",
	  "inspect sectors, write a per-sector pattern, verify it", cmd_blk);
