// SPDX-License-Identifier: MIT
/*
 * Signal handlers from a program's side, with Linux's frames: a handler
 * installed with rt_sigaction (SA_SIGINFO, SA_RESTORER and our own
 * restorer, as a libc does) runs when the program signals itself, is told
 * the signal and the sender in its siginfo, may clobber an FP/SIMD
 * register that rt_sigreturn then puts back, and returns into the
 * interrupted system call's return value. A blocked signal waits until it
 * is unblocked; a child spinning without system calls gets its handler
 * run from the timer's interrupt; a bad frame ends the program.
 * Exits 0 when all hold, else the first failed check's number.
 */
#include <ulib.h>

#define SIGUSR1 10
#define SIGUSR2 12

static volatile int got_sig, got_code, got_pid, handled;
static int failed;

#define CHECK(n, cond) ULIB_CHECK("sigtest", failed, n, cond)

static void set_fp(unsigned long v)
{
#if defined(__x86_64__)
	__asm__ volatile("movq %0, %%xmm6" : : "r"(v));
#else
	__asm__ volatile("fmov d6, %0" : : "r"(v));
#endif
}

static unsigned long get_fp(void)
{
	unsigned long v;

#if defined(__x86_64__)
	__asm__ volatile("movq %%xmm6, %0" : "=r"(v));
#else
	__asm__ volatile("fmov %0, d6" : "=r"(v));
#endif
	return v;
}

static void handler(int sig, const struct ksiginfo *info, void *uc)
{
	got_sig = sig;
	got_code = info->si_code;
	got_pid = info->si_pid;
	set_fp(0xdeadULL); /* rt_sigreturn must undo this */
	handled += uc != 0;
}

static void child_handler(int sig, const struct ksiginfo *info, void *uc)
{
	(void)info;
	(void)uc;
	exit(sig == SIGUSR2 ? 33 : 34);
}

static long sigaction_set(int sig, void (*h)(int, const struct ksiginfo *, void *))
{
	return ulib_sigaction(sig, h, SA_SIGINFO);
}

static long block(int how, unsigned long set)
{
	return syscall6(__NR_rt_sigprocmask, how, &set, 0, 8, 0, 0);
}

int main(int argc, char **argv, char **envp)
{
	long me = getpid(), r, pid;
	int status = -1;

	(void)argc;
	(void)argv;
	(void)envp;
	CHECK(1, sigaction_set(SIGUSR1, handler) == 0);

	/* 1. To itself: the handler runs before kill returns, kill still returns 0. */
	set_fp(0x600dULL);
	r = syscall2(__NR_kill, me, SIGUSR1);
	CHECK(2, r == 0);
	CHECK(3, handled == 1 && got_sig == SIGUSR1 && got_code == 0 /* SI_USER */ &&
		 got_pid == me);
	CHECK(4, get_fp() == 0x600dULL);

	/* 2. Blocked: it waits; unblocking delivers it. */
	CHECK(5, block(0 /* SIG_BLOCK */, 1UL << (SIGUSR1 - 1)) == 0);
	syscall2(__NR_kill, me, SIGUSR1);
	CHECK(6, handled == 1);
	block(1 /* SIG_UNBLOCK */, 1UL << (SIGUSR1 - 1));
	CHECK(7, handled == 2);

	/* 3. A child spinning in user mode: its handler runs from an interrupt's exit. */
	pid = fork();
	if (pid == 0) {
		sigaction_set(SIGUSR2, child_handler);
		syscall2(__NR_kill, syscall0(__NR_getppid), SIGUSR1); /* "ready" */
		for (volatile unsigned long i = 0;; i++)
			;
	}
	while (handled < 3) /* the child's "ready" */
		syscall0(__NR_sched_yield);
	CHECK(8, got_pid == pid);
	CHECK(9, syscall2(__NR_kill, pid, SIGUSR2) == 0);
	r = syscall6(__NR_wait4, pid, &status, 0, 0, 0, 0);
	CHECK(10, r == pid && status == (33 << 8));

	/*
	 * 4. A handler with no way back cannot run: SIGSEGV. On x86-64 that
	 * is any action without SA_RESTORER; on arm64 the kernel returns
	 * through the vDSO's __kernel_rt_sigreturn instead (glibc sets no
	 * restorer there), so the child first runs one that way, then
	 * unmaps the vDSO and tries again.
	 */
	pid = fork();
	if (pid == 0) {
		struct ksigaction sa = { (unsigned long)handler, SA_SIGINFO, 0, 0 };

		syscall6(__NR_rt_sigaction, SIGUSR2, &sa, 0, 8, 0, 0);
#ifdef __aarch64__
		handled = 0;
		syscall2(__NR_kill, getpid(), SIGUSR2);
		if (handled != 1)
			exit(2); /* the vDSO's trampoline did not bring it back */
		munmap((void *)(getauxval(AT_SYSINFO_EHDR) - 4096), 2 * 4096);
#endif
		syscall2(__NR_kill, getpid(), SIGUSR2);
		exit(1);
	}
	r = syscall6(__NR_wait4, pid, &status, 0, 0, 0, 0);
	CHECK(11, r == pid && (status & 0x7f) == 11 /* SIGSEGV */);
	if (!failed)
		printf("sigtest: all checks passed\n");
	return failed;
}
