// SPDX-License-Identifier: MIT
/*
 * The x86-64 vDSO: Linux's names and version (LINUX_2.6), the clocks from
 * the TSC and the vvar page just below the image, the system call when a
 * clock is not served here. getcpu reads the CPU number the kernel put in
 * TSC_AUX (RDTSCP). Built as its own shared object (vdso.lds).
 */
#define VDSO_BUILD
#include <pagoda/types.h>
#include <pagoda/vdso.h>
#include "../include/asm/unistd.h" /* the fallbacks' numbers; -Iinclude only */

static inline u64 vdso_read_cycles(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline long vdso_syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return ret;
}

#include "../../../lib/vdso/gettimeofday.c"

int __vdso_clock_gettime(long clk, struct vdso_timespec *ts);
int __vdso_clock_gettime(long clk, struct vdso_timespec *ts)
{
	return do_clock_gettime(clk, ts);
}
int clock_gettime(long clk, struct vdso_timespec *ts)
	__attribute__((weak, alias("__vdso_clock_gettime")));

int __vdso_gettimeofday(struct vdso_timeval *tv, void *tz);
int __vdso_gettimeofday(struct vdso_timeval *tv, void *tz)
{
	return do_gettimeofday(tv, tz);
}
int gettimeofday(struct vdso_timeval *tv, void *tz)
	__attribute__((weak, alias("__vdso_gettimeofday")));

int __vdso_clock_getres(long clk, struct vdso_timespec *res);
int __vdso_clock_getres(long clk, struct vdso_timespec *res)
{
	return do_clock_getres(clk, res);
}
int clock_getres(long clk, struct vdso_timespec *res)
	__attribute__((weak, alias("__vdso_clock_getres")));

long __vdso_time(long *t);
long __vdso_time(long *t)
{
	struct vdso_timespec ts;
	long s = do_clock_gettime(0, &ts) ? -1 : ts.tv_sec;

	if (t)
		*t = s;
	return s;
}
long time(long *t) __attribute__((weak, alias("__vdso_time")));

long __vdso_getcpu(unsigned int *cpu, unsigned int *node, void *unused);
long __vdso_getcpu(unsigned int *cpu, unsigned int *node, void *unused)
{
	u32 lo, hi, aux;
	long ret;

	(void)unused;
	if (!vdso_data()->cpu_number_ok) {
		/* No RDTSCP on this CPU: ask the kernel. */
		__asm__ volatile("syscall"
				 : "=a"(ret)
				 : "a"((long)__NR_getcpu), "D"(cpu), "S"(node), "d"(0L)
				 : "rcx", "r11", "memory");
		return ret;
	}
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	if (cpu)
		*cpu = aux & 0xfff;
	if (node)
		*node = aux >> 12;
	return 0;
}
long getcpu(unsigned int *cpu, unsigned int *node, void *unused)
	__attribute__((weak, alias("__vdso_getcpu")));
