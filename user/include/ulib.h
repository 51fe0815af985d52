/* SPDX-License-Identifier: MIT */
/*
 * A minimal libc shim for Pagoda's own test programs: Linux system calls
 * by number (the kernel's <asm/unistd.h>), the process's start-up view
 * (argc, argv, envp, the auxiliary vector) and a small printf. Programs
 * built on it are ordinary static Linux executables: they run on Linux too.
 */
#ifndef ULIB_H
#define ULIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <asm/unistd.h>

#ifndef __NR_brk
#error "asm/unistd.h lacks the numbers this shim needs"
#endif

long __syscall6(long nr, long a, long b, long c, long d, long e, long f);
#define syscall0(n) __syscall6(n, 0, 0, 0, 0, 0, 0)
#define syscall1(n, a) __syscall6(n, (long)(a), 0, 0, 0, 0, 0)
#define syscall2(n, a, b) __syscall6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define syscall3(n, a, b, c) __syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define syscall4(n, a, b, c, d) __syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define syscall6(n, a, b, c, d, e, f) \
	__syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

struct timespec {
	long tv_sec, tv_nsec;
};

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define PROT_READ 1
#define PROT_WRITE 2
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define SIGCHLD 17
#define AT_SYSINFO_EHDR 33

extern int ulib_argc;
extern char **ulib_argv, **ulib_envp;
extern unsigned long *ulib_auxv;
unsigned long getauxval(unsigned long type);
/* A vDSO function by its name, or NULL (no vDSO, no such symbol). */
void *vdso_sym(const char *name);

long write(int fd, const void *buf, size_t n);
__attribute__((noreturn)) void exit(int code);
long getpid(void);
long fork(void);
void *sbrk(long delta);
void *mmap(void *addr, size_t len, int prot, int flags, int fd, long off);
int munmap(void *addr, size_t len);
int clock_gettime(int clk, struct timespec *ts);

size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int main(int argc, char **argv, char **envp);

/*
 * Signal handlers as the kernel installs them: rt_sigaction takes Linux's
 * own struct sigaction (not a libc's), and a handler returns through a
 * restorer that calls rt_sigreturn, which a libc would supply.
 */
#define SA_SIGINFO 0x00000004
#define SA_RESTORER 0x04000000
struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};
/* The start of Linux's siginfo_t on a 64-bit arch: what the handlers here read. */
struct ksiginfo {
	int si_signo, si_errno, si_code, __pad;
	union {
		unsigned long si_addr;   /* SIGSEGV, SIGBUS: the address */
		struct {
			int si_pid;      /* kill(): the sender */
			unsigned int si_uid;
		};
	};
};
/* The restorer (user/arch/): rt_sigreturn, as a libc's __restore_rt. */
void ulib_restorer(void);
/*
 * rt_sigaction(sig) to handler with flags, SA_RESTORER and ulib_restorer
 * added, nothing blocked while it runs: 0 or -errno.
 */
long ulib_sigaction(int sig, void *handler, unsigned long flags);

/*
 * A numbered check in a test program: the first to fail is printed as
 * "PROG: check N failed: COND" and its number kept in first, which the
 * program exits with (0: every check held).
 */
#define ULIB_CHECK(prog, first, n, cond)                                    \
	do {                                                                \
		if (!(cond) && !(first)) {                                  \
			printf(prog ": check %d failed: %s\n", n, #cond);   \
			(first) = n;                                        \
		}                                                           \
	} while (0)

#endif
