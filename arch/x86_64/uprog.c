// SPDX-License-Identifier: MIT
/*
 * Tiny user programs for the process tests (kernel/process_test.c), in
 * x86-64 machine code: position independent, so the test copies the whole
 * block into one user page and starts at any of the labels. Each takes
 * its argument in RDI (arch_enter_user() puts it there) and ends with
 * exit_group(), so its wait status says what it saw. arch/arm64/uprog.c
 * has the same programs under the same names; pagoda/uprog.h holds
 * what the test relies on.
 */
#include <pagoda/uprog.h>

__asm__(UPROG_BEGIN

	/* write(1, msg, len); exit_group(what write returned) */
	"uprog_hello:\n"
	"	mov $1, %eax\n"
	"	mov $1, %edi\n"
	"	lea 1f(%rip), %rsi\n"
	"	mov $(2f - 1f), %edx\n"
	"	syscall\n"
	"	mov %eax, %edi\n"
	"	mov $231, %eax\n"
	"	syscall\n"
	"1:	.ascii \"hello from user mode\\n\"\n"
	"2:\n"

	/* exit_group(arg) */
	"uprog_exit_arg:\n"
	"	mov $231, %eax\n"
	"	syscall\n"

	/* exit_group(*(u64 *)arg): a bad address ends in SIGSEGV */
	"uprog_load:\n"
	"	mov (%rdi), %rdi\n"
	"	mov $231, %eax\n"
	"	syscall\n"

	/* exit_group(write(1, arg, 8)) */
	"uprog_write_arg:\n"
	"	mov %rdi, %rsi\n"
	"	mov $1, %edi\n"
	"	mov $8, %edx\n"
	"	mov $1, %eax\n"
	"	syscall\n"
	"	mov %eax, %edi\n"
	"	mov $231, %eax\n"
	"	syscall\n"

	/* exit_group(syscall number arg, no arguments) */
	"uprog_syscall_arg:\n"
	"	mov %rdi, %rax\n"
	"	xor %edi, %edi\n"
	"	syscall\n"
	"	mov %eax, %edi\n"
	"	mov $231, %eax\n"
	"	syscall\n"
	UPROG_END);
