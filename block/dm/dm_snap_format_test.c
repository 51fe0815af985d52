// SPDX-License-Identifier: MIT
/*
 * test=dm_snap_format, in the kernel and on the host (make host-test):
 * Linux's persistent COW format from bytes laid out by hand as the
 * documentation describes them, and the reader's answers on them.
 */
#include <pagoda/ktest.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "dm-snap-format.h"

#define CHUNK 8			/* sectors: 4 KiB chunks, 256 records per area */
#define CHUNK_BYTES (CHUNK * 512)
#define DEV_CHUNKS 600

static u8 (*dev)[CHUNK_BYTES];	/* the device, allocated per case */
static u8 buf[CHUNK_BYTES];

static void put_le(u8 *p, u64 v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (u8)(v >> (8 * i));
}

static int read_dev(void *io, chunk_t chunk, void *out)
{
	memcpy(out, dev[chunk], CHUNK_BYTES);
	return 0;
}

struct seen {
	unsigned int n;
	chunk_t last_old, last_new;
};

static int count(void *ctx, chunk_t old_chunk, chunk_t new_chunk)
{
	struct seen *s = ctx;

	s->n++;
	s->last_old = old_chunk;
	s->last_new = new_chunk;
	return 0;
}

static void test_header_bytes(struct ktest *t)
{
	struct snap_disk_header h = { SNAP_MAGIC, 1, 1, 16 }, g;
	u8 b[16];
	const char *why = NULL;

	dm_snap_header_encode(b, &h);
	/* "SnAp" little-endian: 53 6e 41 70. */
	KEXPECT_EQ(t, b[0], 0x53);
	KEXPECT_EQ(t, b[1], 0x6e);
	KEXPECT_EQ(t, b[2], 0x41);
	KEXPECT_EQ(t, b[3], 0x70);
	KEXPECT_EQ(t, b[4], 1);
	KEXPECT_EQ(t, b[8], 1);
	KEXPECT_EQ(t, b[12], 16);
	KEXPECT_EQ(t, dm_snap_header_decode(b, 16, 2048, &g, &why), SNAP_HEADER_VALID);
	KEXPECT_EQ(t, g.chunk_size, 16);
	b[4] = 0;
	KEXPECT_EQ(t, dm_snap_header_decode(b, 16, 2048, &g, &why), SNAP_HEADER_INVALID);
	memset(b, 0, 16);
	KEXPECT_EQ(t, dm_snap_header_decode(b, 16, 2048, &g, &why), SNAP_HEADER_NEW);
	put_le(b, 0x12345678, 4);
	KEXPECT_EQ(t, dm_snap_header_decode(b, 16, 2048, &g, &why), -EINVAL);
	KEXPECT_EQ(t, dm_snap_header_decode(b, 8, 2048, &g, &why), -EINVAL);
}

static void test_layout(struct ktest *t)
{
	KEXPECT_EQ(t, dm_snap_exceptions_per_area(8), 256);
	KEXPECT_EQ(t, dm_snap_area_location(256, 0), 1);
	KEXPECT_EQ(t, dm_snap_area_location(256, 1), 258);
	KEXPECT_TRUE(t, dm_snap_is_metadata_chunk(256, 0));
	KEXPECT_TRUE(t, dm_snap_is_metadata_chunk(256, 1));
	KEXPECT_FALSE(t, dm_snap_is_metadata_chunk(256, 2));
	KEXPECT_FALSE(t, dm_snap_is_metadata_chunk(256, 257));
	KEXPECT_TRUE(t, dm_snap_is_metadata_chunk(256, 258));
}

/* 256 + 250 exceptions, as Linux wrote them in the design's check: 4072/65536 24. */
static void test_reader_two_areas(struct ktest *t)
{
	struct dm_snap_reader r = { .read = read_dev, .buf = buf, .per_area = 256,
				     .cow_chunks = DEV_CHUNKS };
	struct seen s = { 0 };
	chunk_t next = 2;
	const char *why = NULL;

	memset(dev, 0, (size_t)DEV_CHUNKS * CHUNK_BYTES);
	for (int i = 0; i < 506; i++) {
		u8 *rec = dev[i < 256 ? 1 : 258] + (i % 256) * 16;

		if (next == 258)
			next++;
		put_le(rec, 1000 + i, 8);
		put_le(rec + 8, next++, 8);
	}
	KEXPECT_EQ(t, dm_snap_read_exceptions(&r, count, &s, &why), 0);
	KEXPECT_EQ(t, s.n, 506);
	KEXPECT_EQ(t, s.last_old, 1505);
	KEXPECT_EQ(t, r.current_area, 1);
	KEXPECT_EQ(t, r.current_committed, 250);
	/* Linux's status: sectors allocated = next_free * chunk = 4072, metadata 3 chunks. */
	KEXPECT_EQ(t, r.next_free * CHUNK, 4072);
	KEXPECT_EQ(t, (r.current_area + 2) * CHUNK, 24);
}

static void test_reader_full_area_then_device_end(struct ktest *t)
{
	struct dm_snap_reader r = { .read = read_dev, .buf = buf, .per_area = 256,
				     .cow_chunks = 258 };
	struct seen s = { 0 };
	const char *why = NULL;

	memset(dev, 0, (size_t)DEV_CHUNKS * CHUNK_BYTES);
	for (int i = 0; i < 256; i++) {
		put_le(dev[1] + i * 16, i, 8);
		put_le(dev[1] + i * 16 + 8, 2 + i, 8);
	}
	KEXPECT_EQ(t, dm_snap_read_exceptions(&r, count, &s, &why), 0);
	KEXPECT_EQ(t, s.n, 256);
	KEXPECT_EQ(t, r.current_area, 1);
	KEXPECT_EQ(t, r.current_committed, 0);
}

static void test_reader_refuses_wild_records(struct ktest *t)
{
	struct dm_snap_reader r = { .read = read_dev, .buf = buf, .per_area = 256,
				     .cow_chunks = DEV_CHUNKS };
	struct seen s = { 0 };
	const char *why = NULL;

	memset(dev, 0, (size_t)DEV_CHUNKS * CHUNK_BYTES);
	put_le(dev[1], 7, 8);
	put_le(dev[1] + 8, 258, 8);	/* area 1's chunk is not data */
	KEXPECT_EQ(t, dm_snap_read_exceptions(&r, count, &s, &why), -EINVAL);
	KEXPECT_TRUE(t, why != NULL);
	put_le(dev[1] + 8, DEV_CHUNKS, 8);	/* past the end */
	KEXPECT_EQ(t, dm_snap_read_exceptions(&r, count, &s, &why), -EINVAL);
	put_le(dev[1] + 8, 0, 8);	/* new_chunk 0 ends the records: none */
	s.n = 0;
	KEXPECT_EQ(t, dm_snap_read_exceptions(&r, count, &s, &why), 0);
	KEXPECT_EQ(t, s.n, 0);
	KEXPECT_EQ(t, r.next_free, 2);
}

static struct ktest_case dm_snap_format_cases[] = {
	KTEST_CASE(test_header_bytes),
	KTEST_CASE(test_layout),
	KTEST_CASE(test_reader_two_areas),
	KTEST_CASE(test_reader_full_area_then_device_end),
	KTEST_CASE(test_reader_refuses_wild_records),
	{}
};
static int dev_init(struct ktest *t)
{
	dev = kzalloc((size_t)DEV_CHUNKS * CHUNK_BYTES, GFP_KERNEL);
	return dev ? 0 : -ENOMEM;
}

static void dev_exit(struct ktest *t)
{
	kfree(dev);
	dev = NULL;
}

KTEST_SUITE_FULL(dm_snap_format, .cases = dm_snap_format_cases, .init = dev_init,
		 .exit = dev_exit);
