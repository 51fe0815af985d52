/* SPDX-License-Identifier: MIT */
/*
 * What the memory-mapping test programs (filemap, shmtest) share: they
 * both count SIGBUS on pages past what backs a mapping, fork children and
 * read their wait status, and print a system call's result as a short
 * word so that Linux's and Pagoda's output can be compared line by line.
 *
 * Include it from the program's one .c file only: it defines the signal
 * restorer (a global symbol) and static state.
 */
#ifndef USER_MMCHECK_H
#define USER_MMCHECK_H

#include <ulib.h>

#define PAGE 4096UL
#define SIGBUS 7
#define SA_SIGINFO 0x00000004
#define SA_RESTORER 0x04000000
#define MAP_SHARED 0x01
#define O_RDONLY 0

/* The handler's writes must be seen after the faulting access returns. */
#define barrier() __asm__ volatile("" ::: "memory")

/* The kernel's struct sigaction: no libc here to translate for us. */
struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};

/* Returning from the handler needs rt_sigreturn; a libc would supply this. */
void bus_restorer(void);
#if defined(__x86_64__)
__asm__(".text\n.globl bus_restorer\nbus_restorer:\n\tmov $15, %eax\n\tsyscall\n\thlt\n");
#else
__asm__(".text\n.globl bus_restorer\nbus_restorer:\n\tmov x8, #139\n\tsvc #0\n\tbrk #0\n");
#endif

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
static void on_bus(int sig, int *info, void *uc)
{
	(void)sig;
	(void)uc;
	buses++;
	bus_code = info[2];
	bus_addr = *(unsigned long *)(info + 4);
	mmap((void *)(bus_addr & ~(PAGE - 1)), PAGE, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

static inline void catch_sigbus(void)
{
	struct ksigaction sa = { (unsigned long)on_bus, SA_SIGINFO | SA_RESTORER,
				 (unsigned long)bus_restorer, 0 };

	syscall4(__NR_rt_sigaction, SIGBUS, &sa, NULL, 8);
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
