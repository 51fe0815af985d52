// SPDX-License-Identifier: MIT
/*
 * The partition parsers on hand-made disk images, in the kernel and on the
 * host: good MBR and GPT tables are read exactly, and each kind of damage
 * (overlap, beyond the end, an EBR loop, a bad CRC, entries outside the
 * usable range) is refused with a reason, or, for a damaged primary GPT
 * header, answered from the backup.
 */
#include <pagoda/crc32.h>
#include <pagoda/ktest.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "check.h"
#include "mbr_build.h"

#define IMG_SECTORS 4096 /* a 2 MiB disk */

struct img {
	u8 *data;
	u64 bytes;
	unsigned int lbs;
};

static int img_read(void *ctx, u64 lba, void *buf)
{
	struct img *im = ctx;

	if ((lba + 1) * im->lbs > im->bytes)
		return -EIO;
	memcpy(buf, im->data + lba * im->lbs, im->lbs);
	return 0;
}

static int parse(struct img *im, struct parsed_partitions *st)
{
	memset(st, 0, sizeof(*st));
	st->name = "test";
	st->capacity = im->bytes / 512;
	st->lbs = im->lbs;
	st->read = img_read;
	st->ctx = im;
	return check_partition(st);
}

static struct img *img_new(struct ktest *t, unsigned int lbs)
{
	struct img *im = kzalloc(sizeof(*im), GFP_KERNEL);

	if (im)
		im->data = kzalloc(IMG_SECTORS * 512, GFP_KERNEL);
	if (!im || !im->data) {
		ktest_fail(t, __FILE__, __LINE__, "no memory");
		if (im)
			kfree(im);
		return NULL;
	}
	im->bytes = IMG_SECTORS * 512;
	im->lbs = lbs;
	return im;
}

static void img_free(struct img *im)
{
	kfree(im->data);
	kfree(im);
}

static struct parsed_partitions *state_new(void)
{
	return kzalloc(sizeof(struct parsed_partitions), GFP_KERNEL);
}

static void test_mbr_primary_and_logical(struct ktest *t)
{
	struct img *im = img_new(t, 512);
	struct parsed_partitions *st = state_new();

	if (!im || !st)
		goto out;
	mbr_entry(im->data, 0, 0x83, 2048, 1024);
	mbr_entry(im->data, 1, 0x05, 3072, 1024);  /* extended: 3072..4095 */
	/* EBR 1 at 3072: logical at +1 (63 sectors), next EBR at ext+128 */
	mbr_entry(im->data + 3072 * 512, 0, 0x83, 1, 63);
	mbr_entry(im->data + 3072 * 512, 1, 0x05, 128, 200);
	/* EBR 2 at 3200: logical at +8, 100 sectors, end of chain */
	mbr_entry(im->data + 3200 * 512, 0, 0x0c, 8, 100);
	KASSERT_EQ(t, parse(im, st), 1);
	KEXPECT_STREQ(t, st->kind, "msdos");
	KEXPECT_EQ(t, st->nr, 6);
	KEXPECT_EQ(t, st->parts[1].from, 2048);
	KEXPECT_EQ(t, st->parts[1].size, 1024);
	KEXPECT_EQ(t, st->parts[2].size, 0); /* the container itself is no partition */
	KEXPECT_EQ(t, st->parts[5].from, 3073);
	KEXPECT_EQ(t, st->parts[5].size, 63);
	KEXPECT_EQ(t, st->parts[6].from, 3208);
	KEXPECT_EQ(t, st->parts[6].size, 100);
out:
	kfree(st);
	if (im)
		img_free(im);
}

static void test_mbr_refusals(struct ktest *t)
{
	struct img *im = img_new(t, 512);
	struct parsed_partitions *st = state_new();

	if (!im || !st)
		goto out;
	/* No signature: no table, nothing to complain about. */
	KEXPECT_EQ(t, parse(im, st), 0);
	/* Overlapping primaries. */
	mbr_entry(im->data, 0, 0x83, 100, 500);
	mbr_entry(im->data, 1, 0x83, 400, 500);
	KEXPECT_EQ(t, parse(im, st), -1);
	KEXPECT_EQ(t, st->nr, 0);
	KEXPECT_TRUE(t, strstr(st->why, "overlap") != NULL);
	/* Beyond the end of the disk. */
	mbr_entry(im->data, 1, 0x83, 4000, 500);
	KEXPECT_EQ(t, parse(im, st), -1);
	KEXPECT_TRUE(t, strstr(st->why, "beyond") != NULL);
	/* A boot flag that no MBR has: a FAT boot sector, say. Not an MBR. */
	mbr_entry(im->data, 1, 0, 0, 0);
	im->data[446] = 0x29;
	KEXPECT_EQ(t, parse(im, st), 0);
	im->data[446] = 0;
	/* An EBR chain that points back at itself. */
	mbr_entry(im->data, 1, 0x0f, 1024, 2048);
	mbr_entry(im->data + 1024 * 512, 0, 0x83, 1, 10);
	mbr_entry(im->data + 1024 * 512 + 0, 1, 0x05, 0, 10);
	KEXPECT_EQ(t, parse(im, st), -1);
	mbr_entry(im->data + 1024 * 512, 1, 0x05, 5, 10);
	mbr_entry(im->data + 1029 * 512, 0, 0x83, 1, 2);
	mbr_entry(im->data + 1029 * 512, 1, 0x05, 5, 10);  /* 1029 links to itself */
	KEXPECT_EQ(t, parse(im, st), -1);
	KEXPECT_TRUE(t, strstr(st->why, "loop") != NULL);
out:
	kfree(st);
	if (im)
		img_free(im);
}

/* A GPT: protective MBR, header at `at`, entries at entry_lba. */
static void gpt_write(struct img *im, u64 at, u64 entry_lba, u64 alt,
		      const u64 (*ranges)[2], unsigned int nr, unsigned int nr_entries)
{
	unsigned int lbs = im->lbs;
	u64 blocks = im->bytes / lbs;
	u8 *h = im->data + at * lbs;
	u8 *e = im->data + entry_lba * lbs;
	u32 crc;

	memset(im->data, 0, 512);
	mbr_entry(im->data, 0, 0xee, 1, (u32)(blocks - 1));
	memset(e, 0, nr_entries * 128);
	for (unsigned int i = 0; i < nr; i++) {
		u8 *x = e + i * 128;

		x[0] = 0xaf;   /* any nonzero type GUID */
		x[16] = (u8)(i + 1);
		put_unaligned_le64(ranges[i][0], x + 32);
		put_unaligned_le64(ranges[i][1], x + 40);
	}
	memset(h, 0, lbs);
	memcpy(h, "EFI PART", 8);
	put_unaligned_le32(0x00010000, h + 8);
	put_unaligned_le32(92, h + 12);
	put_unaligned_le64(at, h + 24);
	put_unaligned_le64(alt, h + 32);
	put_unaligned_le64(34, h + 40);
	put_unaligned_le64(blocks - 34, h + 48);
	put_unaligned_le64(entry_lba, h + 72);
	put_unaligned_le32(nr_entries, h + 80);
	put_unaligned_le32(128, h + 84);
	put_unaligned_le32(~crc32_le(~0U, e, nr_entries * 128), h + 88);
	crc = ~crc32_le(~0U, h, 92);
	put_unaligned_le32(crc, h + 16);
}

static const u64 gpt_ranges[][2] = { { 34, 1033 }, { 2048, 2048 }, { 3000, 4000 } };

static void test_gpt(struct ktest *t)
{
	struct img *im = img_new(t, 512);
	struct parsed_partitions *st = state_new();
	u64 last = IMG_SECTORS - 1;

	if (!im || !st)
		goto out;
	gpt_write(im, 1, 2, last, gpt_ranges, 3, 128);
	KASSERT_EQ(t, parse(im, st), 1);
	KEXPECT_STREQ(t, st->kind, "gpt");
	KEXPECT_EQ(t, st->nr, 3);
	KEXPECT_EQ(t, st->parts[1].from, 34);
	KEXPECT_EQ(t, st->parts[1].size, 1000);
	KEXPECT_EQ(t, st->parts[2].size, 1);
	KEXPECT_EQ(t, st->parts[3].from, 3000);
	KEXPECT_EQ(t, st->parts[3].size, 1001);
	/* One flipped bit in an entry: the array's CRC catches it. */
	im->data[2 * 512 + 40] ^= 1;
	KEXPECT_EQ(t, parse(im, st), -1);
	KEXPECT_TRUE(t, strstr(st->why, "CRC") != NULL);
	KEXPECT_EQ(t, st->nr, 0);
	/* ... unless the backup at the end is good (a warning says so). */
	ktest_expect_reports(t, true);
	gpt_write(im, last, last - 32, 1, gpt_ranges, 3, 128);
	KEXPECT_EQ(t, parse(im, st), 1);
	KEXPECT_EQ(t, st->parts[3].size, 1001);
	/* An entry outside the usable range, with correct CRCs everywhere. */
	{
		static const u64 bad[][2] = { { 10, 20 } };

		gpt_write(im, 1, 2, last, bad, 1, 128);
		gpt_write(im, last, last - 32, 1, bad, 1, 128);
		KEXPECT_EQ(t, parse(im, st), -1);
		KEXPECT_TRUE(t, strstr(st->why, "usable") != NULL);
	}
out:
	kfree(st);
	if (im)
		img_free(im);
}

static void test_gpt_4k(struct ktest *t)
{
	struct img *im = img_new(t, 4096);
	struct parsed_partitions *st = state_new();
	static const u64 r[][2] = { { 40, 99 }, { 100, 200 } };

	if (!im || !st)
		goto out;
	/* 512 blocks of 4 KiB; the entries fill 4 blocks from block 2. */
	gpt_write(im, 1, 2, 511, r, 2, 128);
	/* gpt_write's usable range assumed 512-byte blocks: fix it for 4 KiB. */
	put_unaligned_le64(6, im->data + 4096 + 40);
	put_unaligned_le64(505, im->data + 4096 + 48);
	put_unaligned_le32(0, im->data + 4096 + 16);
	put_unaligned_le32(~crc32_le(~0U, im->data + 4096, 92), im->data + 4096 + 16);
	KASSERT_EQ(t, parse(im, st), 1);
	KEXPECT_EQ(t, st->parts[1].from, 40 * 8);
	KEXPECT_EQ(t, st->parts[1].size, 60 * 8);
	KEXPECT_EQ(t, st->parts[2].from, 100 * 8);
out:
	kfree(st);
	if (im)
		img_free(im);
}

static struct ktest_case partition_cases[] = {
	KTEST_CASE(test_mbr_primary_and_logical),
	KTEST_CASE(test_mbr_refusals),
	KTEST_CASE(test_gpt),
	KTEST_CASE(test_gpt_4k),
	{}
};
KTEST_SUITE(partitions, partition_cases);
