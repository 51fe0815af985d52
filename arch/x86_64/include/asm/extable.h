/* SPDX-License-Identifier: MIT */
/*
 * The instructions of the fault probes (kernel/extable.c) in x86-64's
 * spelling; the probes themselves, and their exception-table entries,
 * are written once.
 */
#ifndef ASM_EXTABLE_H
#define ASM_EXTABLE_H

#define PROBE_SET_EFAULT "movl %[efault], %[err]\n"
#define PROBE_CLEAR_ERR "xorl %[err], %[err]\n"
#define PROBE_LOAD_U64 "movq (%[addr]), %[v]"
#define PROBE_STORE_U64 "movq %[v], (%[addr])"
/* UD2 raises #UD by definition. */
#define PROBE_UNDEFINED_INSN "ud2"

#endif
