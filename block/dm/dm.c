// SPDX-License-Identifier: MIT
/*
 * The device-mapper core (Linux: drivers/md/dm.c).
 *
 * A mapped device is a bio-based disk (dm-0, dm-1...) with a live table and
 * possibly an inactive one waiting for the next resume. Every bio that
 * reaches dm_submit_bio() is cut into clones, one per piece that lies in a
 * single target and within that target's max_io_len; each clone shares the
 * original's pages and goes to the target's ->map(). The original ends when
 * its last clone does, with the first error any clone saw.
 *
 * Suspend closes the door (new bios wait in dm_submit_bio()) and waits for
 * everything inside, including bios a target is holding (a snapshot's
 * pending copies), to finish. Only then may resume swap tables: so a bio is
 * always mapped and completed by one table.
 */
#include <pagoda/err.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/task.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-core.h"

DEFINE_MUTEX(dm_devices_lock);	/* the list, the names and uuids */
LIST_HEAD(dm_devices);
static int dm_major;
static char dm_error[DM_ERROR_LEN];

void dm_init_once(void)
{
	static bool done;

	/* Called under dm_devices_lock. */
	if (done)
		return;
	done = true;
	/* "device-mapper"'s dynamic major, listed in /proc/devices from now on */
	dm_major = register_blkdev(0, "device-mapper");
	dm_linear_init();
	dm_snapshot_init();
}

const char *dm_last_error(void)
{
	return dm_error;
}

/* ------------------------------------------------------------------ bios */

void *dm_per_bio_data(struct bio *bio)
{
	return container_of(bio, struct dm_target_io, clone)->per_bio_data;
}

struct dm_target *dm_bio_target(struct bio *bio)
{
	return container_of(bio, struct dm_target_io, clone)->ti;
}

void dm_accept_partial_bio(struct bio *bio, unsigned int n_sectors)
{
	struct dm_target_io *tio = container_of(bio, struct dm_target_io, clone);

	if (!tio->accepted || n_sectors == 0 || n_sectors > bio_sectors(bio))
		return;
	*tio->accepted = n_sectors;
	bio->bi_iter.bi_size = n_sectors << SECTOR_SHIFT;
}

/* One I/O fewer; the last lets a suspend waiting for none go on (and free md). */
static void dm_pending_dec(struct mapped_device *md)
{
	atomic_dec_wake_up_all(&md->pending, &md->wait);
}

static void dm_io_dec(struct dm_io *io)
{
	struct mapped_device *md = io->md;

	if (!atomic_dec_and_test(&io->io_count))
		return;
	io->orig->bi_status = io->status;
	bio_endio(io->orig);
	kfree(io);
	/* The last bio out lets a waiting suspend go on. */
	dm_pending_dec(md);
}

static void clone_endio(struct bio *clone)
{
	struct dm_target_io *tio = container_of(clone, struct dm_target_io, clone);
	struct dm_io *io = tio->io;
	blk_status_t status = clone->bi_status;

	if (tio->ti->type->end_io)
		tio->ti->type->end_io(tio->ti, clone, &status);
	if (status)
		cmpxchg(&io->status, BLK_STS_OK, status);
	kfree(tio);
	dm_io_dec(io);
}

static struct bio *alloc_clone(struct dm_io *io, struct dm_target *ti, struct bio *orig,
			       struct bvec_iter iter, unsigned int sectors)
{
	struct dm_target_io *tio = kzalloc(sizeof(*tio), GFP_KERNEL);
	struct bio *clone;

	if (!tio)
		return NULL;
	clone = &tio->clone;
	bio_init(clone, orig->bi_bdev, orig->bi_io_vec, orig->bi_max_vecs, orig->bi_opf);
	clone->bi_flags = 1U << BIO_CLONED;
	clone->bi_vcnt = orig->bi_vcnt;
	clone->bi_iter = iter;
	clone->bi_iter.bi_size = sectors << SECTOR_SHIFT;
	clone->bi_end_io = clone_endio;
	clone->bi_private = tio;
	tio->io = io;
	tio->ti = ti;
	atomic_inc(&io->io_count);
	return clone;
}

/* Give one clone to its target; returns the sectors the target took. */
static unsigned int map_clone(struct dm_target *ti, struct bio *clone, unsigned int sectors)
{
	struct dm_target_io *tio = container_of(clone, struct dm_target_io, clone);
	unsigned int accepted = sectors;
	int r;

	tio->accepted = &accepted;
	r = ti->type->map(ti, clone);
	/* After ->map() the clone may already be gone: touch only locals. */
	switch (r) {
	case DM_MAPIO_REMAPPED:
		tio->accepted = NULL;
		submit_bio(clone);
		break;
	case DM_MAPIO_KILL:
		bio_io_error(clone);
		break;
	default:
		break;
	}
	return accepted;
}

/* How far from sector the clone may reach in ti: the target's end, max_io_len. */
static unsigned int max_io_len(struct dm_target *ti, sector_t sector, unsigned int want)
{
	sector_t left = ti->begin + ti->len - sector;
	u64 len = MIN((u64)want, (u64)left);

	if (ti->max_io_len) {
		u64 off = dm_target_offset(ti, sector) % ti->max_io_len;

		len = MIN(len, (u64)(ti->max_io_len - off));
	}
	return (unsigned int)len;
}

static void dm_start_io(struct mapped_device *md)
{
	for (;;) {
		/* Fully ordered: the count is visible before we look at the door. */
		atomic_inc_return(&md->pending);
		if (!READ_ONCE(md->suspended))
			return;
		dm_pending_dec(md);
		wait_event(md->wait, !READ_ONCE(md->suspended));
	}
}

static void __dm_submit_bio(struct bio *bio);

/*
 * Targets may sleep in ->map() (a snapshot allocates, writes its header,
 * waits for a chunk being merged), and a sleeper here keeps its plug
 * (docs/block.md): requests parked on it, perhaps the very ones being
 * waited for, would never go out. So the submitter's plug is sent first
 * and set aside while the clones are mapped.
 */
static void dm_submit_bio(struct bio *bio)
{
	struct blk_plug *plug = current->plug;

	blk_flush_plug(plug);
	current->plug = NULL;
	__dm_submit_bio(bio);
	current->plug = plug;
}

static void __dm_submit_bio(struct bio *bio)
{
	struct mapped_device *md = bio->bi_bdev->bd_disk->private_data;
	struct bvec_iter iter = bio->bi_iter;
	struct dm_table *map;
	struct dm_io *io;

	dm_start_io(md);
	map = md->map;
	io = kzalloc(sizeof(*io), GFP_KERNEL);
	if (!io || !map) {
		kfree(io);
		bio_io_error(bio);
		dm_pending_dec(md);
		return;
	}
	io->md = md;
	io->orig = bio;
	atomic_set(&io->io_count, 1);

	if (!bio_sectors(bio)) {
		/* An empty flush goes to every target (each picks its devices). */
		for (unsigned int i = 0; i < map->num_targets; i++) {
			struct dm_target *ti = &map->targets[i];
			struct bio *clone = alloc_clone(io, ti, bio, iter, 0);

			if (!clone) {
				io->status = BLK_STS_RESOURCE;
				break;
			}
			clone->bi_iter.bi_sector = ti->begin;
			map_clone(ti, clone, 0);
		}
		dm_io_dec(io);
		return;
	}

	while (iter.bi_size) {
		struct dm_target *ti = dm_table_find_target(map, iter.bi_sector);
		unsigned int len;
		struct bio *clone;

		if (!ti) {
			io->status = BLK_STS_IOERR;
			break;
		}
		len = max_io_len(ti, iter.bi_sector, iter.bi_size >> SECTOR_SHIFT);
		clone = alloc_clone(io, ti, bio, iter, len);
		if (!clone) {
			io->status = BLK_STS_RESOURCE;
			break;
		}
		len = map_clone(ti, clone, len);
		bio_advance_iter(bio, &iter, len << SECTOR_SHIFT);
	}
	dm_io_dec(io);
}

static const struct block_device_operations dm_blk_dops = {
	.submit_bio = dm_submit_bio,
};

/* ------------------------------------------------------- mapped devices */

struct mapped_device *__dm_find(const char *name)
{
	struct mapped_device *md;

	list_for_each_entry(md, &dm_devices, list)
		if (!strcmp(md->name, name) || !strcmp(md->disk->disk_name, name))
			return md;
	return NULL;
}

struct mapped_device *__dm_find_uuid(const char *uuid)
{
	struct mapped_device *md;

	list_for_each_entry(md, &dm_devices, list)
		if (*uuid && !strcmp(md->uuid, uuid))
			return md;
	return NULL;
}

struct mapped_device *__dm_find_devt(dev_t dev)
{
	struct mapped_device *md;

	list_for_each_entry(md, &dm_devices, list)
		if (dm_devt(md) == dev)
			return md;
	return NULL;
}

struct mapped_device *dm_find(const char *name)
{
	struct mapped_device *md;

	mutex_lock(&dm_devices_lock);
	dm_init_once();
	md = __dm_find(name);
	mutex_unlock(&dm_devices_lock);
	return md;
}

/*
 * The lowest minor no mapped device holds, as Linux's IDR hands them out:
 * a removed device's (or a failed create's) minor is the next one's.
 */
static unsigned int dm_free_minor(void)
{
	struct mapped_device *md;
	unsigned int minor = 0;
	bool taken;

	do {
		taken = false;
		list_for_each_entry(md, &dm_devices, list)
			if (md->disk->first_minor == minor) {
				taken = true;
				minor++;
				break;
			}
	} while (taken);
	return minor;
}

/*
 * A name dmsetup could make a node of: /dev/mapper/NAME. Linux refuses a
 * '/'; "control" would be the control node, "." and ".." the directory.
 */
static bool dm_name_ok(const char *name)
{
	return *name && strlen(name) < DM_NAME_LEN && !strchr(name, '/') &&
	       strcmp(name, "control") && strcmp(name, ".") && strcmp(name, "..");
}

int dm_create(const char *name, struct mapped_device **out)
{
	int err;

	mutex_lock(&dm_devices_lock);
	err = __dm_create(name, -1, out);
	mutex_unlock(&dm_devices_lock);
	return err;
}

/* Under dm_devices_lock; minor -1 picks the lowest free one, as Linux's IDR. */
int __dm_create(const char *name, int minor, struct mapped_device **out)
{
	struct queue_limits lim = {
		.logical_block_size = 512,
		.physical_block_size = 512,
		.max_hw_sectors = 2048,
		.max_sectors = 2048,
		.max_segments = BIO_MAX_VECS,
		.max_segment_size = PAGE_SIZE,
	};
	struct mapped_device *md;
	int err = 0;

	if (!dm_name_ok(name))
		return -EINVAL;
	dm_init_once();
	if (__dm_find(name)) {
		err = -EEXIST;
		goto out;
	}
	if (minor >= 0 && (minor >= 1 << 20 || (dm_major > 0 &&
			   __dm_find_devt(MKDEV((unsigned int)dm_major, (unsigned int)minor))))) {
		err = -EBUSY;
		goto out;
	}
	md = kzalloc(sizeof(*md), GFP_KERNEL);
	if (!md) {
		err = -ENOMEM;
		goto out;
	}
	md->disk = blk_alloc_disk(&lim, md);
	if (IS_ERR(md->disk)) {
		err = (int)PTR_ERR(md->disk);
		kfree(md);
		goto out;
	}
	md->disk->fops = &dm_blk_dops;
	md->disk->private_data = md;
	/* the minor is dm-N's N */
	md->disk->major = dm_major > 0 ? (unsigned int)dm_major : 0;
	md->disk->first_minor = minor >= 0 ? (unsigned int)minor : dm_free_minor();
	md->disk->minors = 1;
	snprintf(md->disk->disk_name, DISK_NAME_LEN, "dm-%u", md->disk->first_minor);
	strlcpy(md->name, name, sizeof(md->name));
	/* udev's /dev/mapper/NAME link: blk, fio, resume= and tables take it */
	strlcpy(md->disk->alias, name, sizeof(md->disk->alias));
	mutex_init(&md->suspend_lock);
	init_waitqueue_head(&md->wait);
	init_waitqueue_head(&md->eventq);
	atomic_set(&md->pending, 0);
	md->suspended = true;	/* no table yet: nothing to map through */
	list_add_tail(&md->list, &dm_devices);
	*out = md;
out:
	return err;
}

int dm_table_load(struct mapped_device *md, const char *text)
{
	struct dm_table *t;

	dm_error[0] = 0;
	mutex_lock(&md->suspend_lock);
	t = dm_table_create(md, text, dm_error, sizeof(dm_error));
	mutex_unlock(&md->suspend_lock);
	if (IS_ERR(t))
		return (int)PTR_ERR(t);
	return dm_table_install(md, t);
}

/*
 * t becomes md's inactive table. The disk appears at the first load, as
 * in Linux (dm_setup_md_queue()): dm-N and /dev/mapper/NAME exist from
 * then on, empty (capacity 0) until the first resume.
 */
int dm_table_install(struct mapped_device *md, struct dm_table *t)
{
	int err = 0;

	mutex_lock(&md->suspend_lock);
	if (md->new_map)
		dm_table_destroy(md->new_map);
	md->new_map = t;
	if (!md->added) {
		err = add_disk(md->disk);
		if (!err)
			md->added = true;
	}
	mutex_unlock(&md->suspend_lock);
	return err;
}

/* DM_TABLE_CLEAR: forget the inactive table. */
void dm_table_clear(struct mapped_device *md)
{
	mutex_lock(&md->suspend_lock);
	if (md->new_map)
		dm_table_destroy(md->new_map);
	md->new_map = NULL;
	mutex_unlock(&md->suspend_lock);
}

static void for_each_target(struct dm_table *t, size_t hook)
{
	for (unsigned int i = 0; t && i < t->num_targets; i++) {
		struct dm_target *ti = &t->targets[i];
		dm_suspend_fn fn = *(dm_suspend_fn *)((char *)ti->type + hook);

		if (fn)
			fn(ti);
	}
}

static void __dm_suspend(struct mapped_device *md)
{
	for_each_target(md->map, offsetof(struct target_type, presuspend));
	WRITE_ONCE(md->suspended, true);
	smp_mb();
	wait_event(md->wait, atomic_read(&md->pending) == 0);
	for_each_target(md->map, offsetof(struct target_type, postsuspend));
}

int dm_suspend(struct mapped_device *md)
{
	mutex_lock(&md->suspend_lock);
	if (!md->suspended)
		__dm_suspend(md);
	mutex_unlock(&md->suspend_lock);
	return 0;
}

/*
 * A mapped device promises what its devices promise (Linux's
 * dm_table_set_restrictions): where one has a volatile write cache, a
 * PREFLUSH or FUA on the mapped device must reach it, not be dropped as
 * meaningless. So the device advertises a write cache, and FUA too: the
 * flag rides on each clone to the device below, whose own block layer
 * keeps the promise (natively, or with a flush after the write). Set while
 * suspended: no bio is being mapped.
 */
static void dm_set_flush_features(struct request_queue *q, struct dm_table *t)
{
	unsigned int f = q->limits.features & ~(BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA);

	if (t->features & BLK_FEAT_WRITE_CACHE)
		f |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	WRITE_ONCE(q->limits.features, f);
}

int dm_resume(struct mapped_device *md)
{
	struct dm_table *old = NULL;
	int err = 0;

	mutex_lock(&md->suspend_lock);
	if (md->new_map) {
		if (!md->suspended)
			__dm_suspend(md);
		old = md->map;
		md->map = md->new_map;
		md->new_map = NULL;
	}
	if (!md->map) {
		err = -EINVAL;	/* Linux's answer: nothing to resume with */
		goto out;
	}
	/* The old table's targets let go of their devices before the new ones start. */
	if (old)
		dm_table_destroy(old);
	if (md->suspended) {
		for (unsigned int i = 0; i < md->map->num_targets; i++) {
			struct dm_target *ti = &md->map->targets[i];

			if (ti->type->preresume && (err = ti->type->preresume(ti)) != 0)
				goto out;
		}
		set_capacity(md->disk, md->map->size);
		dm_set_flush_features(md->disk->queue, md->map);
		WRITE_ONCE(md->suspended, false);
		wake_up_all(&md->wait);
		for_each_target(md->map, offsetof(struct target_type, resume));
	}
	if (!md->added) {
		err = add_disk(md->disk);
		if (!err)
			md->added = true;
	}
out:
	mutex_unlock(&md->suspend_lock);
	return err;
}

int dm_remove(struct mapped_device *md)
{
	int err;

	mutex_lock(&dm_devices_lock);
	err = __dm_remove(md);
	mutex_unlock(&dm_devices_lock);
	return err;
}

/* Under dm_devices_lock. -EBUSY while the disk is open. */
int __dm_remove(struct mapped_device *md)
{
	int err;

	mutex_lock(&md->suspend_lock);
	if (md->added) {
		err = del_gendisk(md->disk);
		if (err) {
			mutex_unlock(&md->suspend_lock);
			return err;
		}
	}
	/*
	 * A device going is an event, as in Linux: DM_DEV_WAIT's waiters
	 * wake and leave before md goes (suspend_lock is let go meanwhile:
	 * a waiter that woke for an event reads the status under it). No
	 * command can find md meanwhile: the caller holds dm_devices_lock.
	 */
	WRITE_ONCE(md->dying, true);
	if (md->map)
		dm_table_event(md->map);
	wake_up_all(&md->eventq);
	mutex_unlock(&md->suspend_lock);
	wait_event(md->eventq, atomic_read(&md->holders) == 0);
	mutex_lock(&md->suspend_lock);
	if (!md->suspended)
		__dm_suspend(md);
	if (md->map)
		dm_table_destroy(md->map);
	if (md->new_map)
		dm_table_destroy(md->new_map);
	list_del(&md->list);
	mutex_unlock(&md->suspend_lock);
	put_disk(md->disk);
	kfree(md);
	return 0;
}

int dm_status(struct mapped_device *md, status_type_t type, char *buf, size_t size)
{
	struct dm_table *t;
	size_t sz = 0;

	mutex_lock(&md->suspend_lock);
	t = md->map;
	for (unsigned int i = 0; t && i < t->num_targets; i++) {
		struct dm_target *ti = &t->targets[i];
		size_t n;

		sz += snprintf(buf + sz, sz < size ? size - sz : 0, "%llu %llu %s ",
			       (unsigned long long)ti->begin, (unsigned long long)ti->len,
			       ti->type->name);
		if (sz < size) {
			buf[sz] = 0;
			if (ti->type->status)
				ti->type->status(ti, type, buf + sz, (unsigned int)(size - sz));
		}
		n = strlen(buf + MIN(sz, size - 1));
		sz += n;
		/* No args (an origin's INFO): drop the space after the name. */
		if (!n && sz && buf[sz - 1] == ' ')
			buf[--sz] = 0;
		sz += snprintf(buf + sz, sz < size ? size - sz : 0, "\n");
	}
	mutex_unlock(&md->suspend_lock);
	return 0;
}

int dm_message(struct mapped_device *md, unsigned int argc, char **argv, char *buf,
	       size_t size)
{
	u64 sector;

	/* "message NAME SECTOR args...": the target that holds that sector. */
	if (argc < 2 || kstrtou64(argv[0], 10, &sector))
		return -EINVAL;
	return dm_target_message(md, sector, argc - 1, argv + 1, buf, size);
}

/* The live table's target at sector takes the message; its answer in buf. */
int dm_target_message(struct mapped_device *md, u64 sector, unsigned int argc, char **argv,
		      char *buf, size_t size)
{
	struct dm_target *ti;
	int err = -EINVAL;

	if (!argc || !size)
		return -EINVAL;
	buf[0] = 0;
	mutex_lock(&md->suspend_lock);
	ti = md->map ? dm_table_find_target(md->map, sector) : NULL;
	if (ti && ti->type->message)
		err = ti->type->message(ti, argc, argv, buf, (unsigned int)size);
	mutex_unlock(&md->suspend_lock);
	return err;
}

/* A new name or uuid is an event on a device with a live table, as in Linux's dm_hash_rename(). */
static void dm_renamed_event(struct mapped_device *md)
{
	if (md->map)
		dm_table_event(md->map);
}

/*
 * DM_DEV_RENAME. The name is what /dev/mapper/NAME lists (the disk's
 * alias), so the node moves with it. Under dm_devices_lock.
 */
int dm_rename(struct mapped_device *md, const char *new_name)
{
	if (!dm_name_ok(new_name))
		return -EINVAL;
	if (__dm_find(new_name))
		return -EBUSY;
	mutex_lock(&md->suspend_lock);
	strlcpy(md->name, new_name, sizeof(md->name));
	strlcpy(md->disk->alias, new_name, sizeof(md->disk->alias));
	dm_renamed_event(md);
	mutex_unlock(&md->suspend_lock);
	return 0;
}

/* A uuid is set once (at create, or by a rename that gives one). Under dm_devices_lock. */
int dm_set_uuid(struct mapped_device *md, const char *uuid)
{
	if (md->uuid[0] || strlen(uuid) >= DM_UUID_LEN)
		return -EINVAL;
	if (__dm_find_uuid(uuid))
		return -EBUSY;
	mutex_lock(&md->suspend_lock);
	strlcpy(md->uuid, uuid, sizeof(md->uuid));
	dm_renamed_event(md);
	mutex_unlock(&md->suspend_lock);
	return 0;
}

const char *dm_device_name(struct mapped_device *md)
{
	return md->name;
}

const char *dm_disk_name(struct mapped_device *md)
{
	return md->disk->disk_name;
}

void dm_list_targets(void (*fn)(struct target_type *tt, void *arg), void *arg)
{
	mutex_lock(&dm_devices_lock);
	dm_init_once();
	mutex_unlock(&dm_devices_lock);
	dm_for_each_target_type(fn, arg);
}

dev_t dm_devt(struct mapped_device *md)
{
	return MKDEV(md->disk->major, md->disk->first_minor);
}

int dm_open_count(struct mapped_device *md)
{
	return atomic_read(&md->disk->open_count);
}

unsigned int dm_num_targets(struct mapped_device *md)
{
	return md->map ? md->map->num_targets : 0;
}

/*
 * Suspended by its user. A device that never had a table holds its door
 * shut too (nothing to map through), but Linux calls it active: so does
 * dmsetup info here.
 */
bool dm_suspended(struct mapped_device *md)
{
	return READ_ONCE(md->suspended) && md->map;
}

bool dm_has_inactive_table(struct mapped_device *md)
{
	return md->new_map != NULL;
}

/*
 * A target's state changed in a way its user should hear of (a snapshot
 * invalidated): the device's event count goes up, and DM_DEV_WAIT's
 * waiters wake, as Linux's dm_table_event() makes them.
 */
void dm_table_event(struct dm_table *t)
{
	atomic_inc(&t->md->event_nr);
	wake_up_all(&t->md->eventq);
}

u32 dm_event_nr(struct mapped_device *md)
{
	return (u32)atomic_read(&md->event_nr);
}

const char *dm_table_device_name(struct dm_table *t)
{
	return t->md->disk->disk_name;
}

void dm_for_each(void (*fn)(struct mapped_device *md, void *arg), void *arg)
{
	struct mapped_device *md;

	mutex_lock(&dm_devices_lock);
	dm_init_once();
	list_for_each_entry(md, &dm_devices, list)
		fn(md, arg);
	mutex_unlock(&dm_devices_lock);
}

/*
 * Devices in tables: "nullb0", "/dev/nullb0", "/dev/mapper/NAME", "dm-0",
 * or a number, "254:0", as LVM writes them and `dmsetup table` prints
 * them back.
 */
int dm_get_device(struct dm_target *ti, const char *path, struct dm_dev **result)
{
	struct dm_dev *d;
	struct block_device *bdev;

	/* /dev/mapper/NAME is the mapped device's alias (block/genhd.c) */
	bdev = blkdev_get_by_name(path);
	if (PTR_ERR(bdev) == -ENOENT)
		return -ENODEV;	/* Linux's answer for a device not found: dmsetup prints it */
	if (IS_ERR(bdev))
		return (int)PTR_ERR(bdev);
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		blkdev_put(bdev);
		return -ENOMEM;
	}
	d->bdev = bdev;
	ti->table->features |= bdev_get_queue(bdev)->limits.features & BLK_FEAT_WRITE_CACHE;
	dm_table_note_device(ti->table, bdev->bd_dev);
	/* as Linux's dm_dev: its number, which is what tables print */
	snprintf(d->name, sizeof(d->name), "%u:%u", MAJOR(bdev->bd_dev), MINOR(bdev->bd_dev));
	*result = d;
	return 0;
}

void dm_put_device(struct dm_target *ti, struct dm_dev *d)
{
	if (!d)
		return;
	blkdev_put(d->bdev);
	kfree(d);
}
