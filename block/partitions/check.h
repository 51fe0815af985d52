/* SPDX-License-Identifier: MIT */
/*
 * Partition-table parsers (Linux: block/partitions/). Pure code: a parser
 * sees the disk only through state->read(), so the same parsers run in the
 * kernel, in the host tests and under libFuzzer.
 */
#ifndef BLOCK_PARTITIONS_CHECK_H
#define BLOCK_PARTITIONS_CHECK_H

#include <pagoda/types.h>

typedef u64 sector_t;

#define MAX_PARSED_PARTS 129 /* partition numbers 1..128 */

struct parsed_partition {
	sector_t from, size;  /* 512-byte sectors; size 0: unused number */
};

struct parsed_partitions {
	const char *name;       /* the disk, for messages */
	sector_t capacity;      /* 512-byte sectors */
	unsigned int lbs;       /* logical block size, bytes */
	/* Read logical block lba into buf (lbs bytes): 0 or a negative errno. */
	int (*read)(void *ctx, u64 lba, void *buf);
	void *ctx;
	unsigned int limit;     /* highest partition number allowed */
	unsigned int nr;        /* highest partition number found */
	struct parsed_partition parts[MAX_PARSED_PARTS];
	const char *kind;       /* "msdos", "gpt" */
	u8 block[4096];         /* the parsers' read buffer (lbs <= 4096) */
	char why[96];           /* the reason a table was refused */
};

/*
 * A parser returns 1 (its table, parts filled), 0 (not its kind) or -1
 * (its kind but malformed: why says how; nothing may be used).
 */
int msdos_partition(struct parsed_partitions *state);
int efi_partition(struct parsed_partitions *state);

/*
 * Run the parsers and check the result as a whole (inside the disk, no
 * overlaps). 1: parts are valid; 0: no table; -1: a malformed table,
 * nothing kept, state->why filled.
 */
int check_partition(struct parsed_partitions *state);

/* Record partition n; false (and why) if the number is out of range. */
bool put_partition(struct parsed_partitions *state, unsigned int n, sector_t from,
		   sector_t size);

static inline u16 get_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u32 get_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static inline u64 get_le64(const void *p)
{
	return get_le32(p) | (u64)get_le32((const u8 *)p + 4) << 32;
}

#endif
