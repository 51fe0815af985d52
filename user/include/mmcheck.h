/* SPDX-License-Identifier: MIT */
/*
 * What the memory-mapping test programs (filemap, shmtest) share: they
 * both count SIGBUS on pages past what backs a mapping, fork children and
 * read their wait status, and print a system call's result as a short
 * word so that Linux's and Pagoda's output can be compared line by line.
 *
 * Include it from the program's one .c file only: it defines static
 * state. The SIGBUS handler returns through ulib's restorer.
 */
#ifndef USER_MMCHECK_H
#define USER_MMCHECK_H

#include <ulib.h>

#define PAGE 4096UL
#define SIGBUS 7
#define MAP_SHARED 0x01
#define O_RDONLY 0

/* The handler's writes must be seen after the faulting access returns. */
#define barrier() __asm__ volatile("" ::: "memory")

/* arm64 has no open(2), only openat(2). */
#ifdef __NR_open
#define sys_open(path, flags) syscall3(__NR_open, path, flags, 0)
#else
#define sys_open(path, flags) syscall4(__NR_openat, -100 /* AT_FDCWD */, path, flags, 0)
#endif

static volatile int buses, bus_code;
static volatile unsigned long bus_addr;

/*
 * Note the SIGBUS (si_code and si_addr from the siginfo), then put a
 * zeroed private page there so the access goes through on return.
 */
static void on_bus(int sig, const struct ksiginfo *info, void *uc)
{
	(void)sig;
	(void)uc;
	buses++;
	bus_code = info->si_code;
	bus_addr = info->si_addr;
	mmap((void *)(bus_addr & ~(PAGE - 1)), PAGE, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

static inline void catch_sigbus(void)
{
	ulib_sigaction(SIGBUS, on_bus, SA_SIGINFO);
}

/* A result as the word both kernels' output shows: "granted" or its errno. */
static inline const char *answer(long r)
{
	if (r >= 0 || r < -4095)
		return "granted";
	switch (-r) {
	case 2: return "ENOENT";
	case 9: return "EBADF";
	case 12: return "ENOMEM";
	case 13: return "EACCES";
	case 17: return "EEXIST";
	case 19: return "ENODEV";
	case 22: return "EINVAL";
	default: return "other";
	}
}

static inline int wait_status(long pid)
{
	int status = 0;

	syscall4(__NR_wait4, pid, &status, 0, 0);
	return status;
}

#endif
