// SPDX-License-Identifier: MIT
/*
 * fork, wait4, execve and friends from a program's side: a child gets a
 * copy of memory (its writes stay its own), 0 from fork and its parent's
 * pid from getppid; the parent gets the child's pid, and wait4 gives the
 * exit status, WNOHANG answers 0 while the child runs, -ECHILD when there
 * are none; a child that execs /bin/hello is collected with hello's
 * status; a failed execve returns an errno and the program carries on;
 * kill ends a child with the signal as its status; FP/SIMD registers and
 * the thread pointer stay each process's own; pipes carry a child's
 * stdout to its parent, wait in both directions when empty or full, end
 * in end-of-file, and a write nobody reads is SIGPIPE or -EPIPE. Exits 0
 * when all hold,
 * else the number of the first check that failed.
 *
 * forktest spin: three children that never end and a parent waiting for
 * them, for the shell's Ctrl-C (the whole tree must go).
 */
#include <ulib.h>

#define ECHILD 10
#define ENOENT 2
#define WNOHANG 1
#define SIGTERM 15

static int failed;
static volatile long shared = 41;

#define CHECK(n, cond) ULIB_CHECK("forktest", failed, n, cond)

/*
 * Put a pattern in one FP/SIMD register and the thread pointer, yield many
 * times while another process does the same with its own, and read both
 * back: each process's must have been saved and restored around every
 * switch. The shim is built without FP code, so nothing else touches the
 * register between the asm statements.
 */
static int fp_and_tls_survive(unsigned long pattern)
{
	unsigned long fp_back, tp_back;

#if defined(__x86_64__)
	__asm__ volatile("movq %0, %%xmm5" : : "r"(pattern));
	syscall2(__NR_arch_prctl, 0x1002 /* ARCH_SET_FS */, pattern & 0x3ffffffff000UL);
#else
	__asm__ volatile("fmov d5, %0" : : "r"(pattern));
	__asm__ volatile("msr tpidr_el0, %0" : : "r"(pattern & 0x3ffffffff000UL));
#endif
	for (int i = 0; i < 200; i++)
		syscall0(__NR_sched_yield);
#if defined(__x86_64__)
	__asm__ volatile("movq %%xmm5, %0" : "=r"(fp_back));
	syscall2(__NR_arch_prctl, 0x1003 /* ARCH_GET_FS */, &tp_back);
#else
	__asm__ volatile("fmov %0, d5" : "=r"(fp_back));
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp_back));
#endif
	return fp_back == pattern && tp_back == (pattern & 0x3ffffffff000UL);
}

static long do_pipe(int fds[2])
{
	return syscall2(__NR_pipe2, fds, 0);
}

static long do_dup2(long oldfd, long newfd)
{
	return syscall3(__NR_dup3, oldfd, newfd, 0);
}

static long rd(int fd, void *buf, long n)
{
	return syscall3(__NR_read, fd, buf, n);
}

static long closefd(int fd)
{
	return syscall1(__NR_close, fd);
}

static unsigned char big[100000];

static long wait4(long pid, int *status, int options)
{
	return syscall6(__NR_wait4, pid, status, options, 0, 0, 0);
}

int main(int argc, char **argv, char **envp)
{
	static char *const hello_argv[] = { "/bin/hello", "from-exec", NULL };
	static char *const env[] = { "FORKTEST=1", NULL };
	long me = getpid(), pid, r;
	int status = -1;

	(void)envp;
	if (argc == 2 && !strcmp(argv[1], "spin")) {
		for (int i = 0; i < 3; i++)
			if (fork() == 0)
				for (;;)
					syscall0(__NR_sched_yield);
		printf("forktest: 3 children spinning\n");
		while (wait4(-1, &status, 0) > 0)
			;
		return 0;
	}
	CHECK(1, wait4(-1, &status, 0) == -ECHILD);

	/* 1. Memory is copied: the child's write stays in the child. */
	pid = fork();
	if (pid == 0) {
		shared = 7;
		if (syscall0(__NR_getppid) != me)
			exit(3);
		exit(shared == 7 ? 42 : 4);
	}
	CHECK(2, pid > 0 && pid != me);
	r = wait4(pid, &status, 0);
	CHECK(3, r == pid);
	CHECK(4, (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 42);
	CHECK(5, shared == 41);

	/* 2. WNOHANG while the child runs, then its status. */
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 20; i++)
			syscall0(__NR_sched_yield);
		exit(5);
	}
	r = wait4(pid, &status, WNOHANG);
	CHECK(6, r == 0 || r == pid);
	if (r == 0)
		r = wait4(-1, &status, 0);
	CHECK(7, r == pid && ((status >> 8) & 0xff) == 5);

	/* 3. A child that execs: collected with the new program's status. */
	pid = fork();
	if (pid == 0) {
		long e = syscall3(__NR_execve, "/bin/nonexistent", hello_argv, env);

		if (e != -ENOENT)
			exit(6);
		syscall3(__NR_execve, "/bin/hello", hello_argv, env);
		exit(7); /* only if execve failed */
	}
	r = wait4(pid, &status, 0);
	CHECK(8, r == pid && (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0);

	/* 4. kill: the child ends with the signal as its status. */
	pid = fork();
	if (pid == 0) {
		for (;;)
			syscall0(__NR_sched_yield);
	}
	CHECK(9, syscall2(__NR_kill, pid, SIGTERM) == 0);
	r = wait4(pid, &status, 0);
	CHECK(10, r == pid && (status & 0x7f) == SIGTERM);

	/* 5. Several children at once, collected in any order. */
	for (int i = 0; i < 4; i++) {
		pid = fork();
		if (pid == 0)
			exit(10 + i);
	}
	{
		int seen = 0;

		for (int i = 0; i < 4; i++) {
			r = wait4(-1, &status, 0);
			if (r > 0)
				seen |= 1 << (((status >> 8) & 0xff) - 10);
		}
		CHECK(11, seen == 0xf);
	}
	CHECK(12, wait4(-1, &status, WNOHANG) == -ECHILD);

	/* 6. FP/SIMD registers and the thread pointer are per process. */
	pid = fork();
	if (pid == 0)
		exit(fp_and_tls_survive(0x1122334455667788UL) ? 0 : 1);
	CHECK(13, fp_and_tls_survive(0x0badc0ffee000000UL));
	r = wait4(pid, &status, 0);
	CHECK(14, r == pid && status == 0);

	/* 7. A pipe: the child's stdout becomes the write end; the parent reads it to EOF. */
	{
		static const char msg[] = "hello through a pipe\n";
		char got[64];
		int fds[2];
		long n = 0, k;

		CHECK(15, do_pipe(fds) == 0 && fds[0] > 2 && fds[1] > 2);
		pid = fork();
		if (pid == 0) {
			do_dup2(fds[1], 1);
			closefd(fds[0]);
			closefd(fds[1]);
			write(1, msg, sizeof(msg) - 1);
			exit(0);
		}
		closefd(fds[1]);
		while ((k = rd(fds[0], got + n, (long)sizeof(got) - 1 - n)) > 0)
			n += k;
		got[n] = 0;
		CHECK(16, k == 0 && !strcmp(got, msg));
		CHECK(17, wait4(pid, &status, 0) == pid && status == 0);
		closefd(fds[0]);
	}

	/* 8. More than the pipe holds: writer and reader take turns waiting. */
	{
		int fds[2];
		long n = 0, k, bad = 0;

		do_pipe(fds);
		pid = fork();
		if (pid == 0) {
			closefd(fds[0]);
			for (unsigned long i = 0; i < sizeof(big); i++)
				big[i] = (unsigned char)(i * 7);
			exit(write(fds[1], big, sizeof(big)) == (long)sizeof(big) ? 0 : 1);
		}
		closefd(fds[1]);
		while ((k = rd(fds[0], big + n, (long)sizeof(big) - n)) > 0)
			n += k;
		for (unsigned long i = 0; i < sizeof(big); i++)
			bad += big[i] != (unsigned char)(i * 7);
		CHECK(18, n == (long)sizeof(big) && bad == 0);
		CHECK(19, wait4(pid, &status, 0) == pid && status == 0);
		closefd(fds[0]);
	}

	/* 9. Nobody reading: -EPIPE when SIGPIPE is ignored, else SIGPIPE ends the writer. */
	{
		unsigned long ign[4] = { 1 /* SIG_IGN */, 0, 0, 0 };
		int fds[2];

		do_pipe(fds);
		closefd(fds[0]);
		pid = fork();
		if (pid == 0) {
			write(fds[1], "x", 1);
			exit(9); /* only if SIGPIPE did not end it */
		}
		CHECK(20, wait4(pid, &status, 0) == pid && (status & 0x7f) == 13 /* SIGPIPE */);
		CHECK(21, syscall6(__NR_rt_sigaction, 13, ign, 0, 8, 0, 0) == 0);
		CHECK(22, write(fds[1], "x", 1) == -32 /* -EPIPE */);
		closefd(fds[1]);
	}
	if (!failed)
		printf("forktest: all checks passed\n");
	return failed;
}
