// SPDX-License-Identifier: MIT
/*
 * The transient exception store, "N" (Linux: dm-snap-transient.c): COW
 * chunks are handed out from the start of the device and the map lives
 * only in the snapshot's memory. Nothing survives a reboot, so a commit
 * has nothing to write.
 */
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-exception-store.h"

struct transient_c {
	sector_t next_free;
};

static int transient_ctr(struct dm_exception_store *store)
{
	struct transient_c *tc = kzalloc(sizeof(*tc), GFP_KERNEL);

	if (!tc)
		return -ENOMEM;
	store->context = tc;
	return 0;
}

static void transient_dtr(struct dm_exception_store *store)
{
	kfree(store->context);
}

static int transient_read_metadata(struct dm_exception_store *store,
				   int (*callback)(void *ctx, chunk_t old_chunk,
						   chunk_t new_chunk),
				   void *ctx)
{
	return 0;
}

static int transient_prepare_exception(struct dm_exception_store *store,
				       struct dm_exception *e)
{
	struct transient_c *tc = store->context;

	if (bdev_nr_sectors(store->cow) < tc->next_free + store->chunk_size)
		return -ENOSPC;
	e->new_chunk = sector_to_chunk(store, tc->next_free);
	tc->next_free += store->chunk_size;
	return 0;
}

static void transient_commit_exception(struct dm_exception_store *store,
				       struct dm_exception *e, int valid,
				       void (*callback)(void *ctx, int success), void *ctx)
{
	callback(ctx, valid);
}

static void transient_drop_snapshot(struct dm_exception_store *store)
{
}

static void transient_usage(struct dm_exception_store *store, sector_t *total_sectors,
			    sector_t *sectors_allocated, sector_t *metadata_sectors)
{
	struct transient_c *tc = store->context;

	*total_sectors = bdev_nr_sectors(store->cow);
	*sectors_allocated = tc->next_free;
	*metadata_sectors = 0;
}

static void transient_status(struct dm_exception_store *store, status_type_t type,
			     char *result, unsigned int maxlen)
{
	unsigned int sz = 0;

	if (type == STATUSTYPE_TABLE)
		DMEMIT(" N %u", store->chunk_size);
}

const struct dm_exception_store_type dm_transient_store = {
	.name = "transient",
	.ctr = transient_ctr,
	.dtr = transient_dtr,
	.read_metadata = transient_read_metadata,
	.prepare_exception = transient_prepare_exception,
	.commit_exception = transient_commit_exception,
	.drop_snapshot = transient_drop_snapshot,
	.status = transient_status,
	.usage = transient_usage,
};
