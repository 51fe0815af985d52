// SPDX-License-Identifier: MIT
/*
 * crloop TICKS [novdso] [quiet] [spin]: the seed's busyloop00 shape for checkpoint/
 * restore. One process reads CLOCK_MONOTONIC through the vDSO pointer it
 * looked up at start (or, with novdso, unmaps [vvar] and [vdso] first and
 * uses the system call), prints "crloop: tick N" every 200 ms of that
 * clock, and at the end checks that the clock never went back, that a
 * 64 KiB buffer it filled at start still holds its pattern, that the 100
 * bytes it left in a pipe at start are still there to read, and that
 * /etc/motd, opened at start and read halfway, reads on from the middle,
 * and that the SIGUSR1 handler and the blocked SIGUSR2 it set at start
 * are still its own (a signal to itself runs the handler, once).
 * Its exit status is the number of failures, so a restore that loses a
 * page, a register, the clock, a pipe's bytes, a file offset or a signal
 * action shows. quiet leaves out the ticks (bench cr). spin reads the
 * clock with no sched_yield between reads, so it is nearly always in
 * the vDSO when an interrupt comes (kernel/cr/freeze_test.c).
 */
#include "crlib.h"

#define BUF_BYTES (64 * 1024)
#define AT_FDCWD -100
#define SIGUSR1 10
#define SIGUSR2 12

static volatile int handled;

static void on_usr1(int sig)
{
	handled += sig == SIGUSR1;
}

static int signals_start(void)
{
	unsigned long block = 1UL << (SIGUSR2 - 1);

	return ulib_sigaction(SIGUSR1, on_usr1, 0) != 0 ||
	       syscall6(__NR_rt_sigprocmask, 0, &block, 0, 8, 0, 0) != 0;
}

/* The handler still installed, SIGUSR2 still blocked. */
static int signals_end(void)
{
	unsigned long mask = 0;

	syscall6(__NR_kill, getpid(), SIGUSR1, 0, 0, 0, 0);
	syscall6(__NR_rt_sigprocmask, 0, 0, &mask, 8, 0, 0);
	return (handled != 1) + !(mask & (1UL << (SIGUSR2 - 1)));
}

/* Left in a pipe at start, read back at the end: restore must carry them. */
static int pipe_check_start(int p[2])
{
	unsigned char b[100];

	for (int i = 0; i < 100; i++)
		b[i] = (unsigned char)(i * 13 + 1);
	return cr_pipe(p) || write(p[1], b, sizeof(b)) != sizeof(b);
}

static int pipe_check_end(int p[2])
{
	unsigned char b[101];

	if (cr_read(p[0], b, sizeof(b)) != 100)
		return 1;
	for (int i = 0; i < 100; i++)
		if (b[i] != (unsigned char)(i * 13 + 1))
			return 1;
	return 0;
}

/* The second half of /etc/motd, read on from the offset the first half left. */
static int file_check_end(int fd, const char *first, long n)
{
	char all[256], rest[256];
	int whole = syscall3(__NR_openat, AT_FDCWD, "/etc/motd", 0);
	long total = whole >= 0 ? cr_read(whole, all, sizeof(all)) : -1;
	long got = cr_read(fd, rest, sizeof(rest));

	if (whole < 0 || total <= n || got != total - n)
		return 1;
	for (long i = 0; i < n; i++)
		if (first[i] != all[i])
			return 1;
	for (long i = 0; i < got; i++)
		if (rest[i] != all[n + i])
			return 1;
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	long ticks = 0, last = 0, next;
	int backwards = 0, errors = 0;
	unsigned char *buf;
	int novdso = 0, quiet = 0, spin = 0, p[2], fd;
	char first[32];
	long n;

	for (const char *s = argc > 1 ? argv[1] : "20"; *s >= '0' && *s <= '9'; s++)
		ticks = ticks * 10 + (*s - '0');
	for (int i = 2; i < argc; i++) {
		novdso |= !strcmp(argv[i], "novdso");
		quiet |= !strcmp(argv[i], "quiet");
		spin |= !strcmp(argv[i], "spin");
	}
	if (novdso) {
		unsigned long base = getauxval(AT_SYSINFO_EHDR), size = cr_vdso_size();

		if (!base || !size || munmap((void *)(base - 4096), size + 4096)) {
			printf("crloop: cannot unmap the vDSO\n");
			return 1;
		}
	} else {
		cr_vclock = (cr_clock_t)vdso_sym(CR_CLOCK_NAME);
		if (!cr_vclock) {
			printf("crloop: no %s in the vDSO\n", CR_CLOCK_NAME);
			return 1;
		}
	}
	buf = mmap(NULL, BUF_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (long i = 0; i < BUF_BYTES; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	errors += pipe_check_start(p) + signals_start();
	fd = syscall3(__NR_openat, AT_FDCWD, "/etc/motd", 0);
	n = fd >= 0 ? cr_read(fd, first, sizeof(first)) : -1;
	errors += n != sizeof(first);
	printf("crloop: pid %ld, %s\n", getpid(), cr_vclock ? "vDSO clock" : "no vDSO");
	next = cr_now_ns();
	for (long t = 1; t <= ticks; t++) {
		next += 200 * 1000000L;
		cr_wait_until(next, &last, &backwards, spin);
		if (!quiet)
			printf("crloop: tick %ld\n", t);
	}
	for (long i = 0; i < BUF_BYTES; i++)
		if (buf[i] != (unsigned char)(i * 7 + 3)) {
			errors++;
			break;
		}
	errors += pipe_check_end(p) + file_check_end(fd, first, n) + signals_end();
	errors += backwards;
	printf("crloop: done, %d errors (clock back %d times)\n", errors, backwards);
	return errors;
}
