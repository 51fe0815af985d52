/* SPDX-License-Identifier: MIT */
/*
 * The device-mapper target interface (Linux: include/linux/device-mapper.h).
 *
 * A mapped device (dm-0, dm-1...) is a bio-based disk whose sectors are
 * described by a table: lines of "<start> <length> <target> <args...>".
 * Each line is a dm_target; its target_type says how a bio landing in that
 * range is served. The core (block/dm/dm.c) cuts every incoming bio at
 * target boundaries and at the target's max_io_len, gives each piece (a
 * clone sharing the bio's pages) to ->map(), and finishes the original bio
 * when every clone has ended.
 *
 * ->map() returns
 *	DM_MAPIO_REMAPPED   the target changed bi_bdev/bi_sector: the core submits
 *	DM_MAPIO_SUBMITTED  the target owns the clone now (it submits or ends it)
 *	DM_MAPIO_KILL       end the clone with an I/O error
 */
#ifndef PAGODA_DEVICE_MAPPER_H
#define PAGODA_DEVICE_MAPPER_H

#include <pagoda/bio.h>
#include <pagoda/blkdev.h>
#include <pagoda/list.h>
#include <pagoda/printk.h>
#include <pagoda/types.h>

struct dm_target;
struct dm_table;
struct mapped_device;

typedef enum { STATUSTYPE_INFO, STATUSTYPE_TABLE } status_type_t;

enum {
	DM_MAPIO_SUBMITTED,
	DM_MAPIO_REMAPPED,
	DM_MAPIO_KILL,
};

typedef int (*dm_ctr_fn)(struct dm_target *ti, unsigned int argc, char **argv);
typedef void (*dm_dtr_fn)(struct dm_target *ti);
typedef int (*dm_map_fn)(struct dm_target *ti, struct bio *bio);
/* After a clone ended, before the original hears of it (may change *status). */
typedef void (*dm_endio_fn)(struct dm_target *ti, struct bio *bio, blk_status_t *status);
typedef void (*dm_status_fn)(struct dm_target *ti, status_type_t type, char *result,
			     unsigned int maxlen);
typedef int (*dm_message_fn)(struct dm_target *ti, unsigned int argc, char **argv,
			     char *result, unsigned int maxlen);
typedef void (*dm_suspend_fn)(struct dm_target *ti);
typedef int (*dm_preresume_fn)(struct dm_target *ti);

struct target_type {
	const char *name;
	unsigned int version[3];
	dm_ctr_fn ctr;
	dm_dtr_fn dtr;
	dm_map_fn map;
	dm_endio_fn end_io;
	dm_status_fn status;
	dm_message_fn message;
	dm_suspend_fn presuspend, postsuspend, resume;
	dm_preresume_fn preresume;
	struct list_head list;
};

struct dm_target {
	struct dm_table *table;
	struct target_type *type;
	sector_t begin, len;
	/* Clones never cross a multiple of this many sectors (0: no limit). */
	u32 max_io_len;
	void *private;
	/* Set by ->ctr() on failure: the reason, printed by dmsetup. */
	const char *error;
};

/* A device a table uses, opened once per target that names it. */
struct dm_dev {
	struct block_device *bdev;
	char name[BDEVNAME_SIZE]; /* "major:minor", as Linux's */
};

int dm_register_target(struct target_type *tt);
/*
 * Open the device a table line names: "nullb0", "/dev/nullb0", or a mapped
 * device as "/dev/mapper/NAME" or "dm-0". 0, or -ENODEV (Linux's) for none.
 */
int dm_get_device(struct dm_target *ti, const char *path, struct dm_dev **result);
void dm_put_device(struct dm_target *ti, struct dm_dev *d);

static inline sector_t dm_target_offset(struct dm_target *ti, sector_t sector)
{
	return sector - ti->begin;
}

/* Per-clone scratch space for the target (->map() to ->end_io()). */
#define DM_PER_BIO_DATA_SIZE 48
void *dm_per_bio_data(struct bio *bio);
/* ->map() takes only the first n sectors of this clone; the core maps the rest next. */
void dm_accept_partial_bio(struct bio *bio, unsigned int n_sectors);
struct dm_target *dm_bio_target(struct bio *bio);
/* Raise an event on the table's device (a snapshot became invalid): DM_DEV_WAIT wakes. */
void dm_table_event(struct dm_table *t);
/* The mapped device's disk name ("dm-0") of the table a target is in. */
const char *dm_table_device_name(struct dm_table *t);

/* Append to a status line: DMEMIT(fmt, ...) as Linux writes it. */
#define DMEMIT(...)                                                           \
	do {                                                                  \
		sz += snprintf(result + sz, sz < maxlen ? maxlen - sz : 0,    \
			       __VA_ARGS__);                                  \
	} while (0)

/* The kernel-side API dmsetup drives (block/dm/dm.c). */
int dm_create(const char *name, struct mapped_device **out);
struct mapped_device *dm_find(const char *name);
int dm_table_load(struct mapped_device *md, const char *text);
int dm_suspend(struct mapped_device *md);
int dm_resume(struct mapped_device *md);
int dm_remove(struct mapped_device *md);
int dm_status(struct mapped_device *md, status_type_t type, char *buf, size_t size);
int dm_message(struct mapped_device *md, unsigned int argc, char **argv, char *buf,
	       size_t size);
const char *dm_device_name(struct mapped_device *md);  /* "snap" */
const char *dm_disk_name(struct mapped_device *md);    /* "dm-0" */
bool dm_suspended(struct mapped_device *md);
bool dm_has_inactive_table(struct mapped_device *md);
void dm_for_each(void (*fn)(struct mapped_device *md, void *arg), void *arg);
/* Every target type this kernel has (`dmsetup targets`). */
void dm_list_targets(void (*fn)(struct target_type *tt, void *arg), void *arg);
/* For `dmsetup info`: its device number (0 before the first resume),
 * opens, and the live table's targets. */
dev_t dm_devt(struct mapped_device *md);
int dm_open_count(struct mapped_device *md);
unsigned int dm_num_targets(struct mapped_device *md);
/* Events raised on the device so far (dm_table_event()): `dmsetup info`'s "Event number". */
u32 dm_event_nr(struct mapped_device *md);
/* The last table load's error, for the user. */
const char *dm_last_error(void);

#endif
