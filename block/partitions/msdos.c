// SPDX-License-Identifier: MIT
/*
 * MBR ("msdos") partition tables (Linux: block/partitions/msdos.c).
 *
 * Block 0 ends in 0x55 0xaa and holds four 16-byte entries at offset 446:
 * a boot flag (0x00 or 0x80), a type, and the start and length in logical
 * blocks (little-endian u32 at +8 and +12). Type 0x05, 0x0f or 0x85 is an
 * extended partition: a chain of extended boot records (EBRs), each with
 * one logical partition (relative to that EBR) and a link to the next EBR
 * (relative to the extended partition's start). Logical partitions are
 * numbered from 5. Type 0xee marks a GPT disk's protective MBR and is left
 * to efi.c. A boot flag other than 0x00/0x80 means this is not an MBR at
 * all (a FAT boot sector also ends in 0x55aa).
 */
#include <pagoda/printk.h>

#include "check.h"

#define MBR_PART_OFFSET 446
#define MBR_SIG_OFFSET 510
#define MBR_TYPE_GPT 0xee
#define MBR_MAX_LOGICAL 64  /* a longer EBR chain is a loop or garbage */

struct mbr_entry {
	u8 boot, type;
	u32 start, count;
};

static struct mbr_entry mbr_entry(const u8 *block, unsigned int i)
{
	const u8 *e = block + MBR_PART_OFFSET + 16 * i;

	return (struct mbr_entry){ e[0], e[4], get_unaligned_le32(e + 8), get_unaligned_le32(e + 12) };
}

static bool is_extended(u8 type)
{
	return type == 0x05 || type == 0x0f || type == 0x85;
}

static bool has_signature(const u8 *block)
{
	return block[MBR_SIG_OFFSET] == 0x55 && block[MBR_SIG_OFFSET + 1] == 0xaa;
}

/* 512-byte sectors per logical block */
static u64 spb(const struct parsed_partitions *s)
{
	return s->lbs / 512;
}

static int parse_extended(struct parsed_partitions *s, u64 ext_start, u64 ext_count,
			  unsigned int *next_no)
{
	u64 ebr = ext_start;

	for (unsigned int n = 0; n < MBR_MAX_LOGICAL; n++) {
		struct mbr_entry data, link;

		if (s->read(s->ctx, ebr, s->block) || !has_signature(s->block)) {
			snprintf(s->why, sizeof(s->why), "unreadable or unsigned EBR at block %llu",
				 (unsigned long long)ebr);
			return -1;
		}
		data = mbr_entry(s->block, 0);
		link = mbr_entry(s->block, 1);
		if (data.count) {
			u64 from = ebr + data.start;

			if (from + data.count > ext_start + ext_count || from < ebr) {
				snprintf(s->why, sizeof(s->why),
					 "logical partition %u outside its extended partition", *next_no);
				return -1;
			}
			if (!put_partition(s, (*next_no)++, from * spb(s), (u64)data.count * spb(s)))
				return -1;
		}
		if (!link.count || !is_extended(link.type))
			return 1;
		if (!link.start || link.start >= ext_count) {
			snprintf(s->why, sizeof(s->why), "EBR link outside the extended partition");
			return -1;
		}
		ebr = ext_start + link.start;
	}
	snprintf(s->why, sizeof(s->why), "more than %u logical partitions (an EBR loop?)",
		 MBR_MAX_LOGICAL);
	return -1;
}

int msdos_partition(struct parsed_partitions *s)
{
	struct mbr_entry e[4];
	unsigned int next_logical = 5;
	int ext = -1;

	if (s->read(s->ctx, 0, s->block) || !has_signature(s->block))
		return 0;
	for (unsigned int i = 0; i < 4; i++) {
		e[i] = mbr_entry(s->block, i);
		if (e[i].boot != 0 && e[i].boot != 0x80)
			return 0;
		if (e[i].type == MBR_TYPE_GPT)
			return 0;
	}
	s->kind = "msdos";
	for (unsigned int i = 0; i < 4; i++) {
		if (!e[i].count || !e[i].type)
			continue;
		if (is_extended(e[i].type)) {
			if (ext >= 0) {
				snprintf(s->why, sizeof(s->why), "two extended partitions");
				return -1;
			}
			ext = (int)i;
			continue;
		}
		if (!put_partition(s, i + 1, (u64)e[i].start * spb(s), (u64)e[i].count * spb(s)))
			return -1;
	}
	if (ext >= 0) {
		/* The extended partition itself is a container, not a partition. */
		if ((u64)e[ext].start * spb(s) >= s->capacity) {
			snprintf(s->why, sizeof(s->why), "extended partition beyond the end");
			return -1;
		}
		return parse_extended(s, e[ext].start, e[ext].count, &next_logical);
	}
	return 1;
}
