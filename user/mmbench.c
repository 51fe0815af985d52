// SPDX-License-Identifier: MIT
/*
 * mmbench: what a process's life costs, measured from user mode so that
 * the same static binary runs on Pagoda (`bench mm`) and on Debian's Linux
 * in the same QEMU (tools/linuxpeer.py). One run prints one line per case:
 *
 *	mm: CASE VALUE UNIT
 *
 * fork_exit_wait   fork, the child _exits, the parent waits (us)
 * fork_exec_wait   the same, the child execs this program first (us)
 * page_fault       first write to each 4 KiB page of 64 MiB (ns per page);
 *                  a kernel with transparent huge pages (Debian's Linux:
 *                  "always") may fill the area 2 MiB at a fault
 * page_fault_4k    the same after madvise(MADV_NOHUGEPAGE): a fault per
 *                  4 KiB page on every kernel
 * mmap_munmap      map 64 KiB anonymous, unmap it, untouched (ns per pair)
 * pipe_pingpong    one byte there and back between two processes, one on
 *                  CPU 0 and one on CPU 1 (us per round trip)
 * pipe_bandwidth   32 MiB through a pipe in 64 KiB writes, writer and
 *                  reader on different CPUs (MiB/s)
 * pipe_stream      2 MiB through a pipe in 512-byte writes and reads, writer
 *                  and reader on different CPUs, as Debian's stress-ng pipe
 *                  stressor moves it (us per write)
 * getpid           the system call's round trip (ns)
 *
 * With arguments, only the cases they name run (`mmbench page_fault_4k`),
 * each once.
 *
 * Built against glibc, static (user/user.mk): a real libc, no dynamic
 * loader, so both kernels run the very same file. Timed with
 * CLOCK_MONOTONIC through the vDSO. The harness runs it five times and
 * takes the median; a failed call prints "mm: CASE failed: WHY" and the
 * program goes on with the next case.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FORKS 200
#define EXECS 100
#define FAULT_BYTES (64UL << 20)
#define PAGE 4096UL
#define MAPS 4000
#define MAP_BYTES (64UL << 10)
#define PINGS 2000
#define PIPE_BYTES (32UL << 20)
#define PIPE_CHUNK (64UL << 10)
#define STREAM_BYTES (2UL << 20)
#define STREAM_CHUNK 512UL
#define GETPIDS 100000

static const char *self = "/bin/mmbench";

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void report(const char *name, double value, const char *unit)
{
	printf("mm: %s %.1f %s\n", name, value, unit);
	fflush(stdout);
}

static void failed(const char *name, const char *what)
{
	printf("mm: %s failed: %s: %s\n", name, what, strerror(errno));
	fflush(stdout);
}

/* Pin the caller to one CPU; a kernel or machine with one CPU keeps it where it is. */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Wait for pid; false (and a message) unless it exited with status 0. */
static int reap(const char *name, pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid) {
		failed(name, "waitpid");
		return 0;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("mm: %s failed: child status 0x%x\n", name, status);
		return 0;
	}
	return 1;
}

/*
 * What a process's life costs, in us per round: fork, the child exits (or
 * first execs this program with --exit, which exits at once), wait.
 */
static void bench_child(const char *name, int rounds, int exec)
{
	long long t0 = now_ns();

	for (int i = 0; i < rounds; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return failed(name, "fork");
		if (pid == 0 && exec) {
			char *argv[] = { (char *)self, "--exit", NULL };
			char *envp[] = { NULL };

			execve(self, argv, envp);
			_exit(127);
		}
		if (pid == 0)
			_exit(0);
		if (!reap(name, pid))
			return;
	}
	report(name, (now_ns() - t0) / 1000.0 / rounds, "us");
}

/*
 * Touch 64 MiB of fresh anonymous memory, one write per 4 KiB page. With
 * no_huge the area is first marked MADV_NOHUGEPAGE, so that Linux with
 * transparent huge pages takes one fault per 4 KiB page as well; a
 * kernel without them (Pagoda) takes the advice and changes nothing.
 */
static void bench_fault(const char *name, int no_huge)
{
	volatile char *p = mmap(NULL, FAULT_BYTES, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long long t0;

	if (p == MAP_FAILED)
		return failed(name, "mmap 64 MiB");
	if (no_huge && madvise((void *)p, FAULT_BYTES, MADV_NOHUGEPAGE)) {
		failed(name, "madvise MADV_NOHUGEPAGE");
		munmap((void *)p, FAULT_BYTES);
		return;
	}
	t0 = now_ns();
	for (unsigned long off = 0; off < FAULT_BYTES; off += PAGE)
		p[off] = 1;
	report(name, (double)(now_ns() - t0) / (FAULT_BYTES / PAGE), "ns");
	munmap((void *)p, FAULT_BYTES);
}

static void bench_mmap(void)
{
	long long t0 = now_ns();

	for (int i = 0; i < MAPS; i++) {
		void *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return failed("mmap_munmap", "mmap");
		if (munmap(p, MAP_BYTES))
			return failed("mmap_munmap", "munmap");
	}
	report("mmap_munmap", (double)(now_ns() - t0) / MAPS, "ns");
}

/*
 * The child of the pipe cases: echo each byte back (ping-pong: out is the
 * way back) or drain the pipe, chunk bytes a read.
 */
static void pipe_child(int in, int out, size_t chunk)
{
	static char buf[PIPE_CHUNK];
	ssize_t n;

	pin(1);
	while ((n = read(in, buf, out >= 0 ? 1 : chunk)) > 0)
		if (out >= 0 && write(out, buf, n) != n)
			_exit(1);
	_exit(n < 0);
}

static void bench_pingpong(void)
{
	int there[2], back[2];
	char c = 'x';
	long long t0;
	pid_t pid;

	if (pipe(there) || pipe(back))
		return failed("pipe_pingpong", "pipe");
	pid = fork();
	if (pid < 0)
		return failed("pipe_pingpong", "fork");
	if (pid == 0) {
		close(there[1]);
		close(back[0]);
		pipe_child(there[0], back[1], 1);
	}
	close(there[0]);
	close(back[1]);
	pin(0);
	/* One round trip first: the child is running and pinned before timing. */
	t0 = 0;
	for (int i = -1; i < PINGS; i++) {
		if (i == 0)
			t0 = now_ns();
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1) {
			failed("pipe_pingpong", "pipe I/O");
			break;
		}
	}
	if (t0)
		report("pipe_pingpong", (now_ns() - t0) / 1000.0 / PINGS, "us");
	close(there[1]);
	reap("pipe_pingpong", pid);
	close(back[0]);
}

/*
 * bytes through a pipe in chunk-sized writes and reads, the reader on CPU 1;
 * the nanoseconds from the first write until the reader has exited with
 * everything read, or -1.
 */
static long long pipe_through(const char *name, unsigned long bytes, size_t chunk)
{
	static char buf[PIPE_CHUNK];
	long long t0;
	int fd[2];
	pid_t pid;

	if (pipe(fd)) {
		failed(name, "pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		failed(name, "fork");
		return -1;
	}
	if (pid == 0) {
		close(fd[1]);
		pipe_child(fd[0], -1, chunk);
	}
	close(fd[0]);
	pin(0);
	memset(buf, 'y', sizeof(buf));
	t0 = now_ns();
	for (unsigned long sent = 0; sent < bytes;) {
		ssize_t n = write(fd[1], buf, chunk);

		if (n <= 0) {
			failed(name, "write");
			break;
		}
		sent += n;
	}
	close(fd[1]);
	return reap(name, pid) ? now_ns() - t0 : -1;
}

static void bench_bandwidth(void)
{
	long long ns = pipe_through("pipe_bandwidth", PIPE_BYTES, PIPE_CHUNK);

	if (ns > 0)
		report("pipe_bandwidth", (PIPE_BYTES / 1048576.0) / (ns / 1e9), "MiB/s");
}

static void bench_stream(void)
{
	long long ns = pipe_through("pipe_stream", STREAM_BYTES, STREAM_CHUNK);

	if (ns > 0)
		report("pipe_stream", ns / 1000.0 / (STREAM_BYTES / STREAM_CHUNK), "us");
}

static void bench_getpid(void)
{
	long long t0 = now_ns();

	for (int i = 0; i < GETPIDS; i++)
		syscall(SYS_getpid);
	report("getpid", (double)(now_ns() - t0) / GETPIDS, "ns");
}

static void bench_fault_any(void)
{
	bench_fault("page_fault", 0);
}

static void bench_fault_4k(void)
{
	bench_fault("page_fault_4k", 1);
}

static void bench_fork_exit(void)
{
	bench_child("fork_exit_wait", FORKS, 0);
}

static void bench_fork_exec(void)
{
	bench_child("fork_exec_wait", EXECS, 1);
}

/* Every case, in the order a run prints them. */
static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "fork_exit_wait", bench_fork_exit },
	{ "fork_exec_wait", bench_fork_exec },
	{ "page_fault", bench_fault_any },
	{ "page_fault_4k", bench_fault_4k },
	{ "mmap_munmap", bench_mmap },
	{ "pipe_pingpong", bench_pingpong },
	{ "pipe_bandwidth", bench_bandwidth },
	{ "pipe_stream", bench_stream },
	{ "getpid", bench_getpid },
};

int main(int argc, char **argv)
{
	int n = sizeof(cases) / sizeof(cases[0]);

	if (argc > 1 && !strcmp(argv[1], "--exit"))
		return 0;
	if (argc > 0 && argv[0][0] == '/')
		self = argv[0];
	for (int i = 0; i < n; i++) {
		int wanted = argc < 2;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], cases[i].name);
		if (wanted)
			cases[i].run();
	}
	for (int a = 1; a < argc; a++) {
		int known = 0;

		for (int i = 0; i < n; i++)
			known |= !strcmp(argv[a], cases[i].name);
		if (!known)
			printf("mm: %s failed: no such case\n", argv[a]);
	}
	printf("mm: done\n");
	return 0;
}
