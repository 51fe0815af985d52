/* SPDX-License-Identifier: MIT */
/*
 * Exception stores (Linux: drivers/md/dm-exception-store.h): where a
 * snapshot keeps its copied chunks and the map old_chunk -> new_chunk.
 * "P" (dm-snap-persistent.c) writes Linux's on-disk format and survives a
 * reboot; "N" (dm-snap-transient.c) keeps the map in memory only.
 */
#ifndef BLOCK_DM_EXCEPTION_STORE_H
#define BLOCK_DM_EXCEPTION_STORE_H

#include <pagoda/device-mapper.h>
#include <pagoda/list_bl.h>

#include "dm-snap-format.h"

/* One remapped chunk: old_chunk of the origin lives at new_chunk of the COW. */
struct dm_exception {
	struct hlist_bl_node hash_list;
	chunk_t old_chunk;
	chunk_t new_chunk;
};

struct dm_exception_store;
struct dm_snapshot;

struct dm_exception_store_type {
	const char *name;
	int (*ctr)(struct dm_exception_store *store);
	void (*dtr)(struct dm_exception_store *store);
	/*
	 * Load what is on the COW device, calling callback per exception:
	 * < 0 refused (store->error says why), 0 valid, 1 marked invalid.
	 */
	int (*read_metadata)(struct dm_exception_store *store,
			     int (*callback)(void *ctx, chunk_t old_chunk, chunk_t new_chunk),
			     void *ctx);
	/* Pick e->new_chunk; -ENOSPC when the COW device is full. Never sleeps. */
	int (*prepare_exception)(struct dm_exception_store *store, struct dm_exception *e);
	/* Make e durable (data already written), then callback(ctx, success). */
	void (*commit_exception)(struct dm_exception_store *store, struct dm_exception *e,
				 int valid, void (*callback)(void *ctx, int success), void *ctx);
	/* Merging: the last committed exception, to copy back (0: none left). */
	int (*prepare_merge)(struct dm_exception_store *store, chunk_t *old_chunk,
			     chunk_t *new_chunk);
	/* ...and forget the last nr_merged, durably. */
	int (*commit_merge)(struct dm_exception_store *store, int nr_merged);
	/* The snapshot became invalid: say so on the disk. */
	void (*drop_snapshot)(struct dm_exception_store *store);
	void (*status)(struct dm_exception_store *store, status_type_t type, char *result,
		       unsigned int maxlen);
	void (*usage)(struct dm_exception_store *store, sector_t *total_sectors,
		      sector_t *sectors_allocated, sector_t *metadata_sectors);
};

struct dm_exception_store {
	const struct dm_exception_store_type *type;
	struct dm_snapshot *snap;
	struct block_device *cow;
	u32 chunk_size;		/* sectors, a power of two */
	u32 chunk_mask;
	u32 chunk_shift;
	bool userspace_supports_overflow;	/* "PO" */
	const char *error;
	void *context;
	/* persistent store: area writes, and the records they carried (batching) */
	u64 metadata_writes;
	u64 exceptions_committed;
};

#define DM_MAX_CHUNK_SECTORS 2048U	/* 1 MiB */

static inline chunk_t sector_to_chunk(struct dm_exception_store *store, sector_t sector)
{
	return sector >> store->chunk_shift;
}

static inline sector_t chunk_to_sector(struct dm_exception_store *store, chunk_t chunk)
{
	return chunk << store->chunk_shift;
}

int dm_exception_store_set_chunk_size(struct dm_exception_store *store, u32 chunk_size,
				      const char **error);
/*
 * Parse "<P|PO|N> <chunk_size>" from a snapshot table line: the store,
 * and how many arguments it took.
 */
int dm_exception_store_create(struct dm_target *ti, unsigned int argc, char **argv,
			      struct dm_snapshot *snap, struct block_device *cow,
			      unsigned int *args_used, struct dm_exception_store **store);
void dm_exception_store_destroy(struct dm_exception_store *store);

extern const struct dm_exception_store_type dm_persistent_store;
extern const struct dm_exception_store_type dm_transient_store;

#endif
