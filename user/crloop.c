// SPDX-License-Identifier: MIT
/*
 * crloop TICKS [novdso] [quiet]: the seed's busyloop00 shape for checkpoint/
 * restore. One process reads CLOCK_MONOTONIC through the vDSO pointer it
 * looked up at start (or, with novdso, unmaps [vvar] and [vdso] first and
 * uses the system call), prints "crloop: tick N" every 200 ms of that
 * clock, and at the end checks that the clock never went back and that a
 * 64 KiB buffer it filled at start still holds its pattern. Its exit
 * status is the number of failures, so a restore that loses a page,
 * a register or the clock shows. quiet leaves out the ticks (bench cr).
 */
#include "crlib.h"

#define BUF_BYTES (64 * 1024)

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	long ticks = 0, last = 0, next;
	int backwards = 0, errors = 0;
	unsigned char *buf;
	int novdso = 0, quiet = 0;

	for (const char *s = argc > 1 ? argv[1] : "20"; *s >= '0' && *s <= '9'; s++)
		ticks = ticks * 10 + (*s - '0');
	for (int i = 2; i < argc; i++) {
		novdso |= !strcmp(argv[i], "novdso");
		quiet |= !strcmp(argv[i], "quiet");
	}
	if (novdso) {
		unsigned long base = getauxval(AT_SYSINFO_EHDR), size = cr_vdso_size();

		if (!base || !size || munmap((void *)(base - 4096), size + 4096)) {
			printf("crloop: cannot unmap the vDSO\n");
			return 1;
		}
	} else {
		cr_vclock = (cr_clock_t)cr_vdso_sym(CR_CLOCK_NAME);
		if (!cr_vclock) {
			printf("crloop: no %s in the vDSO\n", CR_CLOCK_NAME);
			return 1;
		}
	}
	buf = mmap(NULL, BUF_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (long i = 0; i < BUF_BYTES; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	printf("crloop: pid %ld, %s\n", getpid(), cr_vclock ? "vDSO clock" : "no vDSO");
	next = cr_now_ns();
	for (long t = 1; t <= ticks; t++) {
		next += 200 * 1000000L;
		cr_wait_until(next, &last, &backwards);
		if (!quiet)
			printf("crloop: tick %ld\n", t);
	}
	for (long i = 0; i < BUF_BYTES; i++)
		if (buf[i] != (unsigned char)(i * 7 + 3)) {
			errors++;
			break;
		}
	errors += backwards;
	printf("crloop: done, %d errors (clock back %d times)\n", errors, backwards);
	return errors;
}
