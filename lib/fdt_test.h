/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the FDT test files (lib/fdt_test.c,
 * lib/fdt_boot_info_test.c): the embedded fixture trees, and a tiny DTB
 * writer for the blobs no fixture has (too many CPUs, broken nesting ...).
 */
#ifndef PAGODA_LIB_FDT_TEST_H
#define PAGODA_LIB_FDT_TEST_H

#include <pagoda/types.h>

/* An embedded tree by name (tests/fixtures/fdt.mk); NULL if not built in. */
const u8 *fdt_test_fixture(const char *name, size_t *size);

/*
 * The writer: fdtb_start(), then tokens in order, then fdtb_finish() for
 * the blob (header, empty reserve map, structure, strings). One blob at a
 * time; the next fdtb_start() overwrites it. Overflowing the writer's
 * buffers makes fdtb_finish() return NULL.
 */
void fdtb_start(void);
void fdtb_begin(const char *name);
void fdtb_end(void);
void fdtb_prop(const char *name, const void *data, u32 len);
void fdtb_prop_u32(const char *name, u32 v);
void fdtb_prop_str(const char *name, const char *s);
void fdtb_token(u32 tok);	/* a raw token, e.g. FDT_END or garbage */
/* Ends with FDT_END unless `end` is false. */
u8 *fdtb_finish(bool end, size_t *size);

/* Store a big-endian u32 (to patch blobs). */
static inline void fdt_test_st32(void *p, u32 v)
{
	u8 *b = p;

	b[0] = (u8)(v >> 24);
	b[1] = (u8)(v >> 16);
	b[2] = (u8)(v >> 8);
	b[3] = (u8)v;
}

#endif
