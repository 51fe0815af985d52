// SPDX-License-Identifier: MIT
/*
 * The second half of fuzz-dm-snap: the same COW device's bytes handed to
 * the kernel's persistent exception store itself (block/dm/
 * dm-snap-persistent.c, the "P" of a snapshot table), on a block device
 * in memory. fuzz_dm_snap.c checks the format's pure reader; this checks
 * what the snapshot target builds on it:
 *
 *   - read_metadata refuses with a reason, marks the store invalid, or
 *     loads exactly the records the pure reader found, in its order;
 *   - a new store (header all zero) gets a header and an empty first
 *     area, and loads empty;
 *   - exceptions prepared and committed (one at a time, so each commit
 *     writes its area) are there, after the old ones, when the device is
 *     loaded again by a new store: what a reboot does;
 *   - the merge's prepare and commit give them back newest first, and a
 *     reload no longer has them; usage stays inside the device;
 *   - drop_snapshot makes the next load say invalid.
 *
 * How many exceptions and merges is taken from the input's last bytes.
 * Nothing here sleeps or runs in parallel, so the store's mutex is a
 * no-op.
 */
#include <pagoda/blkdev.h>
#include <pagoda/mutex.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "../../block/dm/dm-exception-store.h"
#include "../../block/dm/dm-trace.h"
#include "fuzz_dm_store.h"

#include "fuzz.h"

/* The COW device: the input's bytes, copied so the store may write them. */
static u8 *dev_bytes;
static struct request_queue dev_queue = { .limits = { .logical_block_size = 512 } };
static struct gendisk dev_disk = { .disk_name = "fuzzcow", .queue = &dev_queue };
static struct block_device dev = { .bd_name = "fuzzcow", .bd_disk = &dev_disk };

/*
 * Past the end the block layer answers -EIO, as here: a store whose
 * records a kernel never wrote may put its current area there (its last
 * area full at the device's end, its records pointing at low chunks),
 * and then its commit fails and the snapshot goes invalid, on Linux too.
 */
static unsigned int io_errors;

int blkdev_rw(struct block_device *bdev, blk_opf_t opf, sector_t sector, void *buf, size_t len)
{
	u64 end = (sector << SECTOR_SHIFT) + len;

	if (bdev != &dev || (len & 511))
		abort();	/* whole sectors of its own device */
	if (end > (dev.bd_nr_sectors << SECTOR_SHIFT)) {
		io_errors++;
		return -EIO;
	}
	if ((opf & REQ_OP_MASK) == REQ_OP_WRITE)
		memcpy(dev_bytes + (sector << SECTOR_SHIFT), buf, len);
	else
		memcpy(buf, dev_bytes + (sector << SECTOR_SHIFT), len);
	return 0;
}

void __mutex_init(struct mutex *m, struct lock_class *c)
{
	(void)m;
	(void)c;
}

void mutex_lock(struct mutex *m)
{
	(void)m;
}

void mutex_unlock(struct mutex *m)
{
	(void)m;
}

/* The kernel's step trace (block/dm/dm-trace.c): nothing to count here. */
void dm_trace_metadata_write(unsigned int nr)
{
	(void)nr;
}

void msleep(unsigned int ms)
{
	(void)ms;
	abort();	/* only waits for memory, which the host never lacks */
}

struct loaded {
	chunk_t *rec;	/* old, new of each record, in load order */
	u64 n, room;
};

static int collect(void *ctx, chunk_t old_chunk, chunk_t new_chunk)
{
	struct loaded *l = ctx;

	if (l->n == l->room)
		abort();	/* more records than the device's areas can hold */
	l->rec[2 * l->n] = old_chunk;
	l->rec[2 * l->n + 1] = new_chunk;
	l->n++;
	return 0;
}

/* A store on the device, as a snapshot table line "P chunk" makes one. */
static struct dm_exception_store *store_open(u32 chunk)
{
	struct dm_exception_store *s = kzalloc(sizeof(*s), GFP_KERNEL);
	const char *why = NULL;

	if (!s)
		abort();
	s->type = &dm_persistent_store;
	s->cow = &dev;
	if (dm_exception_store_set_chunk_size(s, chunk, &why) || s->type->ctr(s))
		abort();
	return s;
}

static void store_close(struct dm_exception_store *s)
{
	s->type->dtr(s);
	kfree(s);
}

/* Load the device with a new store: < 0 refused, 1 invalid, 0 loaded into l. */
static int load(u32 chunk, struct loaded *l, u32 *chunk_found)
{
	struct dm_exception_store *s = store_open(chunk);
	int r;

	l->n = 0;
	r = s->type->read_metadata(s, collect, l);
	if (r < 0 && !s->error)
		abort();	/* a refusal always says why */
	if (r > 1)
		abort();
	*chunk_found = s->chunk_size;
	store_close(s);
	return r;
}

static void committed(void *ctx, int success)
{
	int *calls = ctx;

	*calls += success ? 1 : 1000;
}

static void same(const struct loaded *a, const chunk_t *b, u64 n)
{
	if (a->n != n || (n && memcmp(a->rec, b, n * 2 * sizeof(chunk_t))))
		abort();
}

/*
 * A kernel's store holds zeros after the last record of its current area
 * (every area is zeroed on the disk before its first record). Bytes there
 * would be read as more records once a new one ends the zeros, on Linux
 * as here, so before adding the harness makes the input such a store.
 */
static void zero_after_last(const struct reader_found *f)
{
	size_t chunk_bytes = (size_t)f->chunk_sectors << SECTOR_SHIFT;
	u32 per_area = dm_snap_exceptions_per_area(f->chunk_sectors);
	chunk_t where = dm_snap_area_location(per_area, f->current_area);
	size_t from = (size_t)where * chunk_bytes + (size_t)f->current_committed *
		      DISK_EXCEPTION_SIZE;
	size_t end = ((size_t)where + 1) * chunk_bytes;
	size_t dev_end = (size_t)dev.bd_nr_sectors << SECTOR_SHIFT;

	if (from < dev_end)
		memset(dev_bytes + from, 0, (end < dev_end ? end : dev_end) - from);
}

void fuzz_dm_store(const u8 *data, size_t size, const struct reader_found *found)
{
	struct loaded l = { 0 }, again = { 0 };
	struct dm_exception_store *s;
	u32 chunk = 8, chunk_found;
	u64 nsect = size >> SECTOR_SHIFT;
	unsigned int adds, merges;
	int r;

	if (nsect < 2)
		return;
	dev_bytes = malloc(nsect << SECTOR_SHIFT);
	/* Records a kernel never wrote may share data chunks: as many as fit in areas. */
	l.room = again.room = nsect * (512 / DISK_EXCEPTION_SIZE) + 8;
	l.rec = malloc(l.room * 2 * sizeof(chunk_t));
	again.rec = malloc(again.room * 2 * sizeof(chunk_t));
	if (!dev_bytes || !l.rec || !again.rec)
		goto out;
	memcpy(dev_bytes, data, nsect << SECTOR_SHIFT);
	dev.bd_nr_sectors = nsect;
	io_errors = 0;
	adds = data[size - 1] % 8;
	merges = data[size - 2] % 8;

	r = load(chunk, &l, &chunk_found);
	if (r)
		goto out;	/* refused or invalid: nothing more to do with it */
	chunk = chunk_found;	/* the header's chunk size overrides the table's */
	if (!found)
		goto drop;	/* a new store (now written), or chunks the reader skips */
	/* The pure reader and the store read the same records. */
	same(&l, found->rec, found->n);
	if (chunk != found->chunk_sectors)
		abort();
	zero_after_last(found);

	/* Exceptions for origin chunks taken from the input, one commit each. */
	s = store_open(chunk);
	again.n = 0;
	if (s->type->read_metadata(s, collect, &again))
		abort();	/* it loaded a moment ago */
	for (unsigned int i = 0; i < adds; i++) {
		struct dm_exception e = { .old_chunk = data[i % size] + 256u * i };
		int calls = 0;

		if (s->type->prepare_exception(s, &e))
			break;	/* full: -ENOSPC, and nothing taken */
		if (e.new_chunk >= (nsect >> s->chunk_shift) ||
		    dm_snap_is_metadata_chunk(dm_snap_exceptions_per_area(chunk), e.new_chunk))
			abort();
		s->type->commit_exception(s, &e, 1, committed, &calls);
		if (calls == 1000 && io_errors) {
			store_close(s);
			goto drop;	/* its area is past the end: invalid, as on Linux */
		}
		if (calls != 1)
			abort();	/* alone, a commit writes its area and calls back once */
		if (l.n == l.room)
			abort();
		l.rec[2 * l.n] = e.old_chunk;
		l.rec[2 * l.n + 1] = e.new_chunk;
		l.n++;
	}
	{
		sector_t total, alloc, meta;
		char status[64];

		/*
		 * Allocated is next_free in sectors, as Linux reports it: at
		 * most one chunk past the end (a metadata place skipped there).
		 * Metadata may exceed it for records a kernel never wrote
		 * (Linux's formula, the same there).
		 */
		s->type->usage(s, &total, &alloc, &meta);
		if (total != nsect || alloc > total + chunk || !meta)
			abort();
		s->type->status(s, STATUSTYPE_TABLE, status, sizeof(status));
		if (status[0] != ' ' || status[1] != 'P')
			abort();
	}
	store_close(s);

	/* A reboot: a new store loads the old records and the new, in order. */
	if (load(chunk, &again, &chunk_found))
		abort();
	same(&again, l.rec, l.n);

	/* The merge: newest first, each forgotten durably. */
	s = store_open(chunk);
	again.n = 0;
	if (s->type->read_metadata(s, collect, &again))
		abort();
	for (unsigned int i = 0; i < merges; i++) {
		chunk_t old_chunk, new_chunk;

		r = s->type->prepare_merge(s, &old_chunk, &new_chunk);
		if (r < 0 && io_errors) {
			store_close(s);
			goto drop;
		}
		if (r < 0)
			abort();
		if (!r) {
			if (l.n)
				abort();	/* records left, none offered */
			break;
		}
		if (!l.n || old_chunk != l.rec[2 * (l.n - 1)] || new_chunk != l.rec[2 * l.n - 1])
			abort();	/* not the newest record left */
		r = s->type->commit_merge(s, 1);
		if (r && io_errors) {
			store_close(s);
			goto drop;
		}
		if (r)
			abort();
		l.n--;
	}
	store_close(s);
	if (load(chunk, &again, &chunk_found))
		abort();
	same(&again, l.rec, l.n);

drop:
	/* Dropped: the next load is told the snapshot is invalid. */
	s = store_open(chunk);
	again.n = 0;
	if (s->type->read_metadata(s, collect, &again))
		abort();
	s->type->drop_snapshot(s);
	store_close(s);
	if (load(chunk, &again, &chunk_found) != 1)
		abort();
out:
	free(dev_bytes);
	free(l.rec);
	free(again.rec);
	dev_bytes = NULL;
}
