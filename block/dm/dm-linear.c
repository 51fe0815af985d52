// SPDX-License-Identifier: MIT
/*
 * linear: a range of another device (Linux: drivers/md/dm-linear.c).
 *
 *	<start> <length> linear <device> <offset>
 */
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-core.h"

struct linear_c {
	struct dm_dev *dev;
	sector_t start;
};

static int linear_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct linear_c *lc;
	u64 start;
	int r;

	if (argc != 2) {
		ti->error = "Invalid argument count (want <device> <offset>)";
		return -EINVAL;
	}
	if (kstrtou64(argv[1], 10, &start)) {
		ti->error = "Invalid device sector";
		return -EINVAL;
	}
	lc = kzalloc(sizeof(*lc), GFP_KERNEL);
	if (!lc) {
		ti->error = "Cannot allocate linear context";
		return -ENOMEM;
	}
	r = dm_get_device(ti, argv[0], &lc->dev);
	if (r) {
		ti->error = "Device lookup failed";
		kfree(lc);
		return r;
	}
	if (start + ti->len > bdev_nr_sectors(lc->dev->bdev)) {
		ti->error = "Device too small for the target";
		dm_put_device(ti, lc->dev);
		kfree(lc);
		return -EINVAL;
	}
	lc->start = start;
	ti->private = lc;
	return 0;
}

static void linear_dtr(struct dm_target *ti)
{
	struct linear_c *lc = ti->private;

	dm_put_device(ti, lc->dev);
	kfree(lc);
}

static int linear_map(struct dm_target *ti, struct bio *bio)
{
	struct linear_c *lc = ti->private;

	bio->bi_bdev = lc->dev->bdev;
	if (bio_sectors(bio) || op_is_write(bio->bi_opf))
		bio->bi_iter.bi_sector = lc->start + dm_target_offset(ti, bio->bi_iter.bi_sector);
	return DM_MAPIO_REMAPPED;
}

static void linear_status(struct dm_target *ti, status_type_t type, char *result,
			  unsigned int maxlen)
{
	struct linear_c *lc = ti->private;
	unsigned int sz = 0;

	if (type == STATUSTYPE_TABLE)
		DMEMIT("%s %llu", lc->dev->name, (unsigned long long)lc->start);
}

static struct target_type linear_target = {
	.name = "linear",
	.version = { 1, 4, 0 },
	.ctr = linear_ctr,
	.dtr = linear_dtr,
	.map = linear_map,
	.status = linear_status,
};

int dm_linear_init(void)
{
	return dm_register_target(&linear_target);
}
