/* SPDX-License-Identifier: MIT */
/*
 * What the checkpoint/restore test programs (crloop, crtree) share: the
 * vDSO's clock looked up once and kept as a pointer, as a libc keeps it,
 * so that after a restore on a kernel with another vDSO the call goes
 * through the jump left at the old address; and the few system calls
 * they make.
 */
#ifndef USER_CRLIB_H
#define USER_CRLIB_H

#include <ulib.h>

#ifdef __x86_64__
#define CR_CLOCK_NAME "__vdso_clock_gettime"
#else
#define CR_CLOCK_NAME "__kernel_clock_gettime"
#endif

typedef int (*cr_clock_t)(long, struct timespec *);

/*
 * The vDSO's size in bytes, as mapped: its file, whose section headers
 * lie past its one PT_LOAD.
 */
static inline unsigned long cr_vdso_size(void)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);

	if (!base)
		return 0;
	return (*(const uint64_t *)(base + 40) + *(const uint16_t *)(base + 60) * 64UL + 4095) &
	       ~4095UL;
}

static cr_clock_t cr_vclock; /* NULL: the system call */

static inline long cr_now_ns(void)
{
	struct timespec t;

	if (cr_vclock)
		cr_vclock(CLOCK_MONOTONIC, &t);
	else
		syscall2(__NR_clock_gettime, CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

static inline long cr_pipe(int fds[2])
{
	return syscall2(__NR_pipe2, fds, 0);
}

static inline long cr_read(int fd, void *buf, long n)
{
	return syscall3(__NR_read, fd, buf, n);
}

static inline long cr_close(int fd)
{
	return syscall1(__NR_close, fd);
}

static inline long cr_wait(long pid, int *status)
{
	return syscall6(__NR_wait4, pid, status, 0, 0, 0, 0);
}

static inline void cr_yield(void)
{
	syscall0(__NR_sched_yield);
}

/*
 * Wait until the clock reaches until, yielding between reads unless
 * spin (then no system call at all: the freeze must catch it in user
 * mode); count the reads that went back in time.
 */
static inline long cr_wait_until(long until, long *last, int *backwards, int spin)
{
	long t;

	do {
		t = cr_now_ns();
		if (t < *last)
			(*backwards)++;
		*last = t;
		if (!spin)
			cr_yield();
	} while (t < until);
	return t;
}

#endif
