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
 *   oomtest adj-file /proc/self/oom_score_adj as a program writes it: the
 *                    range, bad text, a newline, the value read back
 *   oomtest adj      a hog holds 50% of free memory with oom_score_adj
 *                    -1000, a smaller process 30% with 1000; the parent
 *                    touches 30% more: the killer must choose the smaller
 *                    one (its adj outweighs its size), never the hog
 *   oomtest init-spared
 *                    run as init (rdinit=/bin/oomtest -- init-spared): init
 *                    itself holds 70% of free memory, a child touches 50%
 *                    more. The killer must choose the child, though init is
 *                    larger: Linux never chooses init (oom_unkillable_task),
 *                    whose death would end the system.
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
	case 13: return "EACCES";
	default: return "other";
	}
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

/* "/proc/self/FILE" or "/proc/PID/FILE" (ulib has no snprintf). */
static void snprintf_path(char *out, long pid, const char *file)
{
	char digits[24];
	int n = 0;

	memcpy(out, "/proc/", 6);
	out += 6;
	if (!pid) {
		memcpy(out, "self", 4);
		out += 4;
	} else {
		while (pid) {
			digits[n++] = (char)('0' + pid % 10);
			pid /= 10;
		}
		while (n)
			*out++ = digits[--n];
	}
	*out++ = '/';
	memcpy(out, file, strlen(file) + 1);
}

static int failed(void *m)
{
	return (unsigned long)m >= -4096UL;
}

/*
 * len bytes of private anonymous memory, every page touched so that it is
 * really held; failed() when the mmap was refused (the shim's mmap gives
 * -errno then).
 */
static char *map_touched(unsigned long len)
{
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!failed(m))
		for (unsigned long off = 0; off < len; off += PAGE)
			m[off] = 1;
	return m;
}

/*
 * The shortage oom_kill() and init_spared() make: one process holds 70
 * percent of free memory, another then touches 50 percent. Whole pages.
 */
static void shortage(unsigned long *hog, unsigned long *toucher)
{
	unsigned long total, free_bytes;

	memory(&total, &free_bytes);
	*hog = free_bytes / 10 * 7 & ~(PAGE - 1);
	*toucher = free_bytes / 2 & ~(PAGE - 1);
}

static int oom_kill(void)
{
	unsigned long hog, mine;
	int fds[2], status = 0;
	char c = 0;
	long pid;
	char *m;

	shortage(&hog, &mine);
	if (syscall2(__NR_pipe2, fds, 0))
		return 1;
	pid = fork();
	if (pid == 0) {
		m = map_touched(hog);
		if (failed(m))
			exit(2);
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
	m = map_touched(mine);
	if (failed(m)) {
		printf("oom: mmap 50 percent: %s\n", errname((long)m));
		return 1;
	}
	printf("oom: toucher touched 50 percent of free memory\n");
	wait_child(pid, &status);
	if ((status & 0x7f) == SIGKILL)
		printf("oom: hog killed by SIGKILL\n");
	else
		printf("oom: hog ended with status 0x%x\n", status);
	munmap(m, mine);
	return 0;
}

/*
 * The same shortage as oom_kill(), with the roles turned: init is the hog.
 * The child is forked first and waits for init's touch, so it shares none
 * of init's pages: it is the smaller process, and still the one chosen.
 */
static int init_spared(void)
{
	unsigned long hog, theirs;
	int fds[2], status = 0;
	char c = 0;
	long pid;
	char *m;

	shortage(&hog, &theirs);
	if (syscall2(__NR_pipe2, fds, 0))
		return 1;
	pid = fork();
	if (pid == 0) {
		char *t;

		syscall1(__NR_close, fds[1]);
		if (syscall3(__NR_read, fds[0], &c, 1) != 1)
			exit(3); /* init is gone */
		t = map_touched(theirs);
		if (failed(t))
			exit(2);
		exit(0);
	}
	syscall1(__NR_close, fds[0]);
	if (pid < 0) {
		printf("init: fork: %s\n", errname(pid));
		return 1;
	}
	m = map_touched(hog);
	if (failed(m)) {
		printf("init: mmap 70 percent: %s\n", errname((long)m));
		return 1;
	}
	printf("init: holds 70 percent of free memory\n");
	write(fds[1], "t", 1);
	if (wait_child(pid, &status) != pid) {
		printf("init: wait failed\n");
		return 1;
	}
	if ((status & 0x7f) == SIGKILL)
		printf("init: the child touching 50 percent was killed by SIGKILL; init lives\n");
	else
		printf("init: the child ended with status 0x%x\n", status);
	munmap(m, hog);
	return 0;
}

#define O_RDONLY 0
#define O_WRONLY 1
#ifdef __NR_open
#define sys_open(path, flags) syscall3(__NR_open, path, flags, 0)
#else
#define sys_open(path, flags) syscall4(__NR_openat, -100 /* AT_FDCWD */, path, flags, 0)
#endif

/* Write text to a /proc file of pid (0: self): 0 or the -errno of the open or write. */
static long proc_put(long pid, const char *file, const char *text)
{
	char path[64];
	long fd, r;

	snprintf_path(path, pid, file);
	fd = sys_open(path, O_WRONLY);
	if (fd < 0)
		return fd;
	r = write((int)fd, text, strlen(text));
	syscall1(__NR_close, fd);
	return r < 0 ? r : 0;
}

/* The number a /proc file of pid holds (its first line). */
static long proc_get(long pid, const char *file)
{
	char path[64], buf[32];
	long fd, n, v = 0, sign = 1;

	snprintf_path(path, pid, file);
	fd = sys_open(path, O_RDONLY);
	if (fd < 0)
		return -99999;
	n = syscall3(__NR_read, fd, buf, sizeof(buf) - 1);
	syscall1(__NR_close, fd);
	for (long i = 0; i < n && buf[i] != '\n'; i++) {
		if (buf[i] == '-')
			sign = -1;
		else
			v = v * 10 + (buf[i] - '0');
	}
	return sign * v;
}

/*
 * Only values at or above the present one: lowering it needs
 * CAP_SYS_RESOURCE on Linux, which a host's test user may lack.
 */
static int adj_file(void)
{
	static const char *const texts[] = { "1001", "-1001", "abc", "", "500\n" };

	for (unsigned int i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		long r = proc_put(0, "oom_score_adj", texts[i]);

		printf("adj-file: write %s: %s, reads %ld\n",
		       texts[i][0] == 0 ? "(empty)" : texts[i][0] == '5' ? "500 and a newline" :
		       texts[i], r ? errname(r) : "ok", proc_get(0, "oom_score_adj"));
	}
	printf("adj-file: oom_score within 0..2000: %s\n",
	       proc_get(0, "oom_score") >= 0 && proc_get(0, "oom_score") <= 2000 ? "yes" : "no");
	proc_put(0, "oom_score_adj", "0");
	return 0;
}

/*
 * A child that takes bytes of memory, sets its adj, says so on fd, and
 * waits: until killed, or until its parent is gone (so a run that goes
 * wrong leaves no holder behind).
 */
static long holder(unsigned long bytes, const char *adj, int fd)
{
	long parent = syscall0(__NR_getpid), pid = fork();
	char *m;

	if (pid)
		return pid;
	proc_put(0, "oom_score_adj", adj);
	m = map_touched(bytes);
	if (failed(m))
		exit(2);
	write(fd, "h", 1);
	while (syscall0(__NR_getppid) == parent) {
		struct timespec tick = { 0, 50 * 1000 * 1000 };

		syscall4(__NR_clock_nanosleep, CLOCK_MONOTONIC, 0, &tick, NULL);
	}
	exit(3);
}

static int oom_adj(void)
{
	unsigned long total, free_bytes, mine;
	int fds[2], status = 0;
	long hog, small;
	char c[2];
	char *m;

	memory(&total, &free_bytes);
	mine = free_bytes / 2 & ~(PAGE - 1);
	if (syscall2(__NR_pipe2, fds, 0))
		return 1;
	/* 50% + 30% held, 30% touched: killing the small one is enough. */
	mine = free_bytes / 10 * 3 & ~(PAGE - 1);
	hog = holder(free_bytes / 10 * 5 & ~(PAGE - 1), "-1000", fds[1]);
	small = holder(free_bytes / 10 * 3 & ~(PAGE - 1), "1000", fds[1]);
	syscall1(__NR_close, fds[1]);
	if (hog < 0 || small < 0 || syscall3(__NR_read, fds[0], c, 1) != 1 ||
	    syscall3(__NR_read, fds[0], c + 1, 1) != 1) {
		printf("adj: the holders did not start\n");
		return 1;
	}
	printf("adj: the hog's oom_score is 0: %s; the small one's above 1000: %s\n",
	       proc_get(hog, "oom_score") == 0 ? "yes" : "no",
	       proc_get(small, "oom_score") > 1000 ? "yes" : "no");
	m = map_touched(mine);
	if (failed(m)) {
		printf("adj: mmap 30 percent: %s\n", errname((long)m));
		return 1;
	}
	printf("adj: toucher touched 30 percent of free memory\n");
	/* Never wait for a holder that was not killed: it sleeps for an hour. */
	if (syscall4(__NR_wait4, small, &status, 1 /* WNOHANG */, 0) != small) {
		syscall2(__NR_kill, small, SIGKILL);
		wait_child(small, &status);
		status = 0;
	}
	printf("adj: the small one (oom_score_adj 1000) killed by SIGKILL: %s\n",
	       (status & 0x7f) == SIGKILL ? "yes" : "no");
	syscall2(__NR_kill, hog, SIGKILL);
	wait_child(hog, &status);
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
		pid = fork();
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
	if (argc > 1 && !strcmp(argv[1], "commit"))
		r = commit();
	else if (argc > 1 && !strcmp(argv[1], "adj-file"))
		r = adj_file();
	else if (argc > 1 && !strcmp(argv[1], "adj"))
		r = oom_adj();
	else if (argc > 1 && !strcmp(argv[1], "init-spared"))
		r = init_spared();
	else
		r = oom_kill();
	printf("oomtest: done\n");
	return r;
}
