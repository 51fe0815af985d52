// SPDX-License-Identifier: MIT
/*
 * The arm64 vDSO: Linux's names and version (LINUX_2.6.39), the clocks
 * from the generic timer's virtual counter (CNTVCT_EL0, which the kernel
 * lets EL0 read) and the vvar page just below the image, the system call
 * when a clock is not served here. Built as its own shared object.
 */
#define VDSO_BUILD
#include <pagoda/types.h>
#include <pagoda/vdso.h>
#include "../include/asm/unistd.h" /* the fallbacks' numbers; -Iinclude only */

static inline u64 vdso_read_cycles(void)
{
	u64 v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

static inline long vdso_syscall2(long nr, long a, long b)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	return x0;
}

#include "../../../lib/vdso/gettimeofday.c"

int __kernel_clock_gettime(long clk, struct vdso_timespec *ts);
int __kernel_clock_gettime(long clk, struct vdso_timespec *ts)
{
	return do_clock_gettime(clk, ts);
}

int __kernel_gettimeofday(struct vdso_timeval *tv, void *tz);
int __kernel_gettimeofday(struct vdso_timeval *tv, void *tz)
{
	return do_gettimeofday(tv, tz);
}

int __kernel_clock_getres(long clk, struct vdso_timespec *res);
int __kernel_clock_getres(long clk, struct vdso_timespec *res)
{
	return do_clock_getres(clk, res);
}

/*
 * Where a signal handler returns when its action has no sa_restorer, as
 * glibc's on arm64 never has: the kernel points x30 at this (Linux's
 * sigreturn trampoline of the same name). The nop before it is Linux's
 * too: unwinders look one instruction before a return address. Its own
 * section, linked after the clocks' code.
 */
__asm__(".pushsection .text.sigreturn, \"ax\"\n"
	"\tnop\n"
	"\t.globl __kernel_rt_sigreturn\n"
	"\t.type __kernel_rt_sigreturn, %function\n"
	"__kernel_rt_sigreturn:\n"
	"\tmov x8, #139\n" /* rt_sigreturn */
	"\tsvc #0\n"
	"\t.size __kernel_rt_sigreturn, . - __kernel_rt_sigreturn\n"
	"\t.popsection");
