// SPDX-License-Identifier: MIT
/*
 * The shim's arm64 half: the entry point, the system call instruction,
 * and the signal restorer (rt_sigreturn is 139).
 */

__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	mov x29, xzr\n"       /* the end of every stack trace */
	"	mov x30, xzr\n"
	"	mov x0, sp\n"         /* argc, argv, envp, auxv */
	"	bl ulib_start\n"
	"	brk #0\n");

__asm__(".text\n.globl ulib_restorer\nulib_restorer:\n\tmov x8, #139\n\tsvc #0\n\tbrk #0\n");

long __syscall6(long nr, long a, long b, long c, long d, long e, long f);
long __syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}
