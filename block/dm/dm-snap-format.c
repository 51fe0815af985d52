// SPDX-License-Identifier: MIT
/*
 * Linux's persistent COW format, byte by byte (see dm-snap-format.h).
 * Little-endian on the disk whatever the CPU, read and written byte by
 * byte (<pagoda/unaligned.h>) so the same code runs in the kernel and
 * under the host fuzzer.
 */
#include <pagoda/string.h>
#include <pagoda/unaligned.h>

#include "dm-snap-format.h"

int dm_snap_header_decode(const void *buf, size_t len, u32 max_chunk,
			  struct snap_disk_header *h, const char **why)
{
	const u8 *p = buf;

	if (len < DISK_HEADER_SIZE) {
		*why = "header shorter than 16 bytes";
		return -EINVAL;
	}
	h->magic = get_unaligned_le32(p);
	h->valid = get_unaligned_le32(p + 4);
	h->version = get_unaligned_le32(p + 8);
	h->chunk_size = get_unaligned_le32(p + 12);
	if (h->magic == 0)
		return SNAP_HEADER_NEW;
	if (h->magic != SNAP_MAGIC) {
		*why = "Invalid or corrupt snapshot (bad magic)";
		return -EINVAL;
	}
	if (h->version != SNAPSHOT_DISK_VERSION) {
		*why = "unsupported snapshot metadata version";
		return -EINVAL;
	}
	if (!h->chunk_size || (h->chunk_size & (h->chunk_size - 1)) || h->chunk_size > max_chunk) {
		*why = "chunk size in the header is not a power of two within limits";
		return -EINVAL;
	}
	return h->valid ? SNAP_HEADER_VALID : SNAP_HEADER_INVALID;
}

void dm_snap_header_encode(void *buf, const struct snap_disk_header *h)
{
	u8 *p = buf;

	put_unaligned_le32(h->magic, p);
	put_unaligned_le32(h->valid, p + 4);
	put_unaligned_le32(h->version, p + 8);
	put_unaligned_le32(h->chunk_size, p + 12);
}

void dm_snap_exception_encode(void *area, u32 index, chunk_t old_chunk, chunk_t new_chunk)
{
	u8 *p = (u8 *)area + (size_t)index * DISK_EXCEPTION_SIZE;

	put_unaligned_le64(old_chunk, p);
	put_unaligned_le64(new_chunk, p + 8);
}

void dm_snap_exception_decode(const void *area, u32 index, chunk_t *old_chunk,
			      chunk_t *new_chunk)
{
	const u8 *p = (const u8 *)area + (size_t)index * DISK_EXCEPTION_SIZE;

	*old_chunk = get_unaligned_le64(p);
	*new_chunk = get_unaligned_le64(p + 8);
}

int dm_snap_area_scan(const void *area, u32 per_area, chunk_t cow_chunks,
		      int (*fn)(void *ctx, chunk_t old_chunk, chunk_t new_chunk), void *ctx,
		      bool *full, const char **why)
{
	u32 i;

	*full = true;
	for (i = 0; i < per_area; i++) {
		chunk_t old_chunk, new_chunk;
		int r;

		dm_snap_exception_decode(area, i, &old_chunk, &new_chunk);
		if (new_chunk == 0) {
			*full = false;
			break;
		}
		/* Linux trusts these; a corrupt record must not send I/O astray here. */
		if (new_chunk >= cow_chunks || dm_snap_is_metadata_chunk(per_area, new_chunk)) {
			*why = "exception record points outside the data chunks";
			return -EINVAL;
		}
		r = fn(ctx, old_chunk, new_chunk);
		if (r)
			return r;
	}
	return (int)i;
}

struct reader_ctx {
	struct dm_snap_reader *r;
	int (*fn)(void *ctx, chunk_t old_chunk, chunk_t new_chunk);
	void *ctx;
};

static int note_exception(void *c, chunk_t old_chunk, chunk_t new_chunk)
{
	struct reader_ctx *rc = c;

	if (rc->r->next_free <= new_chunk)
		rc->r->next_free = new_chunk + 1;
	return rc->fn(rc->ctx, old_chunk, new_chunk);
}

int dm_snap_read_exceptions(struct dm_snap_reader *r,
			    int (*fn)(void *ctx, chunk_t old_chunk, chunk_t new_chunk), void *ctx,
			    const char **why)
{
	struct reader_ctx rc = { r, fn, ctx };
	bool full = true;
	chunk_t area;
	int n;

	r->current_area = 0;
	r->current_committed = 0;
	r->next_free = NUM_SNAPSHOT_HDR_CHUNKS + 1;
	for (area = 0; full; area++) {
		chunk_t where = dm_snap_area_location(r->per_area, area);

		if (where >= r->cow_chunks)
			break;	/* every area full up to the end of the device */
		n = r->read(r->io, where, r->buf);
		if (n) {
			*why = "Failed to read a metadata area";
			return n;
		}
		n = dm_snap_area_scan(r->buf, r->per_area, r->cow_chunks, note_exception, &rc,
				      &full, why);
		if (n < 0)
			return n;
		r->current_area = area;
		r->current_committed = (u32)n;
	}
	if (full) {
		/* The last area is full: the next record starts a new one. */
		r->current_area = area;
		r->current_committed = 0;
	}
	/* The first free chunk is never a metadata area. */
	if (dm_snap_is_metadata_chunk(r->per_area, r->next_free))
		r->next_free++;
	return 0;
}
