/* SPDX-License-Identifier: MIT */
/*
 * fuzz-dm-snap's second half (fuzz_dm_store.c): the COW device's bytes
 * through the kernel's persistent exception store, given what the
 * format's pure reader found (NULL when it refused the device or left
 * it alone: a new or invalid header, chunks over 16 sectors).
 */
#ifndef TESTS_HOST_FUZZ_DM_STORE_H
#define TESTS_HOST_FUZZ_DM_STORE_H

#include <pagoda/types.h>

struct reader_found {
	const chunk_t *rec;	/* old, new of each record, in the reader's order */
	u64 n;
	chunk_t current_area;	/* where the next record goes: area and index */
	u32 current_committed;
	u32 chunk_sectors;
};

void fuzz_dm_store(const u8 *data, size_t size, const struct reader_found *found);

#endif
