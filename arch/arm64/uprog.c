// SPDX-License-Identifier: MIT
/*
 * Tiny user programs for the process tests (kernel/process_test.c), in
 * arm64 machine code: position independent, so the test copies the whole
 * block into one user page and starts at any of the labels. Each takes
 * its argument in x0 (arch_enter_user() puts it there) and ends with
 * exit_group(), so its wait status says what it saw. arch/x86_64/uprog.c
 * has the same programs under the same names; pagoda/uprog.h holds
 * what the test relies on.
 */
#include <pagoda/uprog.h>

__asm__(UPROG_BEGIN

	/* write(1, msg, len); exit_group(what write returned) */
	"uprog_hello:\n"
	"	mov x0, #1\n"
	"	adr x1, 1f\n"
	"	mov x2, #(2f - 1f)\n"
	"	mov x8, #64\n"
	"	svc #0\n"
	"	mov x8, #94\n"
	"	svc #0\n"
	"1:	.ascii \"hello from user mode\\n\"\n"
	"2:\n"
	"	.balign 4\n"

	/* exit_group(arg) */
	"uprog_exit_arg:\n"
	"	mov x8, #94\n"
	"	svc #0\n"

	/* exit_group(*(u64 *)arg): a bad address ends in SIGSEGV */
	"uprog_load:\n"
	"	ldr x0, [x0]\n"
	"	mov x8, #94\n"
	"	svc #0\n"

	/* exit_group(write(1, arg, 8)) */
	"uprog_write_arg:\n"
	"	mov x1, x0\n"
	"	mov x0, #1\n"
	"	mov x2, #8\n"
	"	mov x8, #64\n"
	"	svc #0\n"
	"	mov x8, #94\n"
	"	svc #0\n"

	/* exit_group(syscall number arg, no arguments) */
	"uprog_syscall_arg:\n"
	"	mov x8, x0\n"
	"	mov x0, xzr\n"
	"	svc #0\n"
	"	mov x8, #94\n"
	"	svc #0\n"
	UPROG_END);
