// SPDX-License-Identifier: MIT
/*
 * GUID Partition Tables (UEFI spec, chapter 5; Linux: block/partitions/efi.c).
 *
 * Block 0 is a protective MBR (one entry of type 0xee) so that MBR-only
 * tools leave the disk alone. Block 1 holds the primary header: "EFI PART",
 * its own size and CRC-32, where it is (my_lba), the usable block range,
 * and where the partition entry array is, how many entries of what size,
 * and the array's CRC-32. A copy of both sits at the end of the disk (the
 * header in the last block). An entry with a zero type GUID is unused;
 * others give first and last block, inclusive. Entry i is partition i+1.
 *
 * Everything is checked before anything is used: CRCs, that the header
 * lies where it says, that the ranges are inside the disk and entries
 * inside the usable range. A bad primary header falls back to the backup.
 */
#include <pagoda/crc32.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

#include "check.h"

#define GPT_HEADER_SIZE_MIN 92
#define GPT_ENTRY_SIZE_MIN 128
#define GPT_ENTRIES_MAX_BYTES (1U << 20)
#define GPT_CRC_OFFSET 16

struct gpt_header {
	u64 my_lba, alternate_lba, first_usable, last_usable, entry_lba;
	u32 nr_entries, entry_size, entries_crc;
};

static u32 efi_crc32(u32 crc, const void *p, size_t len)
{
	return crc32_le(crc, p, len);
}

static bool pmbr_valid(struct parsed_partitions *s)
{
	const u8 *b = s->block;

	if (s->read(s->ctx, 0, s->block) || b[510] != 0x55 || b[511] != 0xaa)
		return false;
	for (unsigned int i = 0; i < 4; i++)
		if (b[446 + 16 * i + 4] == 0xee)
			return true;
	return false;
}

/* Read and check the header at lba; 0, or -1 with why filled. */
static int read_header(struct parsed_partitions *s, u64 lba, u64 last_lba,
		       struct gpt_header *h)
{
	u8 *b = s->block;
	u32 size, crc, want;

	if (s->read(s->ctx, lba, b)) {
		snprintf(s->why, sizeof(s->why), "GPT header at block %llu unreadable",
			 (unsigned long long)lba);
		return -1;
	}
	if (memcmp(b, "EFI PART", 8)) {
		snprintf(s->why, sizeof(s->why), "no GPT signature at block %llu",
			 (unsigned long long)lba);
		return -1;
	}
	size = get_unaligned_le32(b + 12);
	if (size < GPT_HEADER_SIZE_MIN || size > s->lbs) {
		snprintf(s->why, sizeof(s->why), "GPT header size %u", size);
		return -1;
	}
	want = get_unaligned_le32(b + GPT_CRC_OFFSET);
	crc = efi_crc32(~0U, b, GPT_CRC_OFFSET);
	crc = efi_crc32(crc, "\0\0\0\0", 4);
	crc = ~efi_crc32(crc, b + GPT_CRC_OFFSET + 4, size - GPT_CRC_OFFSET - 4);
	if (crc != want) {
		snprintf(s->why, sizeof(s->why), "GPT header CRC %08x, expected %08x", crc, want);
		return -1;
	}
	h->my_lba = get_unaligned_le64(b + 24);
	h->alternate_lba = get_unaligned_le64(b + 32);
	h->first_usable = get_unaligned_le64(b + 40);
	h->last_usable = get_unaligned_le64(b + 48);
	h->entry_lba = get_unaligned_le64(b + 72);
	h->nr_entries = get_unaligned_le32(b + 80);
	h->entry_size = get_unaligned_le32(b + 84);
	h->entries_crc = get_unaligned_le32(b + 88);
	if (h->my_lba != lba) {
		snprintf(s->why, sizeof(s->why), "GPT header at block %llu says it is at %llu",
			 (unsigned long long)lba, (unsigned long long)h->my_lba);
		return -1;
	}
	if (h->first_usable > h->last_usable || h->last_usable > last_lba) {
		snprintf(s->why, sizeof(s->why), "GPT usable range %llu-%llu outside the disk",
			 (unsigned long long)h->first_usable, (unsigned long long)h->last_usable);
		return -1;
	}
	if (h->entry_size < GPT_ENTRY_SIZE_MIN || (h->entry_size & (h->entry_size - 1)) ||
	    h->entry_size > s->lbs) {
		snprintf(s->why, sizeof(s->why), "GPT entry size %u", h->entry_size);
		return -1;
	}
	if (!h->nr_entries || (u64)h->nr_entries * h->entry_size > GPT_ENTRIES_MAX_BYTES) {
		snprintf(s->why, sizeof(s->why), "GPT with %u entries", h->nr_entries);
		return -1;
	}
	{
		u64 blocks = DIV_ROUND_UP((u64)h->nr_entries * h->entry_size, s->lbs);

		if (h->entry_lba < 2 || h->entry_lba > last_lba || blocks > last_lba - h->entry_lba + 1) {
			snprintf(s->why, sizeof(s->why), "GPT entry array outside the disk");
			return -1;
		}
		/* The array may not be inside the space it hands out. */
		if (h->entry_lba <= h->last_usable && h->entry_lba + blocks > h->first_usable) {
			snprintf(s->why, sizeof(s->why), "GPT entry array inside the usable range");
			return -1;
		}
	}
	return 0;
}

static int read_entries(struct parsed_partitions *s, const struct gpt_header *h)
{
	unsigned int per_block = s->lbs / h->entry_size;
	u64 spb = s->lbs / 512;
	u32 crc = ~0U;
	unsigned int i = 0;

	for (u64 lba = h->entry_lba; i < h->nr_entries; lba++) {
		if (s->read(s->ctx, lba, s->block)) {
			snprintf(s->why, sizeof(s->why), "GPT entries unreadable");
			return -1;
		}
		for (unsigned int k = 0; k < per_block && i < h->nr_entries; k++, i++) {
			const u8 *e = s->block + k * h->entry_size;
			static const u8 zero_guid[16];
			u64 first = get_unaligned_le64(e + 32), last = get_unaligned_le64(e + 40);

			crc = efi_crc32(crc, e, h->entry_size);
			if (!memcmp(e, zero_guid, 16))
				continue;
			if (first > last || first < h->first_usable || last > h->last_usable) {
				snprintf(s->why, sizeof(s->why),
					 "GPT entry %u (blocks %llu-%llu) outside the usable range",
					 i + 1, (unsigned long long)first, (unsigned long long)last);
				return -1;
			}
			if (i + 1 > s->limit)
				continue; /* counted in the CRC, not used */
			put_partition(s, i + 1, first * spb, (last - first + 1) * spb);
		}
	}
	if (~crc != h->entries_crc) {
		snprintf(s->why, sizeof(s->why), "GPT entry array CRC %08x, expected %08x", ~crc,
			 h->entries_crc);
		return -1;
	}
	return 1;
}

int efi_partition(struct parsed_partitions *s)
{
	u64 last_lba = s->capacity / (s->lbs / 512);
	struct gpt_header h;
	char primary_why[sizeof(s->why)];

	if (last_lba < 3 || !pmbr_valid(s))
		return 0;
	last_lba--;
	s->kind = "gpt";
	if (read_header(s, 1, last_lba, &h) == 0 && read_entries(s, &h) == 1)
		return 1;
	/* The primary is damaged: the backup header is in the last block. */
	memcpy(primary_why, s->why, sizeof(primary_why));
	memset(s->parts, 0, sizeof(s->parts));
	s->nr = 0;
	if (read_header(s, last_lba, last_lba, &h) == 0 && read_entries(s, &h) == 1) {
		pr_warn("%s: primary GPT damaged (%s), using the backup\n", s->name, primary_why);
		return 1;
	}
	snprintf(s->why, sizeof(s->why), "%s; backup: not usable either", primary_why);
	return -1;
}
