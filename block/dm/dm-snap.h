/* SPDX-License-Identifier: MIT */
/*
 * A snapshot's state and its two locking schemes (see dm-snap.c).
 */
#ifndef BLOCK_DM_SNAP_H
#define BLOCK_DM_SNAP_H

#include <pagoda/atomic.h>
#include <pagoda/mutex.h>
#include <pagoda/rwsem.h>
#include <pagoda/spinlock.h>
#include <pagoda/workqueue.h>

#include "dm-exception-store.h"
#include "dm-kcopyd.h"

struct dm_exception_table {
	u32 hash_mask;
	struct hlist_bl_head *table;
};

#define DM_TRACKED_CHUNK_HASH_SIZE 16

struct dm_snapshot {
	/*
	 * locking=fine (the seed's "after"): lock is a read-write semaphore
	 * over the mostly-read fields (valid, active...), taken for reading
	 * on every I/O; each exception-table bucket has its own bit spinlock;
	 * pe_allocation_lock orders COW allocation.
	 * locking=mutex (the seed's "before"): mutex alone serialises all of
	 * it, the exception tables included; the bucket locks are not taken.
	 */
	bool fine;
	struct rw_semaphore lock;
	struct mutex mutex;
	spinlock_t pe_allocation_lock;

	struct dm_target *ti;
	struct dm_dev *origin;
	struct dm_dev *cow;
	struct list_head list;		/* on its origin's list of snapshots */

	int valid;
	bool active;			/* resumed once: origin writes now copy for it */
	bool snapshot_overflowed;	/* "PO" and full: writes fail, reads work */
	bool merge_failed;

	atomic_t pending_exceptions_count;
	struct dm_exception_table pending;
	struct dm_exception_table complete;
	struct dm_exception_store *store;
	struct dm_kcopyd_client *kcopyd_client;

	/* Snapshot reads sent to the origin, not yet finished. */
	spinlock_t tracked_chunk_lock;
	struct list_head tracked_chunk_hash[DM_TRACKED_CHUNK_HASH_SIZE];

	/* snapshot-merge */
	bool is_merge;
	struct task *merge_task;
	bool merge_stop;
	bool merging;			/* merging_chunk is being copied back */
	chunk_t merging_chunk;
	u64 merged_chunks;
};

/* Lock waits of both schemes, for `bench dmsnap` (bit spinlocks have no lockstat). */
extern atomic64_t dm_snap_lock_wait_ns, dm_snap_lock_waits;

/* dm-snap-merge.c */
int snapshot_merge_start(struct dm_snapshot *s);
void snapshot_merge_stop(struct dm_snapshot *s);
int snapshot_merge_map(struct dm_target *ti, struct bio *bio);
/* dm-snap.c, for the merge */
void snap_lock_write(struct dm_snapshot *s);
void snap_unlock_write(struct dm_snapshot *s);
struct dm_exception *dm_lookup_exception(struct dm_exception_table *et, chunk_t chunk);
void dm_remove_exception(struct dm_exception *e);
bool snap_chunk_is_tracked(struct dm_snapshot *s, chunk_t chunk);
void dm_snap_track_init(struct bio *bio);
void dm_snap_track(struct dm_snapshot *s, struct bio *bio, chunk_t chunk);

#endif
