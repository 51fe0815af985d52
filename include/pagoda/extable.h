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

/*
 * Inside an asm() string: an entry saying that if the instruction at
 * label `from` faults, execution goes on at label `to` (local labels such
 * as 1b, 2f). Both arches spell a 64-bit word .quad, so one form serves.
 */
#define EXTABLE(from, to)						\
	".pushsection __ex_table, \"a\"\n\t"				\
	".balign 8\n\t"							\
	".quad " #from ", " #to "\n\t"					\
	".popsection\n\t"

/* The entry for a faulting instruction address, or NULL. */
const struct exception_table_entry *search_extable(u64 pc);

#endif
