/* SPDX-License-Identifier: MIT */
/* What kernel/stacktrace.c's frame walk needs to know of arm64. */
#ifndef ASM_STACKTRACE_H
#define ASM_STACKTRACE_H

/*
 * How far back from a return address the call stands: the address is
 * the instruction after the BL, so step back one to name the BL itself.
 */
#define CALL_INSN_SIZE 4

#endif
