// SPDX-License-Identifier: MIT
/*
 * dm-snapshot (Linux: drivers/md/dm-snap.c): the snapshot-origin and
 * snapshot targets.
 *
 *	<start> <len> snapshot-origin <origin>
 *	<start> <len> snapshot <origin> <COW> <P|PO|N> <chunk_size>
 *
 * A snapshot is the origin frozen at the moment it was made. Nothing is
 * copied then; instead, the first write to each chunk of the origin (made
 * through snapshot-origin) first copies that chunk's old contents to the
 * COW device, for every snapshot of the origin, and waits for the copy to
 * be committed. The snapshot's map of copied chunks, old_chunk ->
 * new_chunk, is its exception table ("complete"); copies in flight are
 * "pending" exceptions. So a snapshot read goes to the COW device when its
 * chunk has an exception and to the origin otherwise; a snapshot write
 * goes to the COW device, after copying the rest of the chunk unless it
 * covers the whole chunk.
 *
 * The seed (Nikos Tsironis, "dm snapshot: Improve performance using a more
 * fine-grained locking scheme", 2019) replaced one mutex that serialised
 * all of this with a read-write semaphore, a bit spinlock per hash bucket
 * of both exception tables and a spinlock for COW allocation; pending
 * completion no longer sleeps with a lock held. Both schemes are here,
 * chosen per snapshot when its table is loaded:
 *
 *	dm_snapshot.locking=fine|mutex    (default fine)
 */
#include <pagoda/arch.h>
#include <pagoda/err.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/vmalloc.h>

#include "dm-core.h"
#include "dm-snap.h"
#include "dm-trace.h"

static int locking_mode = 1;
static const char *const locking_names[] = { "mutex", "fine", NULL };
PARAM_ENUM("dm_snapshot.locking", locking_mode, locking_names,
	   "dm-snapshot locking: fine (rw semaphore + per-bucket bit locks) or mutex (one lock)");

atomic64_t dm_snap_lock_wait_ns, dm_snap_lock_waits;

/* --------------------------------------------------------------- locking */

static void account_wait(u64 t0)
{
	atomic64_add((s64)(ktime_get_ns() - t0), &dm_snap_lock_wait_ns);
	atomic64_inc(&dm_snap_lock_waits);
}

static bool snap_trylock(struct dm_snapshot *s, bool write)
{
	if (!s->fine)
		return mutex_trylock(&s->mutex);
	return write ? down_write_trylock(&s->lock) : down_read_trylock(&s->lock);
}

/*
 * Under "fine" readers share the rw semaphore and writers have it alone;
 * under "mutex" both take the one mutex. A try comes first so that only a
 * real wait is timed into dm_snap_lock_wait_ns.
 */
static void snap_lock(struct dm_snapshot *s, bool write)
{
	u64 t0;

	if (snap_trylock(s, write))
		return;
	t0 = ktime_get_ns();
	if (!s->fine)
		mutex_lock(&s->mutex);
	else if (write)
		down_write(&s->lock);
	else
		down_read(&s->lock);
	account_wait(t0);
}

static void snap_lock_read(struct dm_snapshot *s)
{
	snap_lock(s, false);
}

static void snap_unlock_read(struct dm_snapshot *s)
{
	if (s->fine)
		up_read(&s->lock);
	else
		mutex_unlock(&s->mutex);
}

void snap_lock_write(struct dm_snapshot *s)
{
	snap_lock(s, true);
}

void snap_unlock_write(struct dm_snapshot *s)
{
	if (s->fine)
		up_write(&s->lock);
	else
		mutex_unlock(&s->mutex);
}

/* The two buckets a chunk hashes to, locked together (complete first). */
struct dm_exception_table_lock {
	struct hlist_bl_head *complete_slot;
	struct hlist_bl_head *pending_slot;
};

static u32 exception_hash(struct dm_exception_table *et, chunk_t chunk)
{
	return (u32)(chunk & et->hash_mask);
}

static void dm_exception_table_lock_init(struct dm_snapshot *s, chunk_t chunk,
					 struct dm_exception_table_lock *lock)
{
	lock->complete_slot = &s->complete.table[exception_hash(&s->complete, chunk)];
	lock->pending_slot = &s->pending.table[exception_hash(&s->pending, chunk)];
}

static void bucket_lock(struct hlist_bl_head *h)
{
	u64 t0;

	if (bit_spin_trylock(0, (unsigned long *)h))
		return;
	t0 = ktime_get_ns();
	hlist_bl_lock(h);
	account_wait(t0);
}

static void table_lock(struct dm_snapshot *s, struct dm_exception_table_lock *lock)
{
	/* Under the mutex scheme the mutex already covers the tables. */
	if (!s->fine)
		return;
	bucket_lock(lock->complete_slot);
	bucket_lock(lock->pending_slot);
}

static void table_unlock(struct dm_snapshot *s, struct dm_exception_table_lock *lock)
{
	if (!s->fine)
		return;
	hlist_bl_unlock(lock->pending_slot);
	hlist_bl_unlock(lock->complete_slot);
}

/*
 * Under the fine scheme a bucket changes only with its bit lock held
 * (Linux asserts the same in hlist_bl_set_first() under DEBUG_LIST). A
 * bucket changed unlocked corrupts its list only when two CPUs meet in it,
 * which a test may never see; this stops the kernel at the first change.
 */
static void assert_bucket_locked(struct dm_snapshot *s, struct dm_exception_table *et,
				 chunk_t chunk)
{
	if (s->fine)
		BUG_ON(!hlist_bl_is_locked(&et->table[exception_hash(et, chunk)]));
}

/* ------------------------------------------------------ exception tables */

static int dm_exception_table_init(struct dm_exception_table *et, u32 size)
{
	et->hash_mask = size - 1;
	et->table = vzalloc(size * sizeof(*et->table));
	return et->table ? 0 : -ENOMEM;
}

static void dm_exception_table_exit(struct dm_exception_table *et)
{
	if (!et->table)
		return;
	for (u32 i = 0; i <= et->hash_mask; i++) {
		struct hlist_bl_node *pos, *n;
		struct dm_exception *e;

		hlist_bl_for_each_entry_safe(e, pos, n, &et->table[i], hash_list)
			kfree(e);
	}
	vfree(et->table);
	et->table = NULL;
}

struct dm_exception *dm_lookup_exception(struct dm_exception_table *et, chunk_t chunk)
{
	struct hlist_bl_node *pos;
	struct dm_exception *e;

	hlist_bl_for_each_entry(e, pos, &et->table[exception_hash(et, chunk)], hash_list)
		if (e->old_chunk == chunk)
			return e;
	return NULL;
}

static void dm_insert_exception(struct dm_exception_table *et, struct dm_exception *e)
{
	hlist_bl_add_head(&e->hash_list, &et->table[exception_hash(et, e->old_chunk)]);
}

void dm_remove_exception(struct dm_exception *e)
{
	hlist_bl_del(&e->hash_list);
}

/* Buckets: about one per 8 chunks the snapshot could hold, within [64, 2^17]. */
static int init_hash_tables(struct dm_snapshot *s)
{
	sector_t size = MIN(bdev_nr_sectors(s->origin->bdev), bdev_nr_sectors(s->cow->bdev));
	u64 chunks = size >> s->store->chunk_shift, buckets = 64;

	while (buckets < (1U << 17) && buckets * 8 < chunks)
		buckets <<= 1;
	if (dm_exception_table_init(&s->complete, (u32)buckets))
		return -ENOMEM;
	return dm_exception_table_init(&s->pending, (u32)MAX(buckets >> 3, 64ULL));
}

static int dm_add_exception(void *ctx, chunk_t old_chunk, chunk_t new_chunk)
{
	struct dm_snapshot *s = ctx;
	struct dm_exception *e = kmalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return -ENOMEM;
	e->old_chunk = old_chunk;
	e->new_chunk = new_chunk;
	/* Table load: nothing else sees this snapshot yet. */
	dm_insert_exception(&s->complete, e);
	return 0;
}

/* --------------------------------------------------- pending exceptions */

struct dm_snap_pending_exception {
	struct dm_exception e;
	struct bio_list origin_bios;	/* origin writes waiting for this copy */
	struct bio_list snapshot_bios;	/* snapshot writes waiting for it */
	struct dm_snapshot *snap;
	bool started;
	/* A snapshot write covering the whole chunk is the copy itself. */
	struct bio *full_bio;
	bio_end_io_t *full_bio_end_io;
	void *full_bio_private;
	int full_bio_error;
	struct work_struct work;
	/* arch_cycles() stamps for the step trace (dm-trace.h); 0: not timed */
	u64 t_arrive, t_commit, t_committed;
};

static struct dm_snap_pending_exception *alloc_pending_exception(struct dm_snapshot *s)
{
	struct dm_snap_pending_exception *pe = kzalloc(sizeof(*pe), GFP_KERNEL);

	if (pe) {
		pe->snap = s;
		atomic_inc(&s->pending_exceptions_count);
	}
	return pe;
}

static void free_pending_exception(struct dm_snap_pending_exception *pe)
{
	struct dm_snapshot *s = pe->snap;

	kfree(pe);
	atomic_dec(&s->pending_exceptions_count);
}

static struct dm_snap_pending_exception *__lookup_pending_exception(struct dm_snapshot *s,
								    chunk_t chunk)
{
	struct dm_exception *e = dm_lookup_exception(&s->pending, chunk);

	return e ? container_of(e, struct dm_snap_pending_exception, e) : NULL;
}

/*
 * Give pe its COW chunk and make it visible. Bucket locks held; the COW
 * allocation has its own spinlock so two buckets never hand out one chunk.
 * NULL (pe freed) when the COW device is full.
 */
static struct dm_snap_pending_exception *
__insert_pending_exception(struct dm_snapshot *s, struct dm_snap_pending_exception *pe,
			   chunk_t chunk)
{
	int r;

	pe->e.old_chunk = chunk;
	spin_lock(&s->pe_allocation_lock);
	r = s->store->type->prepare_exception(s->store, &pe->e);
	spin_unlock(&s->pe_allocation_lock);
	if (r) {
		free_pending_exception(pe);
		return NULL;
	}
	assert_bucket_locked(s, &s->pending, chunk);
	dm_insert_exception(&s->pending, &pe->e);
	return pe;
}

static void __invalidate_snapshot(struct dm_snapshot *s, int err)
{
	if (!s->valid)
		return;
	if (err == -EIO)
		pr_err("device-mapper: snapshots: Invalidating snapshot: Error reading/writing.\n");
	else
		pr_err("device-mapper: snapshots: Invalidating snapshot: Unable to allocate "
		       "exception.\n");
	s->valid = 0;
	s->store->type->drop_snapshot(s->store);
	dm_table_event(s->ti->table);	/* `dmsetup wait` hears of it */
}

static void invalidate_snapshot(struct dm_snapshot *s, int err)
{
	snap_lock_write(s);
	__invalidate_snapshot(s, err);
	snap_unlock_write(s);
}

/* -------------------------------------------------------- tracked reads */

struct dm_snap_tracked_chunk {
	struct list_head node;
	chunk_t chunk;
	bool tracked;
};

static void track_chunk(struct dm_snapshot *s, struct bio *bio, chunk_t chunk)
{
	struct dm_snap_tracked_chunk *c = dm_per_bio_data(bio);
	unsigned long flags;

	c->chunk = chunk;
	c->tracked = true;
	spin_lock_irqsave(&s->tracked_chunk_lock, flags);
	list_add(&c->node, &s->tracked_chunk_hash[chunk % DM_TRACKED_CHUNK_HASH_SIZE]);
	spin_unlock_irqrestore(&s->tracked_chunk_lock, flags);
}

static void stop_tracking_chunk(struct dm_snapshot *s, struct bio *bio)
{
	struct dm_snap_tracked_chunk *c = dm_per_bio_data(bio);
	unsigned long flags;

	if (!c->tracked)
		return;
	spin_lock_irqsave(&s->tracked_chunk_lock, flags);
	list_del(&c->node);
	spin_unlock_irqrestore(&s->tracked_chunk_lock, flags);
	c->tracked = false;
}

bool snap_chunk_is_tracked(struct dm_snapshot *s, chunk_t chunk)
{
	struct dm_snap_tracked_chunk *c;
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&s->tracked_chunk_lock, flags);
	list_for_each_entry(c, &s->tracked_chunk_hash[chunk % DM_TRACKED_CHUNK_HASH_SIZE], node)
		if (c->chunk == chunk) {
			found = true;
			break;
		}
	spin_unlock_irqrestore(&s->tracked_chunk_lock, flags);
	return found;
}

/* --------------------------------------------------------------- origins */

/* Every snapshot of one origin device, whether or not an origin target exists. */
struct origin {
	struct block_device *bdev;
	struct list_head hash_list;
	struct list_head snapshots;
};

static DECLARE_RWSEM(_origins_lock);
static LIST_HEAD(_origins);

static struct origin *__lookup_origin(struct block_device *bdev)
{
	struct origin *o;

	list_for_each_entry(o, &_origins, hash_list)
		if (o->bdev == bdev)
			return o;
	return NULL;
}

static int register_snapshot(struct dm_snapshot *s)
{
	struct origin *o;

	down_write(&_origins_lock);
	o = __lookup_origin(s->origin->bdev);
	if (!o) {
		o = kzalloc(sizeof(*o), GFP_KERNEL);
		if (!o) {
			up_write(&_origins_lock);
			return -ENOMEM;
		}
		o->bdev = s->origin->bdev;
		INIT_LIST_HEAD(&o->snapshots);
		list_add_tail(&o->hash_list, &_origins);
	}
	list_add_tail(&s->list, &o->snapshots);
	up_write(&_origins_lock);
	return 0;
}

static void unregister_snapshot(struct dm_snapshot *s)
{
	struct origin *o;

	down_write(&_origins_lock);
	o = __lookup_origin(s->origin->bdev);
	list_del(&s->list);
	if (o && list_empty(&o->snapshots)) {
		list_del(&o->hash_list);
		kfree(o);
	}
	up_write(&_origins_lock);
}

/* The smallest chunk of any snapshot of o: origin writes are cut to it. */
static u32 origin_split_boundary(struct origin *o)
{
	struct dm_snapshot *s;
	u32 min = 0;

	list_for_each_entry(s, &o->snapshots, list)
		if (!min || s->store->chunk_size < min)
			min = s->store->chunk_size;
	return min;
}

/* ------------------------------------------------------------- copying */

static void retry_origin_bios(struct dm_snapshot *s, struct bio_list *bl);

/*
 * The copy (or the full-chunk write) and its commit are done: make the
 * exception complete and let the bios that waited for it go. Runs in a
 * kcopyd thread. Under the fine scheme it never sleeps holding a lock:
 * the completed exception is allocated first, and the wait for snapshot
 * reads still reading the old chunk from the origin happens unlocked.
 */
static void pending_complete(void *context, int success)
{
	struct dm_snap_pending_exception *pe = context;
	struct dm_snapshot *s = pe->snap;
	struct dm_exception_table_lock lock;
	struct bio_list origin_bios, snapshot_bios;
	struct bio *full = pe->full_bio, *bio;
	struct dm_exception *e = NULL;
	bool error = !success;

	pe->t_committed = dm_trace_step(DM_TRACE_COMMIT, pe->t_commit);
	dm_exception_table_lock_init(s, pe->e.old_chunk, &lock);
	if (error) {
		invalidate_snapshot(s, -EIO);
	} else {
		e = kmalloc(sizeof(*e), GFP_KERNEL);
		if (!e) {
			invalidate_snapshot(s, -ENOMEM);
			error = true;
		}
	}

	snap_lock_read(s);
	table_lock(s, &lock);
	if (!error && s->valid) {
		/* From here on snapshot reads of this chunk go to the COW device. */
		e->old_chunk = pe->e.old_chunk;
		e->new_chunk = pe->e.new_chunk;
		assert_bucket_locked(s, &s->complete, e->old_chunk);
		dm_insert_exception(&s->complete, e);
		e = NULL;
	} else {
		error = true;
	}
	table_unlock(s, &lock);
	snap_unlock_read(s);
	kfree(e);

	/*
	 * Snapshot reads mapped to the origin before that must finish before
	 * the origin writes held by pe may overwrite the chunk.
	 */
	while (snap_chunk_is_tracked(s, pe->e.old_chunk))
		msleep(1);

	snap_lock_read(s);
	table_lock(s, &lock);
	assert_bucket_locked(s, &s->pending, pe->e.old_chunk);
	dm_remove_exception(&pe->e);
	origin_bios = pe->origin_bios;
	snapshot_bios = pe->snapshot_bios;
	table_unlock(s, &lock);
	snap_unlock_read(s);

	if (full) {
		full->bi_end_io = pe->full_bio_end_io;
		full->bi_private = pe->full_bio_private;
		if (error && !full->bi_status)
			full->bi_status = BLK_STS_IOERR;
		bio_endio(full);
	}
	while ((bio = bio_list_pop(&snapshot_bios)) != NULL) {
		if (error)
			bio_io_error(bio);
		else
			submit_bio(bio);
	}
	/* The origin keeps working whatever happened to the snapshot. */
	retry_origin_bios(s, &origin_bios);
	dm_trace_step(DM_TRACE_RELEASE, pe->t_committed);
	dm_trace_step(DM_TRACE_TOTAL, pe->t_arrive);
	free_pending_exception(pe);
}

static void copy_callback(int read_err, unsigned long write_err, void *context)
{
	struct dm_snap_pending_exception *pe = context;
	struct dm_snapshot *s = pe->snap;

	pe->t_commit = arch_cycles();
	/* Data first, then the metadata that points at it (the store's rule). */
	s->store->type->commit_exception(s->store, &pe->e, !(read_err || write_err),
					 pending_complete, pe);
}

static void start_copy(struct dm_snap_pending_exception *pe)
{
	struct dm_snapshot *s = pe->snap;
	struct dm_io_region src, dest;
	sector_t dev_size = bdev_nr_sectors(s->origin->bdev);

	src.bdev = s->origin->bdev;
	src.sector = chunk_to_sector(s->store, pe->e.old_chunk);
	src.count = MIN((sector_t)s->store->chunk_size, dev_size - src.sector);
	dest.bdev = s->cow->bdev;
	dest.sector = chunk_to_sector(s->store, pe->e.new_chunk);
	dest.count = src.count;
	dm_trace_step(DM_TRACE_LOOKUP, pe->t_arrive);
	if (dm_kcopyd_copy(s->kcopyd_client, &src, 1, &dest, 0, copy_callback, pe))
		copy_callback(1, 0, pe);
}

static void full_bio_work(struct work_struct *w)
{
	struct dm_snap_pending_exception *pe =
		container_of(w, struct dm_snap_pending_exception, work);

	copy_callback(pe->full_bio_error, 0, pe);
}

static void full_bio_end_io(struct bio *bio)
{
	struct dm_snap_pending_exception *pe = bio->bi_private;

	/* Completion context: the commit sleeps, so a worker does it. */
	pe->full_bio_error = bio->bi_status != BLK_STS_OK;
	INIT_WORK(&pe->work, full_bio_work);
	schedule_work(&pe->work);
}

static void start_full_bio(struct dm_snap_pending_exception *pe, struct bio *bio)
{
	dm_trace_step(DM_TRACE_LOOKUP, pe->t_arrive);
	pe->full_bio = bio;
	pe->full_bio_end_io = bio->bi_end_io;
	pe->full_bio_private = bio->bi_private;
	bio->bi_end_io = full_bio_end_io;
	bio->bi_private = pe;
	submit_bio(bio);
}

static void remap_exception(struct dm_snapshot *s, struct dm_exception *e, struct bio *bio,
			    chunk_t chunk)
{
	bio->bi_bdev = s->cow->bdev;
	bio->bi_iter.bi_sector = chunk_to_sector(s->store, e->new_chunk) +
				 (bio->bi_iter.bi_sector & s->store->chunk_mask);
}

/* ----------------------------------------------------------- origin I/O */

/*
 * A write of sector on the origin: make sure every snapshot has the
 * chunk's old contents first. The bio waits on the last copy it started;
 * when that completes it comes back here (retry_origin_bios) and goes
 * through only when no snapshot still needs a copy. _origins_lock held.
 */
static int __origin_write(struct list_head *snapshots, sector_t sector, struct bio *bio)
{
	struct dm_snap_pending_exception *pe, *pe2, *pe_to_start_now = NULL,
					   *pe_to_start_last = NULL;
	struct dm_exception_table_lock lock;
	int r = DM_MAPIO_REMAPPED;
	struct dm_snapshot *snap;
	u64 now = arch_cycles();
	chunk_t chunk;

	list_for_each_entry(snap, snapshots, list) {
		if (snap->is_merge || !snap->active || !READ_ONCE(snap->valid))
			continue;
		if (sector >= snap->ti->len)
			continue;
		chunk = sector_to_chunk(snap->store, sector);
		dm_exception_table_lock_init(snap, chunk, &lock);

		snap_lock_read(snap);
		table_lock(snap, &lock);
		if (!snap->valid)
			goto next_snapshot;
		pe = __lookup_pending_exception(snap, chunk);
		if (!pe) {
			if (dm_lookup_exception(&snap->complete, chunk))
				goto next_snapshot;	/* copied already */
			table_unlock(snap, &lock);
			pe = alloc_pending_exception(snap);
			table_lock(snap, &lock);
			if (!pe) {
				table_unlock(snap, &lock);
				snap_unlock_read(snap);
				invalidate_snapshot(snap, -ENOMEM);
				continue;
			}
			pe2 = __lookup_pending_exception(snap, chunk);
			if (pe2) {
				free_pending_exception(pe);
				pe = pe2;
			} else if (dm_lookup_exception(&snap->complete, chunk)) {
				free_pending_exception(pe);
				goto next_snapshot;
			} else {
				pe->t_arrive = now;
				pe = __insert_pending_exception(snap, pe, chunk);
				if (!pe) {
					/* The COW device is full: only this snapshot pays. */
					table_unlock(snap, &lock);
					snap_unlock_read(snap);
					invalidate_snapshot(snap, -ENOSPC);
					continue;
				}
			}
		}
		r = DM_MAPIO_SUBMITTED;
		if (bio) {
			bio_list_add(&pe->origin_bios, bio);
			bio = NULL;
			if (!pe->started) {
				pe->started = true;
				pe_to_start_last = pe;
			}
		} else if (!pe->started) {
			pe->started = true;
			pe_to_start_now = pe;
		}
next_snapshot:
		table_unlock(snap, &lock);
		snap_unlock_read(snap);
		if (pe_to_start_now) {
			start_copy(pe_to_start_now);
			pe_to_start_now = NULL;
		}
	}
	/* Last, so the bio cannot be released before the other copies exist. */
	if (pe_to_start_last)
		start_copy(pe_to_start_last);
	return r;
}

static int do_origin(struct block_device *bdev, struct bio *bio, bool limit)
{
	struct origin *o;
	int r = DM_MAPIO_REMAPPED;

	down_read(&_origins_lock);
	o = __lookup_origin(bdev);
	if (o) {
		if (limit) {
			u32 split = origin_split_boundary(o);
			u32 left = split - (u32)(bio->bi_iter.bi_sector & (split - 1));

			if (bio_sectors(bio) > left)
				dm_accept_partial_bio(bio, left);
		}
		r = __origin_write(&o->snapshots, bio->bi_iter.bi_sector, bio);
	}
	up_read(&_origins_lock);
	return r;
}

static void retry_origin_bios(struct dm_snapshot *s, struct bio_list *bl)
{
	struct bio *bio;

	while ((bio = bio_list_pop(bl)) != NULL)
		if (do_origin(s->origin->bdev, bio, false) == DM_MAPIO_REMAPPED)
			submit_bio(bio);
}

/* -------------------------------------------------------- the snapshot */

/*
 * After the four arguments Linux takes an optional feature group, "N
 * feature...", with N at most 2 and the features discard_zeroes_cow and
 * discard_passdown_origin. Pagoda's snapshot does no discards, so it names
 * them and refuses them; any other word is refused with Linux's own
 * messages rather than dropped (a table that says more than we do must not
 * load as if it said less).
 */
static int parse_snapshot_features(struct dm_target *ti, unsigned int argc, char **argv)
{
	u64 n;

	if (!argc)
		return 0;
	if (kstrtou64(argv[0], 10, &n) || n > 2) {
		ti->error = "Invalid number of feature arguments";
		return -EINVAL;
	}
	if (n > argc - 1) {
		ti->error = "Insufficient feature arguments";
		return -EINVAL;
	}
	for (unsigned int i = 1; i <= n; i++) {
		if (strcmp(argv[i], "discard_zeroes_cow") &&
		    strcmp(argv[i], "discard_passdown_origin")) {
			ti->error = "Unrecognised feature requested";
			return -EINVAL;
		}
		ti->error = "discard features are not supported by this snapshot";
		return -EINVAL;
	}
	if (argc > n + 1) {
		ti->error = "Too many arguments";
		return -EINVAL;
	}
	return 0;
}

static int snapshot_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_snapshot *s;
	unsigned int args_used;
	int r;

	if (argc < 4) {
		ti->error = "requires 4 or more arguments";
		return -EINVAL;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		ti->error = "Cannot allocate private snapshot structure";
		return -ENOMEM;
	}
	s->ti = ti;
	s->is_merge = !strcmp(ti->type->name, "snapshot-merge");
	s->fine = locking_mode == 1;
	init_rwsem(&s->lock);
	mutex_init(&s->mutex);
	spin_lock_init(&s->pe_allocation_lock);
	spin_lock_init(&s->tracked_chunk_lock);
	for (int i = 0; i < DM_TRACKED_CHUNK_HASH_SIZE; i++)
		INIT_LIST_HEAD(&s->tracked_chunk_hash[i]);
	INIT_LIST_HEAD(&s->list);
	atomic_set(&s->pending_exceptions_count, 0);

	r = dm_get_device(ti, argv[0], &s->origin);
	if (r) {
		ti->error = "Error opening origin device";
		goto bad_origin;
	}
	r = dm_get_device(ti, argv[1], &s->cow);
	if (r) {
		ti->error = "Cannot get COW device";
		goto bad_cow;
	}
	if (s->cow->bdev->bd_disk == s->origin->bdev->bd_disk &&
	    s->cow->bdev->bd_start_sect == s->origin->bdev->bd_start_sect) {
		ti->error = "COW device cannot be the same as origin device";
		r = -EINVAL;
		goto bad_store;
	}
	if (ti->len > bdev_nr_sectors(s->origin->bdev)) {
		ti->error = "Snapshot is larger than its origin";
		r = -EINVAL;
		goto bad_store;
	}
	r = dm_exception_store_create(ti, argc - 2, argv + 2, s, s->cow->bdev, &args_used,
				      &s->store);
	if (r)
		goto bad_store;
	r = parse_snapshot_features(ti, argc - 2 - args_used, argv + 2 + args_used);
	if (r)
		goto bad_tables;
	if (s->is_merge && !s->store->type->prepare_merge) {
		ti->error = "Snapshot-merge needs a persistent exception store";
		r = -EINVAL;
		goto bad_tables;
	}
	r = init_hash_tables(s);
	if (r) {
		ti->error = "Unable to allocate hash table space";
		goto bad_tables;
	}
	s->kcopyd_client = dm_kcopyd_client_create();
	if (!s->kcopyd_client) {
		ti->error = "Could not create kcopyd client";
		r = -ENOMEM;
		goto bad_tables;
	}
	/* A persistent store reloads every exception here, at table load. */
	r = s->store->type->read_metadata(s->store, dm_add_exception, s);
	if (r < 0) {
		ti->error = s->store->error ? s->store->error : "Failed to read snapshot metadata";
		goto bad_read;
	}
	s->valid = r == 0;
	if (r > 0)
		pr_warn("device-mapper: snapshots: Snapshot is marked invalid.\n");
	r = register_snapshot(s);
	if (r) {
		ti->error = "Snapshot origin struct allocation failed";
		goto bad_read;
	}
	ti->max_io_len = s->store->chunk_size;
	ti->private = s;
	return 0;

bad_read:
	dm_kcopyd_client_destroy(s->kcopyd_client);
bad_tables:
	dm_exception_table_exit(&s->pending);
	dm_exception_table_exit(&s->complete);
	dm_exception_store_destroy(s->store);
bad_store:
	dm_put_device(ti, s->cow);
bad_cow:
	dm_put_device(ti, s->origin);
bad_origin:
	kfree(s);
	return r;
}

static void snapshot_dtr(struct dm_target *ti)
{
	struct dm_snapshot *s = ti->private;

	snapshot_merge_stop(s);
	unregister_snapshot(s);
	/* Copies started by origin writes hold no bio of ours: wait for them. */
	while (atomic_read(&s->pending_exceptions_count))
		msleep(1);
	dm_kcopyd_client_destroy(s->kcopyd_client);
	dm_exception_table_exit(&s->pending);
	dm_exception_table_exit(&s->complete);
	dm_exception_store_destroy(s->store);
	dm_put_device(ti, s->cow);
	dm_put_device(ti, s->origin);
	kfree(s);
}

static int snapshot_map(struct dm_target *ti, struct bio *bio)
{
	struct dm_snapshot *s = ti->private;
	struct dm_snap_tracked_chunk *tc = dm_per_bio_data(bio);
	struct dm_snap_pending_exception *pe, *pe2;
	struct dm_exception_table_lock lock;
	struct dm_exception *e;
	bool write = op_is_write(bio->bi_opf);
	int r = DM_MAPIO_REMAPPED;
	u64 now = arch_cycles();
	chunk_t chunk;

	tc->tracked = false;
	if (!bio_sectors(bio)) {
		/* An empty flush: the COW device holds what is ours. */
		bio->bi_bdev = s->cow->bdev;
		return DM_MAPIO_REMAPPED;
	}
	bio->bi_iter.bi_sector = dm_target_offset(ti, bio->bi_iter.bi_sector);
	chunk = sector_to_chunk(s->store, bio->bi_iter.bi_sector);
	dm_exception_table_lock_init(s, chunk, &lock);

	snap_lock_read(s);
	table_lock(s, &lock);
	if (!s->valid || (write && s->snapshot_overflowed)) {
		r = DM_MAPIO_KILL;
		goto out_unlock;
	}
	e = dm_lookup_exception(&s->complete, chunk);
	if (e) {
		remap_exception(s, e, bio, chunk);
		goto out_unlock;
	}
	if (!write) {
		/* Not copied: the origin still has it. Track it until it is read. */
		bio->bi_bdev = s->origin->bdev;
		track_chunk(s, bio, chunk);
		goto out_unlock;
	}

	pe = __lookup_pending_exception(s, chunk);
	if (!pe) {
		table_unlock(s, &lock);
		pe = alloc_pending_exception(s);
		table_lock(s, &lock);
		if (!pe) {
			r = DM_MAPIO_KILL;
			goto out_unlock;
		}
		e = dm_lookup_exception(&s->complete, chunk);
		if (e) {
			free_pending_exception(pe);
			remap_exception(s, e, bio, chunk);
			goto out_unlock;
		}
		pe2 = __lookup_pending_exception(s, chunk);
		if (pe2) {
			free_pending_exception(pe);
			pe = pe2;
		} else {
			pe->t_arrive = now;
			pe = __insert_pending_exception(s, pe, chunk);
			if (!pe) {
				table_unlock(s, &lock);
				snap_unlock_read(s);
				if (s->store->userspace_supports_overflow) {
					snap_lock_write(s);
					s->snapshot_overflowed = true;
					snap_unlock_write(s);
					pr_err("device-mapper: snapshots: Snapshot overflowed: "
					       "Unable to allocate exception.\n");
				} else {
					invalidate_snapshot(s, -ENOSPC);
				}
				return DM_MAPIO_KILL;
			}
		}
	}
	remap_exception(s, &pe->e, bio, chunk);
	r = DM_MAPIO_SUBMITTED;
	if (!pe->started && bio->bi_iter.bi_size == (s->store->chunk_size << SECTOR_SHIFT)) {
		/* The write replaces the whole chunk: nothing to copy first. */
		pe->started = true;
		table_unlock(s, &lock);
		snap_unlock_read(s);
		start_full_bio(pe, bio);
		return r;
	}
	bio_list_add(&pe->snapshot_bios, bio);
	if (!pe->started) {
		pe->started = true;
		table_unlock(s, &lock);
		snap_unlock_read(s);
		start_copy(pe);
		return r;
	}
out_unlock:
	table_unlock(s, &lock);
	snap_unlock_read(s);
	return r;
}

static void snapshot_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *status)
{
	stop_tracking_chunk(ti->private, bio);
}

static void snapshot_resume(struct dm_target *ti)
{
	struct dm_snapshot *s = ti->private;

	snap_lock_write(s);
	s->active = true;
	snap_unlock_write(s);
	if (s->is_merge)
		snapshot_merge_start(s);
}

static void snapshot_presuspend(struct dm_target *ti)
{
	struct dm_snapshot *s = ti->private;

	if (s->is_merge)
		snapshot_merge_stop(s);
}

static void snapshot_status(struct dm_target *ti, status_type_t type, char *result,
			    unsigned int maxlen)
{
	struct dm_snapshot *s = ti->private;
	unsigned int sz = 0;

	if (type == STATUSTYPE_INFO) {
		sector_t total, allocated, metadata;

		snap_lock_write(s);
		if (!s->valid) {
			DMEMIT("Invalid");
		} else if (s->merge_failed) {
			DMEMIT("Merge failed");
		} else if (s->snapshot_overflowed) {
			DMEMIT("Overflow");
		} else {
			s->store->type->usage(s->store, &total, &allocated, &metadata);
			DMEMIT("%llu/%llu %llu", (unsigned long long)allocated,
			       (unsigned long long)total, (unsigned long long)metadata);
		}
		snap_unlock_write(s);
	} else {
		DMEMIT("%s %s", s->origin->name, s->cow->name);
		s->store->type->status(s->store, type, result + sz, maxlen - sz);
	}
}

/* -------------------------------------------------------- the origin */

struct dm_origin {
	struct dm_dev *dev;
};

static int origin_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_origin *o;
	int r;

	if (argc != 1) {
		ti->error = "origin: incorrect number of arguments";
		return -EINVAL;
	}
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o) {
		ti->error = "Cannot allocate private origin structure";
		return -ENOMEM;
	}
	r = dm_get_device(ti, argv[0], &o->dev);
	if (r) {
		ti->error = "Cannot get target device";
		kfree(o);
		return r;
	}
	ti->private = o;
	return 0;
}

static void origin_dtr(struct dm_target *ti)
{
	struct dm_origin *o = ti->private;

	dm_put_device(ti, o->dev);
	kfree(o);
}

static int origin_map(struct dm_target *ti, struct bio *bio)
{
	struct dm_origin *o = ti->private;

	bio->bi_bdev = o->dev->bdev;
	if (!bio_sectors(bio))
		return DM_MAPIO_REMAPPED;
	bio->bi_iter.bi_sector = dm_target_offset(ti, bio->bi_iter.bi_sector);
	if (!op_is_write(bio->bi_opf))
		return DM_MAPIO_REMAPPED;
	/* Only writes need a copy, and only for their chunk: cut there. */
	return do_origin(o->dev->bdev, bio, true);
}

static void origin_status(struct dm_target *ti, status_type_t type, char *result,
			  unsigned int maxlen)
{
	struct dm_origin *o = ti->private;
	unsigned int sz = 0;

	if (type == STATUSTYPE_TABLE)
		DMEMIT("%s", o->dev->name);
}

static struct target_type origin_target = {
	.name = "snapshot-origin",
	.version = { 1, 9, 0 },
	.ctr = origin_ctr,
	.dtr = origin_dtr,
	.map = origin_map,
	.status = origin_status,
};

static struct target_type snapshot_target = {
	.name = "snapshot",
	.version = { 1, 16, 0 },
	.ctr = snapshot_ctr,
	.dtr = snapshot_dtr,
	.map = snapshot_map,
	.end_io = snapshot_end_io,
	.resume = snapshot_resume,
	.status = snapshot_status,
};

static struct target_type merge_target = {
	.name = "snapshot-merge",
	.version = { 1, 5, 0 },
	.ctr = snapshot_ctr,
	.dtr = snapshot_dtr,
	.map = snapshot_merge_map,
	.end_io = snapshot_end_io,
	.presuspend = snapshot_presuspend,
	.resume = snapshot_resume,
	.status = snapshot_status,
};

int dm_snapshot_init(void)
{
	dm_register_target(&origin_target);
	dm_register_target(&snapshot_target);
	return dm_register_target(&merge_target);
}

/* For the merge: I/O to chunks being merged is tracked like snapshot reads. */
void dm_snap_track(struct dm_snapshot *s, struct bio *bio, chunk_t chunk)
{
	track_chunk(s, bio, chunk);
}

void dm_snap_track_init(struct bio *bio)
{
	((struct dm_snap_tracked_chunk *)dm_per_bio_data(bio))->tracked = false;
}
