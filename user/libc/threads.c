/*
 * Threads through a real libc's pthreads: an ordinary C program, built
 * unmodified and static against musl and glibc, whose every line was
 * first seen on Linux (the system test runs the same binary on the host
 * and compares). It prints one line per check, then "threads: done"; the
 * exit code is the number of failed checks.
 *
 *   create/join    N threads each add to a counter under a mutex
 *   condvar        threads take turns by a condition variable (wait, broadcast)
 *   tls            __thread variables are each thread's own
 *   tid            gettid() differs per thread, getpid() is the same
 *   munmap         a thread on another CPU faults (SIGSEGV) on a page the
 *                  main thread unmapped: the TLB entry went from every CPU
 *   churn          threads touch their pages while another maps and unmaps
 *   pthread_kill   the signal runs its handler in the thread it was sent to
 *   robust         a robust mutex whose owner ended is EOWNERDEAD
 *   exit_group     exit() from a thread ends the whole process with its code
 *   leader         a process whose first thread ended is waited for until
 *                  its last thread ends
 *   exec           execve from a thread that is not the leader ends the
 *                  others: the new program is the process's one thread
 *   cpu clocks     CLOCK_PROCESS_CPUTIME_ID counts every thread's time,
 *                  CLOCK_THREAD_CPUTIME_ID the caller's alone
 *   futex errors   the raw call's answers: EAGAIN, EFAULT, EINVAL, ENOSYS,
 *                  ETIMEDOUT, EINTR (a signal), as Linux gives them
 *   close/read     a thread closes the pipe end another thread is blocked
 *                  reading: the read holds the file, so it goes on and
 *                  returns what is written next (the kernel's fget())
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "errno_name.h"

#define NTHREADS 4

static int fails;

static void check(int ok, const char *what)
{
	printf("threads: %s: %s\n", what, ok ? "ok" : "FAIL");
	fflush(stdout);
	if (!ok)
		fails++;
}

static long my_tid(void)
{
	return syscall(SYS_gettid);
}

/* --- create/join and a mutex ------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *adder(void *arg)
{
	for (int i = 0; i < 20000; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return arg;
}

static void test_create_join(void)
{
	pthread_t t[NTHREADS];
	int ok = 1;

	for (long i = 0; i < NTHREADS; i++)
		ok &= pthread_create(&t[i], NULL, adder, (void *)i) == 0;
	for (long i = 0; i < NTHREADS; i++) {
		void *ret = NULL;

		ok &= pthread_join(t[i], &ret) == 0 && ret == (void *)i;
	}
	check(ok && counter == NTHREADS * 20000L, "create/join with a mutex");
}

/* --- a condition variable: threads take turns ----------------------------- */

static pthread_cond_t turn_cv = PTHREAD_COND_INITIALIZER;
static int turn, order[NTHREADS * 3], norder;

static void *taker(void *arg)
{
	int me = (int)(long)arg;

	for (int round = 0; round < 3; round++) {
		pthread_mutex_lock(&lock);
		while (turn % NTHREADS != me)
			pthread_cond_wait(&turn_cv, &lock);
		order[norder++] = me;
		turn++;
		pthread_cond_broadcast(&turn_cv);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void test_condvar(void)
{
	pthread_t t[NTHREADS];
	int ok = 1;

	/* Started last first, so most of them must wait for their turn. */
	for (long i = NTHREADS - 1; i >= 0; i--)
		ok &= pthread_create(&t[i], NULL, taker, (void *)i) == 0;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < NTHREADS * 3; i++)
		ok &= order[i] == i % NTHREADS;
	check(ok && norder == NTHREADS * 3, "condvar turns");
}

/* --- thread-local storage and ids ---------------------------------------- */

static __thread long tls_value = 7;
static long seen_tid[NTHREADS], seen_pid[NTHREADS];

static void *tls_thread(void *arg)
{
	long me = (long)arg;
	int ok = tls_value == 7; /* each thread starts with the initial value */

	tls_value = 100 + me;
	seen_tid[me] = my_tid();
	seen_pid[me] = getpid();
	usleep(1000);
	return (void *)(long)(ok && tls_value == 100 + me);
}

static void test_tls(void)
{
	pthread_t t[NTHREADS];
	int ok = 1, ids = 1;

	tls_value = 1;
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, tls_thread, (void *)i);
	for (int i = 0; i < NTHREADS; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		ok &= ret == (void *)1;
	}
	check(ok && tls_value == 1, "thread-local storage");
	for (int i = 0; i < NTHREADS; i++) {
		ids &= seen_pid[i] == getpid() && seen_tid[i] != getpid() && seen_tid[i] > 0;
		for (int j = 0; j < i; j++)
			ids &= seen_tid[i] != seen_tid[j];
	}
	check(ids && my_tid() == getpid(), "gettid per thread, getpid shared");
}

/* --- munmap seen by a thread on another CPU --------------------------------- */

static volatile int *victim;
static volatile int phase, parked;
static sigjmp_buf segv_jump;
static volatile int got_segv;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got_segv = si->si_addr == (void *)victim && si->si_code == SEGV_MAPERR;
	siglongjmp(segv_jump, 1);
}

static void *reader(void *arg)
{
	long sum = 0;

	(void)arg;
	/* Read the page until told it is gone: its TLB entry is on this CPU. */
	while (phase == 0)
		sum += *victim;
	parked = 1; /* off the page: the main thread may unmap it now */
	while (phase == 1)
		;
	if (!sigsetjmp(segv_jump, 1))
		sum += *victim; /* must fault: the page is gone everywhere */
	return (void *)sum;
}

static void test_munmap_other_cpu(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	pthread_t t;

	sigaction(SIGSEGV, &sa, NULL);
	victim = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*victim = 1;
	pthread_create(&t, NULL, reader, NULL);
	usleep(20000); /* the reader has read it many times */
	phase = 1;
	while (!parked)
		;
	munmap((void *)victim, 4096);
	phase = 2;
	pthread_join(t, NULL);
	signal(SIGSEGV, SIG_DFL);
	check(got_segv, "munmap by one thread faults another (SEGV_MAPERR)");
}

/* --- touch while another thread maps and unmaps ------------------------------ */

static volatile int churn_stop;

static void *toucher(void *arg)
{
	char *mine = arg;
	long rounds = 0;

	while (!churn_stop) {
		for (int i = 0; i < 16; i++)
			mine[i * 4096] = (char)(rounds + i);
		for (int i = 0; i < 16; i++)
			if (mine[i * 4096] != (char)(rounds + i))
				return (void *)0;
		rounds++;
	}
	return (void *)1;
}

static void test_churn(void)
{
	pthread_t t[2];
	char *own[2];
	int ok = 1;

	for (int i = 0; i < 2; i++) {
		own[i] = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
		pthread_create(&t[i], NULL, toucher, own[i]);
	}
	for (int i = 0; i < 200; i++) {
		char *m = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED) {
			ok = 0;
			break;
		}
		memset(m, i, 8 * 4096);
		mprotect(m, 4096, PROT_READ);
		ok &= m[8 * 4096 - 1] == (char)i;
		munmap(m, 8 * 4096);
	}
	churn_stop = 1;
	for (int i = 0; i < 2; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		ok &= ret == (void *)1;
		munmap(own[i], 16 * 4096);
	}
	check(ok, "touch while another thread maps and unmaps");
}

/* --- pthread_kill ------------------------------------------------------------- */

static volatile long handler_tid;
static volatile int target_ready, target_go;

static void on_usr1(int sig)
{
	(void)sig;
	handler_tid = my_tid();
}

static void *target(void *arg)
{
	*(long *)arg = my_tid();
	target_ready = 1;
	while (!handler_tid)
		usleep(1000);
	return NULL;
}

static void test_pthread_kill(void)
{
	pthread_t t;
	long tid = 0;
	sigset_t set;

	signal(SIGUSR1, on_usr1);
	/* The main thread blocks it: the handler can only run in the target. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_create(&t, NULL, target, &tid);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	while (!target_ready)
		usleep(1000);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	check(handler_tid == tid && tid != getpid(), "pthread_kill runs the handler in its thread");
	/* A signal to the process goes to a thread that does not block it. */
	handler_tid = 0;
	target_ready = 0;
	pthread_sigmask(SIG_UNBLOCK, &set, NULL); /* a new thread starts with its creator's mask */
	pthread_create(&t, NULL, target, &tid);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	while (!target_ready)
		usleep(1000);
	kill(getpid(), SIGUSR1);
	pthread_join(t, NULL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	check(handler_tid == tid, "kill goes to the thread that does not block it");
	signal(SIGUSR1, SIG_DFL);
}

/* --- a robust mutex whose owner ended ---------------------------------------- */

static pthread_mutex_t robust;

static void *die_holding(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&robust);
	return NULL; /* ends holding it */
}

static void test_robust(void)
{
	pthread_mutexattr_t a;
	pthread_t t;
	int r;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust, &a);
	pthread_create(&t, NULL, die_holding, NULL);
	pthread_join(t, NULL);
	r = pthread_mutex_lock(&robust);
	check(r == EOWNERDEAD, "robust mutex of an ended owner: EOWNERDEAD");
	pthread_mutex_consistent(&robust);
	pthread_mutex_unlock(&robust);
}

/* --- exit_group from a thread, and a leader that ends first ------------------- */

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *exiter(void *arg)
{
	(void)arg;
	usleep(10000);
	exit(7); /* exit_group: the sleepers end too */
}

static int pipefd[2];

static void *last_one(void *arg)
{
	(void)arg;
	usleep(50000);
	write(pipefd[1], "x", 1);
	return NULL;
}

/* The child's side of the leader check, in a fresh image (musl's fork leaves its tid word unset). */
static int leader_child(void)
{
	pthread_t t;

	pthread_create(&t, NULL, last_one, NULL);
	pthread_exit(NULL); /* the leader ends; the process lives on */
}

static void test_exit_group(const char *self)
{
	int status = -1;
	pid_t pid = fork();
	char c;

	if (!pid) {
		pthread_t t;

		for (int i = 0; i < 3; i++)
			pthread_create(&t, NULL, sleeper, NULL);
		pthread_create(&t, NULL, exiter, NULL);
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 7, "exit from a thread ends them all");

	pipe(pipefd);
	pid = fork();
	if (!pid) {
		char fd[16];

		snprintf(fd, sizeof(fd), "%d", pipefd[1]);
		execl(self, self, "leader", fd, (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && read(pipefd[0], &c, 1) == 1,
	      "the leader is waited for until the last thread ends");
}

/* --- execve from a thread ------------------------------------------------------------- */

/* The new image's side: how many threads /proc says the process has (Linux: 1). */
static int exec_child(void)
{
	char buf[4096];
	int fd = open("/proc/self/status", O_RDONLY), n;
	const char *t;

	if (fd < 0)
		return 2;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	t = strstr(buf, "Threads:");
	return t && atoi(t + 8) == 1 ? 0 : 3;
}

static const char *exec_self;

static void *execer(void *arg)
{
	(void)arg;
	usleep(20000);
	execl(exec_self, exec_self, "exec-child", (char *)NULL);
	return NULL;
}

static void test_exec_from_thread(const char *self)
{
	int status = -1;
	pid_t pid = fork();

	if (!pid) {
		pthread_t t;

		exec_self = self;
		for (int i = 0; i < 2; i++)
			pthread_create(&t, NULL, sleeper, NULL);
		pthread_create(&t, NULL, execer, NULL);
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "execve from a thread leaves the new program alone");
}

/* --- CPU-time clocks ---------------------------------------------------------------- */

static long long clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *spin_30ms(void *arg)
{
	long long start = clock_ns(CLOCK_THREAD_CPUTIME_ID);

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - start < 30000000LL)
		;
	return arg;
}

static void test_cpu_clocks(void)
{
	long long p0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID), t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, spin_30ms, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/*
	 * The process's clock has the spinners' 60 ms on top of the main
	 * thread's own time (read first, so it is no more than the main
	 * thread's share of the process's).
	 */
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	check(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - p0 >= 60000000LL + t0,
	      "process CPU clock counts every thread");
}

/* --- the futex call's own answers ------------------------------------------------ */

static long futex(void *uaddr, int op, unsigned int val, const struct timespec *t,
		  void *uaddr2, unsigned int val3)
{
	return syscall(SYS_futex, uaddr, op, val, t, uaddr2, val3);
}

static const char *err_name(long r)
{
	return r >= 0 ? "ok" : errno_name(errno);
}

static void on_usr2(int sig)
{
	(void)sig;
}

static pthread_t futex_waiter_thread;
static volatile int interrupter_go;

static void *interrupter(void *arg)
{
	(void)arg;
	usleep(50000);
	pthread_kill(futex_waiter_thread, SIGUSR2);
	return NULL;
}

static void test_futex_errors(void)
{
	static unsigned int word = 5, unaligned[2];
	struct timespec short_wait = { 0, 20000000 }, bad = { 0, 1000000000 };
	struct sigaction sa = { .sa_handler = on_usr2 };
	unsigned int bitset_word = 0;
	pthread_t t;

	printf("threads: futex wait, wrong value: %s\n", err_name(futex(&word, 0, 4, NULL, NULL, 0)));
	printf("threads: futex wait, NULL: %s\n", err_name(futex(NULL, 0, 0, NULL, NULL, 0)));
	printf("threads: futex wait, unaligned: %s\n",
	       err_name(futex((char *)unaligned + 1, 0, 0, NULL, NULL, 0)));
	printf("threads: futex wait, bad timeout: %s\n", err_name(futex(&word, 0, 5, &bad, NULL, 0)));
	printf("threads: futex wait, 20 ms: %s\n", err_name(futex(&word, 0, 5, &short_wait, NULL, 0)));
	printf("threads: futex wake_bitset, bitset 0: %s\n",
	       err_name(futex(&bitset_word, 10, 1, NULL, NULL, 0)));
	printf("threads: futex wake, nobody: %ld\n", futex(&word, 1 | 128, 1, NULL, NULL, 0));
	printf("threads: futex op 99: %s\n", err_name(futex(&word, 99, 0, NULL, NULL, 0)));
	printf("threads: futex wake with CLOCK_REALTIME: %s\n",
	       err_name(futex(&word, 1 | 256, 1, NULL, NULL, 0)));
	/* A handler that returns: the wait ends with EINTR (no SA_RESTART). */
	sigaction(SIGUSR2, &sa, NULL);
	futex_waiter_thread = pthread_self();
	pthread_create(&t, NULL, interrupter, NULL);
	printf("threads: futex wait, signal: %s\n", err_name(futex(&word, 0 | 128, 5, NULL, NULL, 0)));
	pthread_join(t, NULL);
	signal(SIGUSR2, SIG_DFL);
}

/* --- a descriptor closed under a blocked read -------------------------- */

static int closing[2];
static char got_byte;
static long got_n = -2;
static volatile int reading;

static void *blocked_reader(void *arg)
{
	(void)arg;
	reading = 1;
	got_n = read(closing[0], &got_byte, 1);
	return NULL;
}

static void test_close_under_read(void)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	pthread_t t;

	if (pipe(closing)) {
		check(0, "close under a blocked read: pipe");
		return;
	}
	pthread_create(&t, NULL, blocked_reader, NULL);
	while (!reading)
		nanosleep(&tick, NULL);
	nanosleep(&tick, NULL); /* into read() and asleep there */
	close(closing[0]);
	if (write(closing[1], "x", 1) != 1)
		got_n = -3;
	pthread_join(t, NULL);
	check(got_n == 1 && got_byte == 'x',
	      "close by one thread, the blocked read of another returns the next write");
	close(closing[1]);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "exec-child"))
		return exec_child();
	if (argc == 3 && !strcmp(argv[1], "leader")) {
		pipefd[1] = atoi(argv[2]);
		return leader_child();
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_create_join();
	test_condvar();
	test_tls();
	test_munmap_other_cpu();
	test_churn();
	test_pthread_kill();
	test_robust();
	test_exit_group(argv[0]);
	test_exec_from_thread(argv[0]);
	test_cpu_clocks();
	test_futex_errors();
	test_close_under_read();
	printf("threads: done\n");
	return fails;
}
