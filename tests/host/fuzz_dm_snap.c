// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the persistent exception store's reader (block/dm/
 * dm-snap-format.c): the input is a COW device's bytes. Its header is
 * decoded as table load would; a store it accepts is read area by area
 * as the kernel reads it. Whatever the bytes, nothing is read outside the
 * device, and every exception accepted points at a data chunk inside it,
 * below the first free chunk, which is itself never a metadata area.
 * `make fuzz-dm-snap` runs it FUZZ_SECONDS.
 */
#include <pagoda/string.h>

#include "../../block/dm/dm-snap-format.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);
extern void abort(void);
extern void *malloc(unsigned long size);
extern void free(void *p);

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
	c->n++;
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct snap_disk_header h;
	const char *why = NULL;
	struct dev d = { .data = data, .size = size };
	struct check c = { .d = &d };
	struct dm_snap_reader r;
	int kind;

	/* Chunks of up to 16 sectors keep inputs small enough to explore. */
	kind = dm_snap_header_decode(data, size, 16, &h, &why);
	if (kind < 0) {
		if (!why)
			abort();	/* a refusal always says why */
		return 0;
	}
	if (kind != SNAP_HEADER_VALID)
		return 0;
	d.chunk_bytes = (size_t)h.chunk_size * 512;
	d.nr_chunks = size / d.chunk_bytes;
	c.per_area = dm_snap_exceptions_per_area(h.chunk_size);
	r = (struct dm_snap_reader){ .read = read_chunk, .io = &d, .buf = malloc(d.chunk_bytes),
				     .per_area = c.per_area, .cow_chunks = d.nr_chunks };
	if (!r.buf)
		return 0;
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
	} else if (!why) {
		abort();
	}
	free(r.buf);
	return 0;
}
