/* SPDX-License-Identifier: MIT */
/*
 * The instructions of the fault probes (kernel/extable.c) in arm64's
 * spelling; the probes themselves, and their exception-table entries,
 * are written once.
 */
#ifndef ASM_EXTABLE_H
#define ASM_EXTABLE_H

#define PROBE_SET_EFAULT "mov %w[err], %[efault]\n"
#define PROBE_CLEAR_ERR "mov %w[err], #0\n"
#define PROBE_LOAD_U64 "ldr %[v], [%[addr]]"
#define PROBE_STORE_U64 "str %[v], [%[addr]]"
/* UDF #0 is permanently undefined: EC 0, "unknown reason". */
#define PROBE_UNDEFINED_INSN "udf #0"

#endif
