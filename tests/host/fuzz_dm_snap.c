// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the persistent exception store's reader (block/dm/
 * dm-snap-format.c): the input is a COW device's bytes. Its header is
 * decoded as table load would; a store it accepts is read area by area
 * as the kernel reads it. Whatever the bytes, nothing is read outside the
 * device, and every exception accepted points at a data chunk inside it,
 * below the first free chunk, which is itself never a metadata area.
 * Then merge order, as snapshot-merge walks a store: records come back
 * newest first, area by area down to the first, each one the reader gave;
 * an area with its newest records zeroed (the merge's commit) scans as
 * that many fewer. And a header or record decoded encodes to its bytes.
 * `make fuzz-dm-snap` runs it FUZZ_SECONDS.
 */
#include <pagoda/string.h>

#include "../../block/dm/dm-snap-format.h"
#include "fuzz_dm_store.h"

#include "fuzz.h"

struct dev {
	const u8 *data;
	size_t size;
	size_t chunk_bytes;
	chunk_t nr_chunks;
};

struct check {
	struct dev *d;
	u32 per_area;
	u64 n;
	chunk_t max_new;
	chunk_t *seen;		/* old, new of each record, in the reader's order */
	u64 room;
};

static int read_chunk(void *io, chunk_t chunk, void *buf)
{
	struct dev *d = io;

	if (chunk >= d->nr_chunks)
		abort();	/* the reader must never ask past the end */
	memcpy(buf, d->data + chunk * d->chunk_bytes, d->chunk_bytes);
	return 0;
}

static int check_one(void *ctx, chunk_t old_chunk, chunk_t new_chunk)
{
	struct check *c = ctx;

	if (new_chunk >= c->d->nr_chunks || dm_snap_is_metadata_chunk(c->per_area, new_chunk))
		abort();
	if (new_chunk > c->max_new)
		c->max_new = new_chunk;
	if (c->n < c->room) {
		c->seen[2 * c->n] = old_chunk;
		c->seen[2 * c->n + 1] = new_chunk;
	}
	c->n++;
	return 0;
}

static int count_only(void *ctx, chunk_t old_chunk, chunk_t new_chunk)
{
	(void)ctx;
	(void)old_chunk;
	(void)new_chunk;
	return 0;
}

/*
 * The merge's walk (block/dm/dm-snap-persistent.c prepare_merge and
 * commit_merge): from the reader's last area and count, the newest record
 * first; an emptied area steps down to the one before, read again.
 */
static void merge_walk(struct dm_snap_reader *r, struct check *c, u8 *area)
{
	chunk_t a = r->current_area;
	u32 committed = r->current_committed;
	u64 k = c->n;
	const char *why = NULL;
	bool full;

	/* with none in it, the last area may lie past the end: not read */
	if (committed)
		read_chunk(c->d, dm_snap_area_location(c->per_area, a), area);
	for (;;) {
		chunk_t old_chunk, new_chunk;
		u8 rec[DISK_EXCEPTION_SIZE];

		if (!committed) {
			if (!a)
				break;
			a--;
			read_chunk(c->d, dm_snap_area_location(c->per_area, a), area);
			committed = c->per_area;
		}
		if (!k)
			abort();	/* more records to merge than the reader found */
		k--;
		dm_snap_exception_decode(area, committed - 1, &old_chunk, &new_chunk);
		if (k < c->room && (old_chunk != c->seen[2 * k] || new_chunk != c->seen[2 * k + 1]))
			abort();	/* not the newest record left */
		dm_snap_exception_encode(rec, 0, old_chunk, new_chunk);
		if (memcmp(rec, area + (size_t)(committed - 1) * DISK_EXCEPTION_SIZE, sizeof(rec)))
			abort();	/* the writer lays it out otherwise */
		/* the commit: the record zeroed; the area now scans one shorter */
		dm_snap_exception_encode(area, --committed, 0, 0);
		if (dm_snap_area_scan(area, c->per_area, c->d->nr_chunks, count_only, NULL, &full,
				      &why) != (int)committed || full)
			abort();
	}
	if (k)
		abort();	/* records the merge never reached */
}

/*
 * The format's checks; true when the reader accepted the device, with its
 * records and where it stopped in *f (the caller frees f->rec).
 */
static bool reader_checks(const u8 *data, size_t size, struct reader_found *f)
{
	struct snap_disk_header h;
	const char *why = NULL;
	struct dev d = { .data = data, .size = size };
	struct check c = { .d = &d };
	struct dm_snap_reader r;
	bool ok = false;
	int kind;

	/* Chunks of up to 16 sectors keep inputs small enough to explore. */
	kind = dm_snap_header_decode(data, size, 16, &h, &why);
	if (kind < 0) {
		if (!why)
			abort();	/* a refusal always says why */
		return false;
	}
	{
		u8 again[DISK_HEADER_SIZE];

		dm_snap_header_encode(again, &h);
		if (kind != SNAP_HEADER_NEW && memcmp(again, data, sizeof(again)))
			abort();	/* the header decoded does not encode to its bytes */
	}
	if (kind != SNAP_HEADER_VALID)
		return false;
	d.chunk_bytes = (size_t)h.chunk_size * 512;
	d.nr_chunks = size / d.chunk_bytes;
	c.per_area = dm_snap_exceptions_per_area(h.chunk_size);
	r = (struct dm_snap_reader){ .read = read_chunk, .io = &d, .buf = malloc(d.chunk_bytes),
				     .per_area = c.per_area, .cow_chunks = d.nr_chunks };
	c.room = d.nr_chunks;	/* each record has its own data chunk */
	c.seen = malloc(c.room * 2 * sizeof(chunk_t) + 1);
	if (!r.buf || !c.seen) {
		free(r.buf);
		free(c.seen);
		return false;
	}
	if (dm_snap_read_exceptions(&r, check_one, &c, &why) == 0) {
		if (c.n && r.next_free <= c.max_new)
			abort();
		if (dm_snap_is_metadata_chunk(c.per_area, r.next_free))
			abort();
		if (r.current_committed > c.per_area)
			abort();
		/* Records counted: every full area, plus the last one's. */
		if (c.n != r.current_area * c.per_area + r.current_committed)
			abort();
		merge_walk(&r, &c, r.buf);
		ok = c.n <= c.room;
	} else if (!why) {
		abort();
	}
	free(r.buf);
	*f = (struct reader_found){ .rec = c.seen, .n = c.n, .current_area = r.current_area,
				    .current_committed = r.current_committed,
				    .chunk_sectors = h.chunk_size };
	return ok;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct reader_found f = { 0 };
	bool ok = reader_checks(data, size, &f);

	/* Then the same bytes through the kernel's own store (fuzz_dm_store.c). */
	fuzz_dm_store(data, size, ok ? &f : NULL);
	free((void *)f.rec);
	return 0;
}
