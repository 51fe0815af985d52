// SPDX-License-Identifier: MIT
/*
 * The persistent exception store, "P" (Linux: dm-snap-persistent.c),
 * writing Linux's format (dm-snap-format.h) so a COW device moves between
 * Pagoda and Linux.
 *
 * The commit rule, which makes a crash safe: an exception's data chunk is
 * written first (by kcopyd, or by the snapshot write that covered the
 * whole chunk); only then is its record added to the current metadata
 * area, and the area is written with PREFLUSH (everything before it,
 * the data included, is on stable storage first) and FUA (the area itself
 * is). A crash before that leaves the old area: the exception never
 * happened and its write had not completed. Commits are batched as in
 * Linux: the area goes out when no other prepared exception is still
 * copying (or the area is full), and every caller waiting on it is told.
 *
 * When an area fills, the next one is zeroed on the disk before the full
 * one is written, so a reload always finds the end of the records.
 */
#include <pagoda/atomic.h>
#include <pagoda/mutex.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-exception-store.h"
#include "dm-trace.h"

struct commit_callback {
	void (*callback)(void *ctx, int success);
	void *ctx;
};

struct pstore {
	struct dm_exception_store *store;
	int valid;
	u32 exceptions_per_area;
	void *area;		/* the current metadata area, in memory */
	void *zero_area;
	chunk_t current_area;
	u32 current_committed;	/* records in the current area */
	chunk_t next_free;	/* the next data chunk to hand out */
	atomic_t pending_count;	/* prepared, not yet committed */
	struct mutex commit_lock;
	struct commit_callback *callbacks;	/* waiting for the area write */
	u32 callback_count;
};

static size_t chunk_bytes(struct pstore *ps)
{
	return (size_t)ps->store->chunk_size << SECTOR_SHIFT;
}

static chunk_t cow_chunks(struct pstore *ps)
{
	return bdev_nr_sectors(ps->store->cow) >> ps->store->chunk_shift;
}

static int chunk_io(struct pstore *ps, void *buf, chunk_t chunk, blk_opf_t opf)
{
	return blkdev_rw(ps->store->cow, opf, chunk_to_sector(ps->store, chunk), buf,
			 chunk_bytes(ps));
}

static int area_io(struct pstore *ps, blk_opf_t opf)
{
	return chunk_io(ps, ps->area,
			dm_snap_area_location(ps->exceptions_per_area, ps->current_area), opf);
}

static int zero_disk_area(struct pstore *ps, chunk_t area)
{
	chunk_t where = dm_snap_area_location(ps->exceptions_per_area, area);

	if (where >= cow_chunks(ps))
		return 0;	/* the device ends first: nothing to read back there */
	return chunk_io(ps, ps->zero_area, where, REQ_OP_WRITE | REQ_FUA);
}

static int write_header(struct pstore *ps)
{
	struct snap_disk_header h = {
		.magic = SNAP_MAGIC,
		.valid = (u32)ps->valid,
		.version = SNAPSHOT_DISK_VERSION,
		.chunk_size = ps->store->chunk_size,
	};

	memset(ps->area, 0, chunk_bytes(ps));
	dm_snap_header_encode(ps->area, &h);
	return chunk_io(ps, ps->area, 0, REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA);
}

static void skip_metadata(struct pstore *ps)
{
	if (dm_snap_is_metadata_chunk(ps->exceptions_per_area, ps->next_free))
		ps->next_free++;
}

static void free_area(struct pstore *ps)
{
	kfree(ps->area);
	kfree(ps->zero_area);
	kfree(ps->callbacks);
	ps->area = ps->zero_area = NULL;
	ps->callbacks = NULL;
}

static int alloc_area(struct pstore *ps)
{
	ps->exceptions_per_area = dm_snap_exceptions_per_area(ps->store->chunk_size);
	ps->area = kzalloc(chunk_bytes(ps), GFP_KERNEL);
	ps->zero_area = kzalloc(chunk_bytes(ps), GFP_KERNEL);
	ps->callbacks = kcalloc(ps->exceptions_per_area, sizeof(*ps->callbacks), GFP_KERNEL);
	if (!ps->area || !ps->zero_area || !ps->callbacks) {
		free_area(ps);
		return -ENOMEM;
	}
	return 0;
}

static int persistent_ctr(struct dm_exception_store *store)
{
	struct pstore *ps = kzalloc(sizeof(*ps), GFP_KERNEL);

	if (!ps)
		return -ENOMEM;
	ps->store = store;
	ps->valid = 1;
	ps->next_free = NUM_SNAPSHOT_HDR_CHUNKS + 1;
	atomic_set(&ps->pending_count, 0);
	mutex_init(&ps->commit_lock);
	if (alloc_area(ps)) {
		kfree(ps);
		return -ENOMEM;
	}
	store->context = ps;
	return 0;
}

static void persistent_dtr(struct dm_exception_store *store)
{
	struct pstore *ps = store->context;

	free_area(ps);
	kfree(ps);
}

static int read_chunk(void *io, chunk_t chunk, void *buf)
{
	return chunk_io(io, buf, chunk, REQ_OP_READ);
}

/* Every area's records, through the reader Linux's format defines (dm-snap-format.c). */
static int read_exceptions(struct pstore *ps,
			   int (*callback)(void *ctx, chunk_t old_chunk, chunk_t new_chunk),
			   void *ctx)
{
	struct dm_snap_reader r = {
		.read = read_chunk,
		.io = ps,
		.per_area = ps->exceptions_per_area,
		.cow_chunks = cow_chunks(ps),
	};
	int err;

	r.buf = kmalloc(chunk_bytes(ps), GFP_KERNEL);
	if (!r.buf)
		return -ENOMEM;
	err = dm_snap_read_exceptions(&r, callback, ctx, &ps->store->error);
	if (!err) {
		ps->current_area = r.current_area;
		ps->current_committed = r.current_committed;
		ps->next_free = r.next_free;
		/* The area the next record goes to, as it is on the disk. */
		if (r.current_committed)
			memcpy(ps->area, r.buf, chunk_bytes(ps));
		else
			memset(ps->area, 0, chunk_bytes(ps));
	}
	kfree(r.buf);
	return err;
}

static int persistent_read_metadata(struct dm_exception_store *store,
				    int (*callback)(void *ctx, chunk_t old_chunk,
						    chunk_t new_chunk),
				    void *ctx)
{
	struct pstore *ps = store->context;
	struct snap_disk_header h;
	int kind, r;

	r = blkdev_rw(store->cow, REQ_OP_READ, 0, ps->area, 512);
	if (r) {
		store->error = "Failed to read snapshot header";
		return r;
	}
	kind = dm_snap_header_decode(ps->area, 512, DM_MAX_CHUNK_SECTORS, &h, &store->error);
	if (kind < 0)
		return kind;
	if (kind == SNAP_HEADER_NEW) {
		if (cow_chunks(ps) < NUM_SNAPSHOT_HDR_CHUNKS + 2) {
			store->error = "COW device too small for a header, an area and a chunk";
			return -ENOSPC;
		}
		/* Area 0 empty first, then the header that makes it count. */
		r = zero_disk_area(ps, 0);
		if (!r)
			r = write_header(ps);
		memset(ps->area, 0, chunk_bytes(ps));
		if (r)
			store->error = "Failed to write a new snapshot header";
		return r;
	}
	if (h.chunk_size != store->chunk_size) {
		pr_warn("device-mapper: snapshots: chunk size %u in device metadata overrides "
			"table chunk size of %u\n", h.chunk_size, store->chunk_size);
		free_area(ps);
		r = dm_exception_store_set_chunk_size(store, h.chunk_size, &store->error);
		if (r || (r = alloc_area(ps)) != 0)
			return r;
	}
	if (kind == SNAP_HEADER_INVALID) {
		ps->valid = 0;
		return 1;
	}
	/*
	 * A valid header on a device that ends before its first area (cut
	 * short, or a header copied onto a smaller one): Linux fails that
	 * area's read. Refuse too, rather than load an empty store whose
	 * usage runs past the device's end. (Found by fuzz-dm-snap.)
	 */
	if (cow_chunks(ps) < NUM_SNAPSHOT_HDR_CHUNKS + 1) {
		store->error = "COW device ends before its first metadata area";
		return -EIO;
	}
	return read_exceptions(ps, callback, ctx);
}

static int persistent_prepare_exception(struct dm_exception_store *store,
					struct dm_exception *e)
{
	struct pstore *ps = store->context;

	if (bdev_nr_sectors(store->cow) < (ps->next_free + 1) * store->chunk_size)
		return -ENOSPC;
	e->new_chunk = ps->next_free;
	ps->next_free++;
	skip_metadata(ps);
	atomic_inc(&ps->pending_count);
	return 0;
}

static void persistent_commit_exception(struct dm_exception_store *store,
					struct dm_exception *e, int valid,
					void (*callback)(void *ctx, int success), void *ctx)
{
	struct pstore *ps = store->context;
	struct commit_callback *cbs;
	u32 n;
	bool full;
	int ok;

	mutex_lock(&ps->commit_lock);
	if (!valid)
		ps->valid = 0;
	else
		dm_snap_exception_encode(ps->area, ps->current_committed++, e->old_chunk,
					 e->new_chunk);
	ps->callbacks[ps->callback_count++] = (struct commit_callback){ callback, ctx };
	full = ps->current_committed == ps->exceptions_per_area;
	/* Others still copying will write the area for us all: batch. */
	if (!atomic_dec_and_test(&ps->pending_count) && !full &&
	    ps->callback_count < ps->exceptions_per_area) {
		mutex_unlock(&ps->commit_lock);
		return;
	}
	if (ps->valid && full && zero_disk_area(ps, ps->current_area + 1))
		ps->valid = 0;
	if (ps->valid) {
		if (area_io(ps, REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA))
			ps->valid = 0;
		/* One area write for every record that joined the batch. */
		store->metadata_writes++;
		store->exceptions_committed += ps->callback_count;
		dm_trace_metadata_write(ps->callback_count);
	}
	if (full) {
		ps->current_area++;
		ps->current_committed = 0;
		memset(ps->area, 0, chunk_bytes(ps));
	}
	/*
	 * The callbacks may sleep and take the snapshot's locks (and through
	 * an invalidation, this lock again): they run after it is dropped, on
	 * a copy of the list. Without memory for the copy, wait for some.
	 */
	n = ps->callback_count;
	while (!(cbs = kmalloc(n * sizeof(*cbs), GFP_KERNEL)))
		msleep(1);
	memcpy(cbs, ps->callbacks, n * sizeof(*cbs));
	ps->callback_count = 0;
	ok = ps->valid;
	mutex_unlock(&ps->commit_lock);
	for (u32 i = 0; i < n; i++)
		cbs[i].callback(cbs[i].ctx, ok);
	kfree(cbs);
}

static int persistent_prepare_merge(struct dm_exception_store *store, chunk_t *old_chunk,
				    chunk_t *new_chunk)
{
	struct pstore *ps = store->context;
	int r = 0;

	mutex_lock(&ps->commit_lock);
	if (!ps->current_committed) {
		if (!ps->current_area)
			goto out;	/* nothing left */
		ps->current_area--;
		r = area_io(ps, REQ_OP_READ);
		if (r)
			goto out;
		ps->current_committed = ps->exceptions_per_area;
	}
	dm_snap_exception_decode(ps->area, ps->current_committed - 1, old_chunk, new_chunk);
	r = 1;
out:
	mutex_unlock(&ps->commit_lock);
	return r;
}

static int persistent_commit_merge(struct dm_exception_store *store, int nr_merged)
{
	struct pstore *ps = store->context;
	int r;

	mutex_lock(&ps->commit_lock);
	for (int i = 0; i < nr_merged && ps->current_committed; i++)
		dm_snap_exception_encode(ps->area, --ps->current_committed, 0, 0);
	r = area_io(ps, REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA);
	ps->next_free = dm_snap_area_location(ps->exceptions_per_area, ps->current_area) +
			ps->current_committed + 1;
	mutex_unlock(&ps->commit_lock);
	return r;
}

static void persistent_drop_snapshot(struct dm_exception_store *store)
{
	struct pstore *ps = store->context;

	mutex_lock(&ps->commit_lock);
	ps->valid = 0;
	if (write_header(ps))
		pr_err("device-mapper: snapshots: could not mark the COW device invalid\n");
	memset(ps->area, 0, chunk_bytes(ps));	/* the header write used it */
	mutex_unlock(&ps->commit_lock);
}

static void persistent_usage(struct dm_exception_store *store, sector_t *total_sectors,
			     sector_t *sectors_allocated, sector_t *metadata_sectors)
{
	struct pstore *ps = store->context;

	*sectors_allocated = ps->next_free * store->chunk_size;
	*total_sectors = bdev_nr_sectors(store->cow);
	/* The header and every area up to the current one. */
	*metadata_sectors = (ps->current_area + 1 + NUM_SNAPSHOT_HDR_CHUNKS) * store->chunk_size;
}

static void persistent_status(struct dm_exception_store *store, status_type_t type,
			      char *result, unsigned int maxlen)
{
	unsigned int sz = 0;

	if (type == STATUSTYPE_TABLE)
		DMEMIT(" %s %u", store->userspace_supports_overflow ? "PO" : "P",
		       store->chunk_size);
}

const struct dm_exception_store_type dm_persistent_store = {
	.name = "persistent",
	.ctr = persistent_ctr,
	.dtr = persistent_dtr,
	.read_metadata = persistent_read_metadata,
	.prepare_exception = persistent_prepare_exception,
	.commit_exception = persistent_commit_exception,
	.prepare_merge = persistent_prepare_merge,
	.commit_merge = persistent_commit_merge,
	.drop_snapshot = persistent_drop_snapshot,
	.status = persistent_status,
	.usage = persistent_usage,
};
