// SPDX-License-Identifier: MIT
/*
 * Running the partition parsers and refusing what does not add up (Linux:
 * block/partitions/core.c, check_partition()).
 *
 * A table is data from the disk, so it is never trusted: each parser checks
 * its own format (signatures, checksums, bounds), and here the result as a
 * whole must fit the disk without overlaps. Linux trims a partition that
 * runs past the end; Pagoda refuses the table, since a wrong size would
 * silently misplace writes meant for someone else's data.
 */
#include <pagoda/printk.h>
#include <pagoda/string.h>

#include "check.h"

bool put_partition(struct parsed_partitions *state, unsigned int n, sector_t from,
		   sector_t size)
{
	if (n == 0 || n > state->limit || n >= MAX_PARSED_PARTS) {
		snprintf(state->why, sizeof(state->why), "partition number %u out of range", n);
		return false;
	}
	state->parts[n].from = from;
	state->parts[n].size = size;
	if (n > state->nr)
		state->nr = n;
	return true;
}

static int check_whole(struct parsed_partitions *state)
{
	for (unsigned int i = 1; i <= state->nr; i++) {
		struct parsed_partition *p = &state->parts[i];

		if (!p->size)
			continue;
		if (p->from >= state->capacity || p->size > state->capacity - p->from) {
			snprintf(state->why, sizeof(state->why),
				 "partition %u (sectors %llu+%llu) beyond the end (%llu)", i,
				 (unsigned long long)p->from, (unsigned long long)p->size,
				 (unsigned long long)state->capacity);
			return -1;
		}
		for (unsigned int j = 1; j < i; j++) {
			struct parsed_partition *q = &state->parts[j];

			if (q->size && p->from < q->from + q->size && q->from < p->from + p->size) {
				snprintf(state->why, sizeof(state->why),
					 "partitions %u and %u overlap", j, i);
				return -1;
			}
		}
	}
	return 1;
}

int check_partition(struct parsed_partitions *state)
{
	static int (*const parsers[])(struct parsed_partitions *) = {
		efi_partition,   /* first: a GPT disk also has a (protective) MBR */
		msdos_partition,
	};

	if (!state->limit || state->limit >= MAX_PARSED_PARTS)
		state->limit = MAX_PARSED_PARTS - 1;
	for (unsigned int k = 0; k < ARRAY_SIZE(parsers); k++) {
		int r;

		memset(state->parts, 0, sizeof(state->parts));
		state->nr = 0;
		state->why[0] = 0;
		r = parsers[k](state);
		if (r > 0)
			r = check_whole(state);
		if (r != 0) {
			if (r < 0) {
				memset(state->parts, 0, sizeof(state->parts));
				state->nr = 0;
			}
			return r;
		}
	}
	return 0;
}
