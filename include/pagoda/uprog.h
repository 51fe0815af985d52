/* SPDX-License-Identifier: MIT */
/*
 * The tiny user programs of the process tests (kernel/process_test.c).
 * Each arch writes them in its own machine code (arch/<arch>/uprog.c);
 * what the test relies on is the same on both and is written once here:
 * the names it starts them at, the block they sit in (copied whole into
 * one user page, so position independent), and the length of the message
 * uprog_hello writes. An arch's file is one top-level asm statement:
 *
 *   __asm__(UPROG_BEGIN ...its programs... UPROG_END);
 */
#ifndef PAGODA_UPROG_H
#define PAGODA_UPROG_H

#include <pagoda/types.h>

extern const char uprog_start[], uprog_end[], uprog_hello[], uprog_exit_arg[];
extern const char uprog_load[], uprog_write_arg[], uprog_syscall_arg[];
extern const u32 uprog_hello_len;

#define UPROG_BEGIN							\
	".pushsection .rodata.uprog, \"a\"\n"				\
	".balign 16\n"							\
	".globl uprog_start, uprog_end, uprog_hello, uprog_exit_arg, uprog_load\n" \
	".globl uprog_write_arg, uprog_syscall_arg, uprog_hello_len\n"	\
	"uprog_start:\n"

/* 21: strlen("hello from user mode\n"), what uprog_hello writes. */
#define UPROG_END							\
	"uprog_end:\n"							\
	".balign 4\n"							\
	"uprog_hello_len: .long 21\n"					\
	".popsection\n"

#endif
