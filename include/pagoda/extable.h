/* SPDX-License-Identifier: MIT */
/*
 * The exception table: pairs of (instruction that may fault, where to go
 * instead), emitted into the __ex_table section next to the instruction by
 * the arch's probe routines. The trap handler looks the faulting address
 * up here before it declares the fault fatal.
 */
#ifndef PAGODA_EXTABLE_H
#define PAGODA_EXTABLE_H

#include <pagoda/types.h>

struct exception_table_entry {
	u64 insn, fixup;
};

/* The entry for a faulting instruction address, or NULL. */
const struct exception_table_entry *search_extable(u64 pc);

#endif
