/* SPDX-License-Identifier: MIT */
/*
 * kcopyd: copy a range of sectors from one device to another in the
 * background (Linux: drivers/md/dm-kcopyd.c, include/linux/dm-kcopyd.h).
 * The snapshot target copies a chunk out of the origin with it before the
 * origin may be written, and runs its commits in kcopyd's threads.
 */
#ifndef BLOCK_DM_KCOPYD_H
#define BLOCK_DM_KCOPYD_H

#include <pagoda/blkdev.h>

struct dm_io_region {
	struct block_device *bdev;
	sector_t sector;
	sector_t count;
};

/* read_err: the read failed; write_err: bit i set if dests[i] failed. */
typedef void (*dm_kcopyd_notify_fn)(int read_err, unsigned long write_err, void *context);

struct dm_kcopyd_client;

struct dm_kcopyd_client *dm_kcopyd_client_create(void);
/* Waits for the client's jobs to finish first. */
void dm_kcopyd_client_destroy(struct dm_kcopyd_client *kc);
/* Copy from into each of dests (at most 4, each as long), then fn in a kcopyd thread. */
int dm_kcopyd_copy(struct dm_kcopyd_client *kc, struct dm_io_region *from,
		   unsigned int num_dests, struct dm_io_region *dests, unsigned int flags,
		   dm_kcopyd_notify_fn fn, void *context);
#endif
