// SPDX-License-Identifier: MIT
/*
 * Exception-table lookup, the record of the last fixed-up fault, and the
 * probes that use the table: a load, a store and an undefined instruction
 * that may fault, each with its fixup. The instructions are the arch's
 * (<asm/extable.h>); the error protocol is the same on both: err is set to
 * -EFAULT, the instruction runs, err is cleared after it, and a fault
 * skips the clearing.
 */
#include <pagoda/arch.h>
#include <pagoda/extable.h>
#include <asm/extable.h>

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

int arch_probe_read_u64(const void *addr, u64 *val)
{
	int err;
	u64 v = 0;

	__asm__ volatile(PROBE_SET_EFAULT
			 "1:\t" PROBE_LOAD_U64 "\n\t"
			 PROBE_CLEAR_ERR
			 "2:\n\t" EXTABLE(1b, 2b)
			 : [err] "=&r"(err), [v] "+r"(v)
			 : [addr] "r"(addr), [efault] "i"(-EFAULT)
			 : "memory");
	if (!err)
		*val = v;
	return err;
}

int arch_probe_write_u64(void *addr, u64 val)
{
	int err;

	__asm__ volatile(PROBE_SET_EFAULT
			 "1:\t" PROBE_STORE_U64 "\n\t"
			 PROBE_CLEAR_ERR
			 "2:\n\t" EXTABLE(1b, 2b)
			 : [err] "=&r"(err)
			 : [addr] "r"(addr), [v] "r"(val), [efault] "i"(-EFAULT)
			 : "memory");
	return err;
}

/* Always -EFAULT: the instruction cannot complete. */
int arch_probe_undefined_insn(void)
{
	int err;

	__asm__ volatile(PROBE_SET_EFAULT
			 "1:\t" PROBE_UNDEFINED_INSN "\n"
			 "2:\n\t" EXTABLE(1b, 2b)
			 : [err] "=&r"(err)
			 : [efault] "i"(-EFAULT));
	return err;
}
