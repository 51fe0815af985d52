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

#define AT_SYSINFO_EHDR 33

#ifdef __x86_64__
#define CR_CLOCK_NAME "__vdso_clock_gettime"
#else
#define CR_CLOCK_NAME "__kernel_clock_gettime"
#endif

typedef int (*cr_clock_t)(long, struct timespec *);

struct cr_elf_sym {
	uint32_t st_name;
	unsigned char st_info, st_other;
	uint16_t st_shndx;
	uint64_t st_value, st_size;
};

/* PT_DYNAMIC's tables; the vDSO is linked at 0, so values are offsets from base. */
static inline void *cr_vdso_sym(const char *name)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const uint64_t *dyn = NULL;
	const struct cr_elf_sym *syms = NULL;
	const char *strs = NULL;
	unsigned long nsyms = 0;

	if (!base)
		return NULL;
	for (unsigned int i = 0; i < *(const uint16_t *)(base + 56); i++) {
		const unsigned char *ph = base + *(const uint64_t *)(base + 32) + i * 56;

		if (*(const uint32_t *)ph == 2)
			dyn = (const uint64_t *)(base + *(const uint64_t *)(ph + 8));
	}
	for (; dyn && dyn[0]; dyn += 2) {
		if (dyn[0] == 4) /* DT_HASH: its second word counts the symbols */
			nsyms = ((const uint32_t *)(base + dyn[1]))[1];
		else if (dyn[0] == 5)
			strs = (const char *)(base + dyn[1]);
		else if (dyn[0] == 6)
			syms = (const struct cr_elf_sym *)(base + dyn[1]);
	}
	for (unsigned long i = 1; syms && strs && i < nsyms; i++)
		if (syms[i].st_shndx && !strcmp(strs + syms[i].st_name, name))
			return (void *)(base + syms[i].st_value);
	return NULL;
}

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
 * Wait until the clock reaches until, yielding between reads; count the
 * reads that went back in time.
 */
static inline long cr_wait_until(long until, long *last, int *backwards)
{
	long t;

	do {
		t = cr_now_ns();
		if (t < *last)
			(*backwards)++;
		*last = t;
		cr_yield();
	} while (t < until);
	return t;
}

#endif
