// SPDX-License-Identifier: MIT
/* Exception-table lookup and the record of the last fixed-up fault. */
#include <pagoda/arch.h>
#include <pagoda/extable.h>

extern const struct exception_table_entry __start___ex_table[];
extern const struct exception_table_entry __stop___ex_table[];

struct fault_record last_fixed_fault;

/* A handful of entries: a linear scan is plenty. */
const struct exception_table_entry *search_extable(u64 pc)
{
	for (const struct exception_table_entry *e = __start___ex_table;
	     e < __stop___ex_table; e++)
		if (e->insn == pc)
			return e;
	return NULL;
}
