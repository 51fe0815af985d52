// SPDX-License-Identifier: MIT
/*
 * Partitions of a registered disk become block devices (Linux:
 * block/partitions/core.c). The parsers (check.c, msdos.c, efi.c) read the
 * disk through blkdev_rw(); what they accept becomes block_devices named
 * after the disk ("vda2", "nullb0p1") in the registry. A table they refuse
 * is reported once with the reason, and the whole disk stays usable.
 */
#include <pagoda/mutex.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>

#include "../blk.h"
#include "check.h"

static int read_block(void *ctx, u64 lba, void *buf)
{
	struct block_device *bdev = ctx;
	unsigned int lbs = bdev_logical_block_size(bdev);
	sector_t sector = lba * (lbs >> SECTOR_SHIFT);

	if (sector >= bdev->bd_nr_sectors)
		return -EIO;
	return blkdev_rw(bdev, REQ_OP_READ, sector, buf, lbs);
}

int blk_add_partitions(struct gendisk *disk)
{
	struct parsed_partitions *state;
	struct block_device *last = disk->part0;
	unsigned int found = 0;
	int r;

	if (!get_capacity(disk))
		return 0;
	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return -ENOMEM;
	state->name = disk->disk_name;
	state->capacity = get_capacity(disk);
	state->lbs = disk->queue->limits.logical_block_size;
	state->read = read_block;
	state->ctx = disk->part0;
	state->limit = DISK_MAX_PARTS - 1;
	r = check_partition(state);
	if (r < 0) {
		pr_warn("%s: %s partition table ignored: %s\n", disk->disk_name,
			state->kind ? state->kind : "", state->why);
		kfree(state);
		return 0;
	}
	mutex_lock(&bdev_lock);
	for (unsigned int i = 1; r > 0 && i <= state->nr && i < DISK_MAX_PARTS; i++) {
		struct block_device *bdev;

		if (!state->parts[i].size)
			continue;
		bdev = bdev_alloc(disk, (u8)i);
		if (!bdev)
			break;
		bdev->bd_start_sect = state->parts[i].from;
		bdev->bd_nr_sectors = state->parts[i].size;
		disk->parts[i] = bdev;
		disk->nr_parts = i;
		/* Right after the disk's earlier entries: lsblk's order. */
		list_add(&bdev->bd_list, &last->bd_list);
		last = bdev;
		found++;
	}
	mutex_unlock(&bdev_lock);
	if (found)
		pr_info("%s: %u partition%s (%s)\n", disk->disk_name, found,
			found == 1 ? "" : "s", state->kind);
	kfree(state);
	return 0;
}

void blk_drop_partitions(struct gendisk *disk)
{
	for (unsigned int i = 1; i <= disk->nr_parts; i++) {
		kfree(disk->parts[i]);
		disk->parts[i] = NULL;
	}
	disk->nr_parts = 0;
}
