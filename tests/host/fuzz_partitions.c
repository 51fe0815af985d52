// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the partition parsers (make fuzz-partitions).
 *
 * The input is a disk image. Its last byte picks the block size (bit 0:
 * 4096, else 512) and whether to repair the GPT checksums first (bit 1),
 * so the fuzzer can reach past the CRC checks into the entry logic. Any
 * input: the parsers must answer without a stray read (ASan), and what
 * they accept must lie inside the disk with no overlaps, checked here
 * independently of check_partition().
 */
#include <pagoda/crc32.h>
#include <pagoda/string.h>

#include "../../block/partitions/check.h"

#include "fuzz.h"

struct img {
	const u8 *data;
	size_t bytes;
	unsigned int lbs;
};

static int img_read(void *ctx, u64 lba, void *buf)
{
	struct img *im = ctx;

	if (lba >= im->bytes / im->lbs)
		return -EIO;
	memcpy(buf, im->data + lba * im->lbs, im->lbs);
	return 0;
}

/* Make the header at block `lba` and its entry array carry correct CRCs. */
static void fix_gpt(u8 *d, size_t bytes, unsigned int lbs, u64 lba)
{
	u8 *h = d + lba * lbs;
	u32 hsize, n, esize;
	u64 elba;

	if ((lba + 1) * lbs > bytes || memcmp(h, "EFI PART", 8))
		return;
	n = get_unaligned_le32(h + 80);
	esize = get_unaligned_le32(h + 84);
	elba = get_unaligned_le64(h + 72);
	if (esize && n <= 4096 && esize <= 4096 && elba < bytes / lbs &&
	    (u64)n * esize <= bytes - elba * lbs)
		put_unaligned_le32(~crc32_le(~0U, d + elba * lbs, (size_t)n * esize), h + 88);
	hsize = get_unaligned_le32(h + 12);
	if (hsize >= 20 && hsize <= lbs) {
		put_unaligned_le32(0, h + 16);
		put_unaligned_le32(~crc32_le(~0U, h, hsize), h + 16);
	}
}

static struct parsed_partitions state;

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct img im;
	u8 flags, *copy;
	int r;

	if (size < 2 || size > (1 << 20))
		return 0;
	flags = data[size - 1];
	size--;
	im.lbs = (flags & 1) ? 4096 : 512;
	im.bytes = size - size % im.lbs;
	if (!im.bytes)
		return 0;
	copy = malloc(im.bytes);
	memcpy(copy, data, im.bytes);
	if (flags & 2) {
		fix_gpt(copy, im.bytes, im.lbs, 1);
		fix_gpt(copy, im.bytes, im.lbs, im.bytes / im.lbs - 1);
	}
	im.data = copy;
	memset(&state, 0, sizeof(state));
	state.name = "fuzz";
	state.capacity = im.bytes / 512;
	state.lbs = im.lbs;
	state.read = img_read;
	state.ctx = &im;
	r = check_partition(&state);
	if (r < 0 && state.nr)
		abort(); /* a refused table keeps nothing */
	for (unsigned int i = 1; r > 0 && i <= state.nr; i++) {
		struct parsed_partition *p = &state.parts[i];

		if (!p->size)
			continue;
		if (p->from + p->size > state.capacity || p->from + p->size < p->from)
			abort();
		for (unsigned int j = 1; j < i; j++)
			if (state.parts[j].size && p->from < state.parts[j].from + state.parts[j].size &&
			    state.parts[j].from < p->from + p->size)
				abort();
	}
	free(copy);
	return 0;
}
