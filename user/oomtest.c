// SPDX-License-Identifier: MIT
/*
 * oomtest: what a program sees of overcommit and the OOM killer.
 *
 *   oomtest          a hog (a child) takes about 70% of free memory and
 *                    waits; then the parent touches about 50% more. The
 *                    machine runs out under the parent's touch, and the
 *                    killer must choose the hog, the larger process, so
 *                    the parent finishes and the hog dies of SIGKILL.
 *                    Before the killer existed, the toucher died instead.
 *   oomtest commit   promises under vm.overcommit_memory (mm/util.c): a
 *                    writable private mapping of 60% of RAM, the same
 *                    with MAP_NORESERVE, a read-only one made writable,
 *                    and a fork of a process holding 30% (the child is
 *                    promised it again). Mode 0 grants all of them; mode
 *                    2 (CommitLimit 50% of RAM) refuses what passes it.
 *
 * Lines are "case: answer", so the same static binary's output can be set
 * beside Linux's. Sizes come from sysinfo(2), so the answers do not
 * depend on how much memory the machine has.
 */
#include <ulib.h>

#define PAGE 4096UL
#define MAP_NORESERVE 0x4000
#define SIGKILL 9

struct sysinfo_view {
	long uptime;
	unsigned long loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char rest[8];
};

static const char *errname(long r)
{
	switch (-r) {
	case 12: return "ENOMEM";
	case 11: return "EAGAIN";
	case 22: return "EINVAL";
	default: return "other";
	}
}

static long do_fork(void)
{
#ifdef __NR_fork
	return syscall0(__NR_fork);
#else
	return syscall2(__NR_clone, 17 /* SIGCHLD */, 0);
#endif
}

static long wait_child(long pid, int *status)
{
	return syscall4(__NR_wait4, pid, status, 0, 0);
}

static void memory(unsigned long *total, unsigned long *free_bytes)
{
	struct sysinfo_view si;

	memset(&si, 0, sizeof(si));
	syscall1(__NR_sysinfo, &si);
	*total = si.totalram * si.mem_unit;
	*free_bytes = si.freeram * si.mem_unit;
}

static int failed(void *m)
{
	return (unsigned long)m >= -4096UL;
}

/* Touch [m, m + len) a page at a time (the shim's mmap gives -errno on failure). */
static void touch(char *m, unsigned long len)
{
	for (unsigned long off = 0; off < len; off += PAGE)
		m[off] = 1;
}

static int oom_kill(void)
{
	unsigned long total, free_bytes, hog, mine;
	int fds[2], status = 0;
	char c = 0;
	long pid;
	char *m;

	memory(&total, &free_bytes);
	hog = free_bytes / 10 * 7 & ~(PAGE - 1);
	mine = free_bytes / 2 & ~(PAGE - 1);
	if (syscall2(__NR_pipe2, fds, 0))
		return 1;
	pid = do_fork();
	if (pid == 0) {
		m = mmap(NULL, hog, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (failed(m))
			exit(2);
		touch(m, hog);
		write(fds[1], "h", 1);
		for (;;) {
			struct timespec hour = { 3600, 0 };

			syscall4(__NR_clock_nanosleep, CLOCK_MONOTONIC, 0, &hour, NULL);
		}
	}
	syscall1(__NR_close, fds[1]); /* the hog's death ends the read, whatever it was */
	if (pid < 0 || syscall3(__NR_read, fds[0], &c, 1) != 1) {
		wait_child(pid, &status);
		printf("oom: the hog did not start (status 0x%x)\n", status);
		return 1;
	}
	printf("oom: hog holds 70 percent of free memory\n");
	m = mmap(NULL, mine, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (failed(m)) {
		printf("oom: mmap 50 percent: %s\n", errname((long)m));
		return 1;
	}
	touch(m, mine);
	printf("oom: toucher touched 50 percent of free memory\n");
	wait_child(pid, &status);
	if ((status & 0x7f) == SIGKILL)
		printf("oom: hog killed by SIGKILL\n");
	else
		printf("oom: hog ended with status 0x%x\n", status);
	munmap(m, mine);
	return 0;
}

static void show(const char *what, void *m)
{
	printf("%s: %s\n", what, failed(m) ? errname((long)m) : "granted");
}

static int commit(void)
{
	unsigned long total, free_bytes, big, third;
	int status = 0;
	long pid;
	char *m;

	memory(&total, &free_bytes);
	big = total / 10 * 6 & ~(PAGE - 1);
	third = total / 10 * 3 & ~(PAGE - 1);

	m = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	show("commit: mmap 60% writable", m);
	if (!failed(m))
		munmap(m, big);
	m = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	show("commit: mmap 60% writable, MAP_NORESERVE", m);
	if (!failed(m))
		munmap(m, big);
	m = mmap(NULL, big, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	show("commit: mmap 60% read-only", m);
	if (!failed(m)) {
		long r = syscall3(__NR_mprotect, m, big, PROT_READ | PROT_WRITE);

		printf("commit: mprotect it writable: %s\n", r ? errname(r) : "granted");
		munmap(m, big);
	}
	m = mmap(NULL, third, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	show("commit: mmap 30% writable", m);
	if (!failed(m)) {
		pid = do_fork();
		if (pid == 0)
			exit(0);
		if (pid > 0)
			wait_child(pid, &status);
		printf("commit: fork holding it: %s\n", pid > 0 ? "granted" : errname(pid));
		munmap(m, third);
	}
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	int r;

	(void)envp;
	r = argc > 1 && !strcmp(argv[1], "commit") ? commit() : oom_kill();
	printf("oomtest: done\n");
	return r;
}
