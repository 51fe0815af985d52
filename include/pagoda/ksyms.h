/* SPDX-License-Identifier: MIT */
/*
 * The kernel's own symbol table, for stack traces (kernel/ksyms.c).
 *
 * The build links the kernel twice: the first link's text symbols are
 * turned into a sorted table (tools/gen-ksyms.py) that the second link
 * carries. Text placement does not depend on the table, so addresses agree.
 */
#ifndef PAGODA_KSYMS_H
#define PAGODA_KSYMS_H

#include <pagoda/types.h>

struct ksym_table {
	const u64 *addrs;        /* sorted ascending */
	const u32 *name_offsets; /* into names */
	const char *names;
	u32 count;
	u64 text_end; /* addresses at or past this are not in any function */
};

/*
 * Find the function containing addr. Returns its name and stores the offset
 * into it, or NULL when addr is outside the table.
 */
const char *ksym_lookup_in(const struct ksym_table *tab, u64 addr, u64 *offset);
const char *ksym_lookup(u64 addr, u64 *offset);
/* Address of a symbol by name, or 0. */
u64 ksym_address(const char *name);

extern const struct ksym_table kernel_ksyms;

#endif
