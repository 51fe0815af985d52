/* SPDX-License-Identifier: MIT */
/*
 * What the device-mapper core keeps about a mapped device and its tables
 * (Linux: drivers/md/dm-core.h). Targets never look in here; they see only
 * include/pagoda/device-mapper.h.
 */
#ifndef BLOCK_DM_CORE_H
#define BLOCK_DM_CORE_H

#include <pagoda/atomic.h>
#include <pagoda/device-mapper.h>
#include <pagoda/mutex.h>
#include <pagoda/wait.h>

#include <pagoda/dm-ioctl.h>

/* Linux's limits, so any name dmsetup takes there fits here */
#define DM_NAME_LEN DM_IOCTL_NAME_LEN
#define DM_MAX_TARGETS 64
#define DM_MAX_DEVICES 16
#define DM_ERROR_LEN 128

struct dm_table {
	struct mapped_device *md;
	unsigned int num_targets;
	struct dm_target targets[DM_MAX_TARGETS];
	sector_t size;	/* the end of the last target */
	/* BLK_FEAT_WRITE_CACHE if some device the table uses has a volatile cache */
	unsigned int features;
	/* The devices the targets opened, newest first (DM_TABLE_DEPS) */
	unsigned int num_devices;
	dev_t devices[DM_MAX_DEVICES];
};

struct mapped_device {
	char name[DM_NAME_LEN];
	char uuid[DM_UUID_LEN];		/* "" when none was given */
	struct gendisk *disk;		/* registered at the first table load */
	bool added;
	/* Serialises load, suspend, resume and remove of this device. */
	struct mutex suspend_lock;
	struct dm_table *map;		/* live: what bios are mapped through */
	struct dm_table *new_map;	/* inactive: loaded, takes over at resume */
	/*
	 * Suspend: new bios wait at the door, and suspend waits for
	 * `pending` (bios inside, including any a target holds) to reach 0.
	 */
	bool suspended;
	atomic_t pending;
	struct wait_queue_head wait;
	struct list_head list;		/* all mapped devices, by creation */
	/* Events a target raised (dm_table_event()); DM_DEV_WAIT waits on eventq */
	atomic_t event_nr;
	struct wait_queue_head eventq;
	/* DM_DEV_WAITs asleep on it; remove sets dying and waits them out */
	atomic_t holders;
	bool dying;
};

/* One original bio, split into clones. */
struct dm_io {
	struct mapped_device *md;
	struct bio *orig;
	atomic_t io_count;
	blk_status_t status;
};

/* One clone: what a target's ->map() is handed. */
struct dm_target_io {
	struct bio clone;
	struct dm_io *io;
	struct dm_target *ti;
	unsigned int *accepted;		/* only during ->map(): dm_accept_partial_bio */
	u64 per_bio_data[DM_PER_BIO_DATA_SIZE / 8];
};

/* dm-table.c */
struct dm_table *dm_table_create(struct mapped_device *md, const char *text, char *err,
				 size_t errlen);
void dm_table_destroy(struct dm_table *t);
/* A table built target by target (the ioctl's way): alloc, add..., complete. */
struct dm_table *dm_table_alloc(struct mapped_device *md);
int dm_table_add_target(struct dm_table *t, u64 start, u64 len, const char *type,
			char *params, char *err, size_t errlen);
int dm_table_complete(struct dm_table *t, char *err, size_t errlen);
void dm_table_note_device(struct dm_table *t, dev_t dev);
struct dm_target *dm_table_find_target(struct dm_table *t, sector_t sector);
struct target_type *dm_get_target_type(const char *name);
void dm_for_each_target_type(void (*fn)(struct target_type *tt, void *arg), void *arg);

/* dm.c, for dm-ioctl.c: everything under dm_devices_lock where it walks the list */
extern struct mutex dm_devices_lock;
extern struct list_head dm_devices;
void dm_init_once(void);
struct mapped_device *__dm_find(const char *name);
struct mapped_device *__dm_find_uuid(const char *uuid);
struct mapped_device *__dm_find_devt(dev_t dev);
int __dm_create(const char *name, int minor, struct mapped_device **out);
int __dm_remove(struct mapped_device *md);
/* Install a built table as md's inactive one (replacing any). */
int dm_table_install(struct mapped_device *md, struct dm_table *t);
void dm_table_clear(struct mapped_device *md);
int dm_rename(struct mapped_device *md, const char *new_name);
int dm_set_uuid(struct mapped_device *md, const char *uuid);
int dm_target_message(struct mapped_device *md, u64 sector, unsigned int argc, char **argv,
		      char *buf, size_t size);

/* The built-in targets, registered on first use of the core. */
int dm_linear_init(void);
int dm_snapshot_init(void);

#endif
