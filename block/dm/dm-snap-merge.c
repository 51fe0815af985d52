// SPDX-License-Identifier: MIT
/*
 * snapshot-merge (Linux: the merge half of drivers/md/dm-snap.c): roll the
 * origin back to a snapshot by copying every exception's chunk from the
 * COW device back to the origin, while the device stays in use.
 *
 *	<start> <len> snapshot-merge <origin> <COW> P <chunk_size>
 *
 * The table replaces the origin's snapshot-origin table (the snapshot's own
 * device removed first). Until a chunk is merged, I/O to it goes to the
 * COW device, so the device already reads as the snapshot; I/O to a chunk
 * without an exception goes to the origin. A thread takes the store's last
 * exception, holds new I/O to that chunk and waits out what is in flight,
 * copies it back, flushes the origin, and only then drops the record
 * (commit_merge) and the exception: a crash in between merely copies the
 * chunk again. When no exception is left, status reads "N/M N" (allocated
 * equals metadata): then the user swaps in snapshot-origin or linear.
 * Not here: merging one chunk at a time only (Linux batches consecutive
 * ones), and other snapshots of the same origin are not given copies of
 * what the merge overwrites.
 */
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>

#include "dm-core.h"
#include "dm-snap.h"

static int merge_one(struct dm_snapshot *s, chunk_t old_chunk, chunk_t new_chunk, void *buf)
{
	struct dm_exception_store *store = s->store;
	sector_t from = chunk_to_sector(store, new_chunk), to = chunk_to_sector(store, old_chunk);
	sector_t n = MIN((sector_t)store->chunk_size, bdev_nr_sectors(s->origin->bdev) - to);
	struct dm_exception *e;
	int r;

	snap_lock_write(s);
	s->merging_chunk = old_chunk;
	WRITE_ONCE(s->merging, true);
	snap_unlock_write(s);
	while (snap_chunk_is_tracked(s, old_chunk))
		msleep(1);

	r = blkdev_rw(s->cow->bdev, REQ_OP_READ, from, buf, n << SECTOR_SHIFT);
	if (!r)
		r = blkdev_rw(s->origin->bdev, REQ_OP_WRITE | REQ_FUA, to, buf, n << SECTOR_SHIFT);
	if (!r)
		r = store->type->commit_merge(store, 1);

	snap_lock_write(s);
	if (!r) {
		e = dm_lookup_exception(&s->complete, old_chunk);
		if (e) {
			dm_remove_exception(e);
			kfree(e);
		}
		s->merged_chunks++;
	}
	WRITE_ONCE(s->merging, false);
	snap_unlock_write(s);
	return r;
}

static int merge_thread(void *arg)
{
	struct dm_snapshot *s = arg;
	void *buf = kmalloc((size_t)s->store->chunk_size << SECTOR_SHIFT, GFP_KERNEL);
	chunk_t old_chunk, new_chunk;
	int r = buf ? 0 : -ENOMEM;

	while (!r && !READ_ONCE(s->merge_stop)) {
		r = s->store->type->prepare_merge(s->store, &old_chunk, &new_chunk);
		if (r <= 0)
			break;
		r = merge_one(s, old_chunk, new_chunk, buf);
	}
	if (r < 0) {
		pr_err("device-mapper: snapshots: merge failed (%d)\n", r);
		snap_lock_write(s);
		s->merge_failed = true;
		snap_unlock_write(s);
	}
	kfree(buf);
	return 0;
}

int snapshot_merge_start(struct dm_snapshot *s)
{
	if (s->merge_task || !s->valid || !s->store->type->prepare_merge)
		return 0;
	s->merge_stop = false;
	s->merge_task = kthread_run(merge_thread, s, "kdmsnapmerge");
	return s->merge_task ? 0 : -ENOMEM;
}

void snapshot_merge_stop(struct dm_snapshot *s)
{
	if (!s->merge_task)
		return;
	WRITE_ONCE(s->merge_stop, true);
	kthread_join(s->merge_task);
	s->merge_task = NULL;
}

int snapshot_merge_map(struct dm_target *ti, struct bio *bio)
{
	struct dm_snapshot *s = ti->private;
	struct dm_exception *e;
	chunk_t chunk;

	dm_snap_track_init(bio);
	bio->bi_bdev = s->origin->bdev;
	if (!bio_sectors(bio))
		return DM_MAPIO_REMAPPED;
	bio->bi_iter.bi_sector = dm_target_offset(ti, bio->bi_iter.bi_sector);
	chunk = sector_to_chunk(s->store, bio->bi_iter.bi_sector);
	for (;;) {
		snap_lock_write(s);
		if (!(READ_ONCE(s->merging) && s->merging_chunk == chunk))
			break;
		/* That chunk is being copied back right now: wait for it. */
		snap_unlock_write(s);
		msleep(1);
	}
	e = s->valid ? dm_lookup_exception(&s->complete, chunk) : NULL;
	if (e) {
		/* Not merged yet: the COW device has the snapshot's data. */
		bio->bi_bdev = s->cow->bdev;
		bio->bi_iter.bi_sector = chunk_to_sector(s->store, e->new_chunk) +
					 (bio->bi_iter.bi_sector & s->store->chunk_mask);
		dm_snap_track(s, bio, chunk);
	}
	snap_unlock_write(s);
	return DM_MAPIO_REMAPPED;
}
