// SPDX-License-Identifier: MIT
/*
 * Disks and the block-device registry (Linux: block/genhd.c, block/bdev.c).
 *
 * Every block_device, whole disk or partition, is on one list, found by
 * name. Opening takes a reference on the block_device and counts towards
 * its disk; del_gendisk() refuses while the count is not zero, so a disk
 * in use cannot disappear from under its user. One mutex (bdev_lock)
 * orders opens, closes, registration and partition rescans.
 */
#include <pagoda/err.h>
#include <pagoda/mutex.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "blk.h"

DEFINE_MUTEX(bdev_lock);
static LIST_HEAD(all_bdevs);

#define BLKDEV_MAJOR_MAX 512
#define DYNAMIC_MAJOR_FIRST 254
#define DYNAMIC_MAJOR_LAST 234
static const char *major_names[BLKDEV_MAJOR_MAX];
static unsigned int ext_minors_used; /* of BLOCK_EXT_MAJOR */

int register_blkdev(unsigned int major, const char *name)
{
	int ret = -EBUSY;

	mutex_lock(&bdev_lock);
	if (!major) {
		for (unsigned int m = DYNAMIC_MAJOR_FIRST; m >= DYNAMIC_MAJOR_LAST; m--)
			if (!major_names[m]) {
				major = m;
				break;
			}
	}
	if (major && major < BLKDEV_MAJOR_MAX && !major_names[major]) {
		major_names[major] = name;
		ret = (int)major;
	} else if (major && major < BLKDEV_MAJOR_MAX && !strcmp(major_names[major], name)) {
		ret = (int)major; /* the same driver again */
	}
	mutex_unlock(&bdev_lock);
	if (ret < 0)
		pr_err("block: no major for %s\n", name);
	return ret;
}

void blkdev_for_each_major(void (*fn)(unsigned int major, const char *name, void *arg),
			   void *arg)
{
	mutex_lock(&bdev_lock);
	for (unsigned int m = 1; m < BLKDEV_MAJOR_MAX; m++)
		if (major_names[m])
			fn(m, major_names[m], arg);
	mutex_unlock(&bdev_lock);
}

/* A partition's number: the disk's next minor, or the extended major's. */
static dev_t part_devt(struct gendisk *disk, unsigned int partno)
{
	if (partno < disk->minors)
		return MKDEV(disk->major, disk->first_minor + partno);
	return MKDEV(BLOCK_EXT_MAJOR, ext_minors_used++);
}

/* "vda" + 2 = "vda2"; a name ending in a digit gets a 'p': "nullb0p1". */
void disk_name_part(const char *disk, unsigned int partno, char *buf, size_t size)
{
	size_t n = strlen(disk);

	if (!partno)
		snprintf(buf, size, "%s", disk);
	else if (n && disk[n - 1] >= '0' && disk[n - 1] <= '9')
		snprintf(buf, size, "%sp%u", disk, partno);
	else
		snprintf(buf, size, "%s%u", disk, partno);
}

struct block_device *bdev_alloc(struct gendisk *disk, u8 partno)
{
	struct block_device *bdev = kzalloc(sizeof(*bdev), GFP_KERNEL);

	if (!bdev)
		return NULL;
	bdev->bd_disk = disk;
	bdev->bd_partno = partno;
	atomic_set(&bdev->bd_openers, 0);
	INIT_LIST_HEAD(&bdev->bd_list);
	disk_name_part(disk->disk_name, partno, bdev->bd_name, sizeof(bdev->bd_name));
	if (partno)
		bdev->bd_dev = part_devt(disk, partno);
	return bdev;
}

/*
 * "vda", "/dev/vda" (no /dev here, but Linux users write it: resume=,
 * fio's --filename=), or a device number as Linux writes it, "254:0".
 */
static bool bdev_matches(const struct block_device *bdev, const char *name)
{
	unsigned int ma = 0, mi = 0;
	const char *p;

	if (!strncmp(name, "/dev/", 5))
		name += 5;
	p = name;
	if (!strcmp(bdev->bd_name, name))
		return true;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9' && ma < BLKDEV_MAJOR_MAX)
		ma = ma * 10 + (unsigned int)(*p++ - '0');
	if (*p++ != ':' || *p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9' && mi < (1U << MINORBITS))
		mi = mi * 10 + (unsigned int)(*p++ - '0');
	return !*p && ma < BLKDEV_MAJOR_MAX && mi < (1U << MINORBITS) &&
	       bdev->bd_dev == MKDEV(ma, mi);
}

/* "base" or "/dev/mapper/base": a whole disk's alias (a mapped device's name). */
static bool bdev_alias_matches(const struct block_device *bdev, const char *name)
{
	const char *alias = bdev->bd_disk->alias;

	if (bdev->bd_partno || !alias[0])
		return false;
	if (!strncmp(name, "/dev/mapper/", 12))
		name += 12;
	return !strcmp(alias, name);
}

static struct block_device *__bdev_lookup(const char *name)
{
	struct block_device *bdev;

	list_for_each_entry(bdev, &all_bdevs, bd_list)
		if (bdev_matches(bdev, name))
			return bdev;
	list_for_each_entry(bdev, &all_bdevs, bd_list)
		if (bdev_alias_matches(bdev, name))
			return bdev;
	return NULL;
}

struct block_device *bdev_lookup(const char *name)
{
	struct block_device *bdev;

	mutex_lock(&bdev_lock);
	bdev = __bdev_lookup(name);
	mutex_unlock(&bdev_lock);
	return bdev;
}

void bdev_for_each(void (*fn)(struct block_device *bdev, void *arg), void *arg)
{
	struct block_device *bdev;

	mutex_lock(&bdev_lock);
	list_for_each_entry(bdev, &all_bdevs, bd_list)
		fn(bdev, arg);
	mutex_unlock(&bdev_lock);
}

/* A disk __alloc_disk() made and nothing else has seen yet. */
static void __free_new_disk(struct gendisk *disk)
{
	kfree(disk->queue);
	kfree(disk->part0);
	kfree(disk);
}

struct gendisk *__alloc_disk(void)
{
	struct gendisk *disk = kzalloc(sizeof(*disk), GFP_KERNEL);

	if (!disk)
		return NULL;
	disk->queue = kzalloc(sizeof(*disk->queue), GFP_KERNEL);
	disk->part0 = bdev_alloc(disk, 0);
	if (!disk->queue || !disk->part0) {
		__free_new_disk(disk);
		return NULL;
	}
	disk->queue->disk = disk;
	atomic_set(&disk->open_count, 0);
	return disk;
}

void set_capacity(struct gendisk *disk, sector_t sectors)
{
	disk->part0->bd_nr_sectors = sectors;
}

int add_disk(struct gendisk *disk)
{
	struct block_device *part0 = disk->part0;

	if (!disk->disk_name[0] || (!disk->queue->mq_ops && !(disk->fops && disk->fops->submit_bio)))
		return -EINVAL;
	if (!disk->major || !disk->minors) {
		pr_err("block: %s has no device numbers (major, minors)\n", disk->disk_name);
		return -EINVAL;
	}
	part0->bd_dev = MKDEV(disk->major, disk->first_minor);
	/* The name may have been written after allocation. */
	disk_name_part(disk->disk_name, 0, part0->bd_name, sizeof(part0->bd_name));
	mutex_lock(&bdev_lock);
	if (__bdev_lookup(part0->bd_name)) {
		mutex_unlock(&bdev_lock);
		pr_err("block: a device named %s exists already\n", part0->bd_name);
		return -EEXIST;
	}
	list_add_tail(&part0->bd_list, &all_bdevs);
	disk->registered = true;
	mutex_unlock(&bdev_lock);
	blk_add_partitions(disk);
	return 0;
}

/*
 * Under bdev_lock: unless the disk is open (-EBUSY), take its partitions
 * out of the name list, so that no new open finds them.
 */
static int disk_unlist_partitions(struct gendisk *disk)
{
	if (atomic_read(&disk->open_count))
		return -EBUSY;
	for (unsigned int i = 1; i <= disk->nr_parts; i++)
		if (disk->parts[i])
			list_del_init(&disk->parts[i]->bd_list);
	return 0;
}

int del_gendisk(struct gendisk *disk)
{
	mutex_lock(&bdev_lock);
	if (!disk->registered) {
		mutex_unlock(&bdev_lock);
		return -EINVAL;
	}
	if (disk_unlist_partitions(disk)) {
		mutex_unlock(&bdev_lock);
		return -EBUSY;
	}
	list_del_init(&disk->part0->bd_list);
	disk->registered = false;
	mutex_unlock(&bdev_lock);
	if (disk->queue->mq_ops)
		blk_mq_quiesce_wait(disk->queue);
	blk_drop_partitions(disk);
	return 0;
}

void put_disk(struct gendisk *disk)
{
	if (!disk || disk->registered)
		return;
	blk_drop_partitions(disk);
	blk_mq_release_queue(disk->queue);
	kfree(disk->queue);
	kfree(disk->part0);
	kfree(disk);
}

struct block_device *blkdev_get_by_name(const char *name)
{
	struct block_device *bdev;
	struct gendisk *disk;

	mutex_lock(&bdev_lock);
	bdev = __bdev_lookup(name);
	if (!bdev) {
		mutex_unlock(&bdev_lock);
		return ERR_PTR(-ENOENT);
	}
	disk = bdev->bd_disk;
	if (atomic_read(&disk->open_count) == 0 && disk->fops && disk->fops->open) {
		int err = disk->fops->open(disk);

		if (err) {
			mutex_unlock(&bdev_lock);
			return ERR_PTR(err);
		}
	}
	atomic_inc(&disk->open_count);
	atomic_inc(&bdev->bd_openers);
	mutex_unlock(&bdev_lock);
	return bdev;
}

void blkdev_put(struct block_device *bdev)
{
	struct gendisk *disk;

	if (IS_ERR_OR_NULL(bdev))
		return;
	disk = bdev->bd_disk;
	mutex_lock(&bdev_lock);
	if (atomic_read(&bdev->bd_openers) <= 0) {
		mutex_unlock(&bdev_lock);
		pr_err("block: %s closed more often than opened\n", bdev->bd_name);
		return;
	}
	atomic_dec(&bdev->bd_openers);
	if (atomic_dec_and_test(&disk->open_count) && disk->fops && disk->fops->release)
		disk->fops->release(disk);
	mutex_unlock(&bdev_lock);
}

int bdev_disk_changed(struct gendisk *disk)
{
	mutex_lock(&bdev_lock);
	if (disk_unlist_partitions(disk)) {
		mutex_unlock(&bdev_lock);
		return -EBUSY;
	}
	mutex_unlock(&bdev_lock);
	blk_drop_partitions(disk);
	return blk_add_partitions(disk);
}

struct gendisk *blk_mq_alloc_disk(struct blk_mq_tag_set *set, struct queue_limits *lim,
				  void *queuedata)
{
	struct gendisk *disk;
	int err;

	if (!set->tags)
		return ERR_PTR(-EINVAL);
	disk = blk_alloc_disk(lim, queuedata);
	if (IS_ERR(disk))
		return disk;
	err = blk_mq_init_queue_on(disk->queue, set);
	if (err) {
		__free_new_disk(disk);
		return ERR_PTR(err);
	}
	return disk;
}

struct gendisk *blk_alloc_disk(struct queue_limits *lim, void *queuedata)
{
	struct gendisk *disk = __alloc_disk();
	int err;

	if (!disk)
		return ERR_PTR(-ENOMEM);
	if (lim)
		disk->queue->limits = *lim;
	err = blk_validate_limits(&disk->queue->limits);
	if (err) {
		__free_new_disk(disk);
		return ERR_PTR(err);
	}
	disk->queue->queuedata = queuedata;
	return disk;
}

void blk_dev_init(void)
{
	blk_mq_init();
}
