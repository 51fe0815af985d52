/* SPDX-License-Identifier: MIT */
/*
 * Linux's persistent snapshot format, as bytes (read from Linux's
 * Documentation/admin-guide/device-mapper/snapshot.rst and the layout
 * dm-snap-persistent.c writes). Pure code: the kernel's persistent store
 * and the host fuzzer (tests/host/fuzz_dm_snap.c) share it.
 *
 *   chunk 0        header: le32 magic "SnAp" (0x70416e53), le32 valid,
 *                  le32 version (1), le32 chunk_size (sectors); rest zero
 *   chunk 1        metadata area 0: chunk_bytes/16 records
 *                  { le64 old_chunk; le64 new_chunk; }
 *   chunks 2..     that many data chunks, then area 1, its data chunks...
 *
 * An area's records end at the first whose new_chunk is 0 (chunk 0 is the
 * header, never data). A full area means the next one must be read too.
 */
#ifndef BLOCK_DM_SNAP_FORMAT_H
#define BLOCK_DM_SNAP_FORMAT_H

#include <pagoda/types.h>

typedef u64 chunk_t;

#define SNAP_MAGIC 0x70416e53U
#define SNAPSHOT_DISK_VERSION 1U
#define NUM_SNAPSHOT_HDR_CHUNKS 1U
#define DISK_HEADER_SIZE 16U
#define DISK_EXCEPTION_SIZE 16U

struct snap_disk_header {
	u32 magic, valid, version, chunk_size;
};

/* What dm_snap_header_decode() found. */
enum snap_header_kind {
	SNAP_HEADER_NEW,	/* magic 0: a fresh device, write a header */
	SNAP_HEADER_VALID,	/* a Linux-format header, snapshot valid */
	SNAP_HEADER_INVALID,	/* a Linux-format header marked invalid */
};

/*
 * Decode the first bytes of chunk 0. -EINVAL (with *why set) for a foreign
 * magic, an unknown version, or a chunk size that is not a power of two
 * between 1 and max_chunk sectors.
 */
int dm_snap_header_decode(const void *buf, size_t len, u32 max_chunk,
			  struct snap_disk_header *h, const char **why);
void dm_snap_header_encode(void *buf, const struct snap_disk_header *h);

void dm_snap_exception_encode(void *area, u32 index, chunk_t old_chunk, chunk_t new_chunk);
void dm_snap_exception_decode(const void *area, u32 index, chunk_t *old_chunk,
			      chunk_t *new_chunk);

/* Records per metadata area, and where area n lives (in chunks). */
static inline u32 dm_snap_exceptions_per_area(u32 chunk_sectors)
{
	return chunk_sectors * 512U / DISK_EXCEPTION_SIZE;
}

static inline chunk_t dm_snap_area_location(u32 per_area, chunk_t area)
{
	return NUM_SNAPSHOT_HDR_CHUNKS + (u64)(per_area + 1) * area;
}

/* Is this chunk a metadata area (or the header)? Data never goes there. */
static inline bool dm_snap_is_metadata_chunk(u32 per_area, chunk_t chunk)
{
	return chunk < NUM_SNAPSHOT_HDR_CHUNKS ||
	       (chunk - NUM_SNAPSHOT_HDR_CHUNKS) % (per_area + 1) == 0;
}

/*
 * Walk one area's records, calling fn for each exception. Returns the
 * number of records, or -EINVAL (with *why) for a record that points at
 * the header, at a metadata area, or past cow_chunks. *full says whether
 * every slot was used (the next area must be read).
 */
int dm_snap_area_scan(const void *area, u32 per_area, chunk_t cow_chunks,
		      int (*fn)(void *ctx, chunk_t old_chunk, chunk_t new_chunk), void *ctx,
		      bool *full, const char **why);

/*
 * The whole reader of a store's exceptions: area after area until one is
 * not full (or the device ends), through read(io, chunk, buf), which
 * fills buf with one chunk. Leaves where the next record goes (the last
 * area and how many records it has) and the first free data chunk.
 */
struct dm_snap_reader {
	int (*read)(void *io, chunk_t chunk, void *buf);
	void *io;
	void *buf;		/* one chunk */
	u32 per_area;
	chunk_t cow_chunks;
	/* results */
	chunk_t current_area;
	u32 current_committed;
	chunk_t next_free;
};

int dm_snap_read_exceptions(struct dm_snap_reader *r,
			    int (*fn)(void *ctx, chunk_t old_chunk, chunk_t new_chunk), void *ctx,
			    const char **why);

#endif
