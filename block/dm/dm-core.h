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

#define DM_NAME_LEN 32
#define DM_MAX_TARGETS 64
#define DM_ERROR_LEN 128

struct dm_table {
	struct mapped_device *md;
	unsigned int num_targets;
	struct dm_target targets[DM_MAX_TARGETS];
	sector_t size;	/* the end of the last target */
	/* BLK_FEAT_WRITE_CACHE if some device the table uses has a volatile cache */
	unsigned int features;
};

struct mapped_device {
	char name[DM_NAME_LEN];
	struct gendisk *disk;		/* registered at the first resume */
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
struct dm_target *dm_table_find_target(struct dm_table *t, sector_t sector);
struct target_type *dm_get_target_type(const char *name);
void dm_for_each_target_type(void (*fn)(struct target_type *tt, void *arg), void *arg);

/* The built-in targets, registered on first use of the core. */
int dm_linear_init(void);
int dm_snapshot_init(void);

#endif
