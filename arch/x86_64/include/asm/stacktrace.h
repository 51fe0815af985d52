/* SPDX-License-Identifier: MIT */
/* What kernel/stacktrace.c's frame walk needs to know of x86-64. */
#ifndef ASM_STACKTRACE_H
#define ASM_STACKTRACE_H

/*
 * How far back from a return address the call stands: x86 calls vary in
 * length, so the return address itself names the caller.
 */
#define CALL_INSN_SIZE 0

#endif
