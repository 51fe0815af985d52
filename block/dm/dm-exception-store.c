// SPDX-License-Identifier: MIT
/*
 * Choosing and sizing a snapshot's exception store (Linux:
 * drivers/md/dm-exception-store.c): the table's "P 8" or "N 16".
 */
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-exception-store.h"

int dm_exception_store_set_chunk_size(struct dm_exception_store *store, u32 chunk_size,
				      const char **error)
{
	if (!chunk_size || (chunk_size & (chunk_size - 1))) {
		*error = "Chunk size is not a power of 2";
		return -EINVAL;
	}
	if (chunk_size > DM_MAX_CHUNK_SECTORS) {
		*error = "Chunk size is too large (at most 2048 sectors here)";
		return -EINVAL;
	}
	if ((chunk_size << SECTOR_SHIFT) % bdev_logical_block_size(store->cow)) {
		*error = "Chunk size is not a multiple of device blocksize";
		return -EINVAL;
	}
	store->chunk_size = chunk_size;
	store->chunk_mask = chunk_size - 1;
	store->chunk_shift = (u32)__builtin_ctz(chunk_size);
	return 0;
}

int dm_exception_store_create(struct dm_target *ti, unsigned int argc, char **argv,
			      struct dm_snapshot *snap, struct block_device *cow,
			      unsigned int *args_used, struct dm_exception_store **out)
{
	struct dm_exception_store *store;
	u64 chunk_size;
	int r;

	if (argc < 2) {
		ti->error = "Insufficient exception store arguments";
		return -EINVAL;
	}
	store = kzalloc(sizeof(*store), GFP_KERNEL);
	if (!store) {
		ti->error = "Exception store allocation failed";
		return -ENOMEM;
	}
	if (!strcmp(argv[0], "P") || !strcmp(argv[0], "p")) {
		store->type = &dm_persistent_store;
	} else if (!strcmp(argv[0], "PO") || !strcmp(argv[0], "po")) {
		store->type = &dm_persistent_store;
		store->userspace_supports_overflow = true;
	} else if (!strcmp(argv[0], "N") || !strcmp(argv[0], "n")) {
		store->type = &dm_transient_store;
	} else {
		ti->error = "Exception store type is not P, PO or N";
		kfree(store);
		return -EINVAL;
	}
	store->snap = snap;
	store->cow = cow;
	if (kstrtou64(argv[1], 10, &chunk_size) || chunk_size > U32_MAX) {
		ti->error = "Invalid chunk size";
		kfree(store);
		return -EINVAL;
	}
	r = dm_exception_store_set_chunk_size(store, (u32)chunk_size, &ti->error);
	if (!r)
		r = store->type->ctr(store);
	if (r) {
		if (store->error)
			ti->error = store->error;
		kfree(store);
		return r;
	}
	*args_used = 2;
	*out = store;
	return 0;
}

void dm_exception_store_destroy(struct dm_exception_store *store)
{
	store->type->dtr(store);
	kfree(store);
}
