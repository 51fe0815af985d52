// SPDX-License-Identifier: MIT
/*
 * An ordinary C program, built unmodified against a real libc (Debian's
 * musl-gcc and glibc's gcc -static, x86-64): if it runs, Pagoda runs
 * static Linux binaries. It uses what such programs use: stdio with
 * floating point, malloc (small from brk, big from mmap), strtod, the
 * environment, the terminal (isatty, tcgetattr, TIOCGWINSZ), clocks, fork
 * and waitpid, signal handlers, with FP work in parent and child
 * at once (their FP registers must survive each other's context switches).
 *
 *   libctest            all checks; exit status = failed checks
 *   libctest clock N    N clock_gettime(CLOCK_MONOTONIC) calls, nothing
 *                       else: the kernel counts the system calls this
 *                       makes, to prove the libc takes the vDSO
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>
#include <sys/wait.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>

static int failures;
static volatile sig_atomic_t got_usr1, got_usr2_code = -1;

static void on_usr1(int sig)
{
	got_usr1 = sig;
}

static void on_usr2(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	got_usr2_code = info->si_code;
}

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("libctest: FAIL: %s\n", what);
		failures++;
	}
}

/* A float series whose every step is exact in binary: any lost register shows. */
static double series(double seed, int n)
{
	double x = seed;

	for (int i = 0; i < n; i++) {
		x = x * 0.5 + 1.0;
		if (i % 64 == 0)
			sched_yield();
	}
	return x;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	char buf[64];
	char *small, *big;
	pid_t pid;
	int status = -1;

	if (argc == 3 && !strcmp(argv[1], "clock")) {
		long n = strtol(argv[2], NULL, 10);

		for (long i = 0; i < n; i++)
			clock_gettime(CLOCK_MONOTONIC, &a);
		return 0;
	}
	snprintf(buf, sizeof(buf), "%.3f %g %e", 3.14159, 0.1 + 0.2, 12345.678);
	check(!strcmp(buf, "3.142 0.3 1.234568e+04"), "printf of doubles");
	check(strtod("2.5e3", NULL) == 2500.0, "strtod");
	small = malloc(100);
	big = malloc(4 << 20);
	check(small && big, "malloc small and big");
	if (small && big) {
		memset(small, 1, 100);
		memset(big, 2, 4 << 20);
		check(small[99] == 1 && big[(4 << 20) - 1] == 2, "malloc'd memory holds");
	}
	free(big);
	free(small);
	check(getenv("PATH") != NULL, "an environment");
	{
		struct winsize ws;
		struct termios tio;

		check(isatty(1) == 1, "stdout is a terminal (the console)");
		check(tcgetattr(1, &tio) == 0 && (tio.c_lflag & ICANON), "tcgetattr");
		check(ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 && ws.ws_row > 0,
		      "the terminal's size");
	}
	check(clock_gettime(CLOCK_MONOTONIC, &a) == 0, "clock_gettime");
	check(clock_gettime(CLOCK_MONOTONIC, &b) == 0 &&
	      (b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec)),
	      "the monotonic clock does not go back");
	check(time(NULL) > 1600000000, "the wall clock is set");

	/* Handlers through the libc's own signal(), sigaction() and restorer. */
	{
		struct sigaction sa;

		check(signal(SIGUSR1, on_usr1) != SIG_ERR, "signal()");
		check(raise(SIGUSR1) == 0 && got_usr1 == SIGUSR1, "a handler runs on raise()");
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_usr2;
		sa.sa_flags = SA_SIGINFO;
		check(sigaction(SIGUSR2, &sa, NULL) == 0, "sigaction()");
		check(kill(getpid(), SIGUSR2) == 0 && got_usr2_code == SI_USER,
		      "an SA_SIGINFO handler is told who sent it");
	}

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(series(3.0, 2000) == 2.0 ? 0 : 1);
	check(pid > 0, "fork");
	check(series(7.0, 2000) == 2.0, "FP in the parent while the child computes");
	check(waitpid(pid, &status, 0) == pid, "waitpid");
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "FP in the child");
	printf("libctest: %s, %d failed\n", failures ? "FAILED" : "all checks passed", failures);
	return failures;
}
