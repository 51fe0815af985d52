// SPDX-License-Identifier: MIT
/*
 * The shim's x86-64 half: the entry point, the system call instruction,
 * and the signal restorer (rt_sigreturn is 15).
 */

__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	xor %ebp, %ebp\n"     /* the end of every stack trace */
	"	mov %rsp, %rdi\n"     /* argc, argv, envp, auxv */
	"	and $-16, %rsp\n"
	"	call ulib_start\n"
	"	hlt\n");

__asm__(".text\n.globl ulib_restorer\nulib_restorer:\n\tmov $15, %eax\n\tsyscall\n\thlt\n");

long __syscall6(long nr, long a, long b, long c, long d, long e, long f);
long __syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
