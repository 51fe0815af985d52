/* SPDX-License-Identifier: MIT */
/*
 * Partition-table parsers (Linux: block/partitions/). Pure code: a parser
 * sees the disk only through state->read(), so the same parsers run in the
 * kernel, in the host tests and under libFuzzer.
 */
#ifndef BLOCK_PARTITIONS_CHECK_H
#define BLOCK_PARTITIONS_CHECK_H

#include <pagoda/types.h>
#include <pagoda/unaligned.h>

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

#endif
