// SPDX-License-Identifier: MIT
/*
 * memfdtest: shared memory behind a descriptor (memfd_create, a tmpfs
 * file), as a program sees it, one "case: answer" line each, so that the
 * same static binary's output can be set beside Linux's (the system test
 * runs it on the host and on Pagoda).
 *
 * - memfd_create's refusals: unknown flags, a name too long;
 * - a MAP_SHARED mapping and read/write/pread on the descriptor see the
 *   same bytes both ways, and so does a second mapping and a child;
 * - a MAP_PRIVATE mapping's writes stay its own;
 * - a page past the file's end is SIGBUS (BUS_ADRERR); ftruncate that
 *   grows the file makes it readable, as zeros;
 * - mremap(MREMAP_DONTUNMAP) of a shared mapping: both ranges still show
 *   the file;
 * - the access mode: MAP_SHARED with PROT_WRITE of a read-only open, and
 *   any mapping of a write-only open, are EACCES (a file in /tmp);
 * - fallocate: mode 0 grows the file and makes its pages, a hole punched
 *   reads as zeros and frees its pages, and the refusals (a bad range,
 *   an unknown mode, a hole without KEEP_SIZE, a pipe, a read-only open);
 * - O_TMPFILE in /tmp: a file with no name (link count 0) that reads back
 *   what was written; without a writing mode, on a file, in /proc: refused;
 * - pages taken from the mappings: a shrinking ftruncate unmaps the pages
 *   past the new end from every mapping, a child's and a private
 *   mapping's own copies too (SIGBUS; grown again, they read zeros); a
 *   punched hole goes from the shared mappings (they read zeros, and a
 *   write there is the file's) while a private mapping's copy stays.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errno_name.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

static long page;
static sigjmp_buf on_bus;
static volatile int bus_code;

static const char *answer(long r)
{
	return r >= 0 ? "granted" : errno_name(errno);
}

static void bus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	bus_code = si->si_code;
	siglongjmp(on_bus, 1);
}

/* Read one byte at p: its value, or "SIGBUS code N". */
static void touch(const char *what, volatile char *p)
{
	if (sigsetjmp(on_bus, 1)) {
		printf("%s: SIGBUS code %d\n", what, bus_code);
		return;
	}
	printf("%s: reads %d\n", what, *p);
}

static void *map(int fd, long pages, int prot, int flags)
{
	return mmap(NULL, pages * page, prot, flags, fd, 0);
}

static void refusals(void)
{
	char name[300];

	printf("unknown flag: %s\n", answer(memfd_create("x", 0x100)));
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	printf("name of 299 bytes: %s\n", answer(memfd_create(name, 0)));
}

static void shared(int fd)
{
	char buf[8] = { 0 };
	struct stat st;
	char *a, *b;
	pid_t pid;
	int status;

	fstat(fd, &st);
	printf("new size: %ld\n", (long)st.st_size);
	printf("ftruncate 3 pages: %s\n", answer(ftruncate(fd, 3 * page)));
	printf("write: %ld\n", (long)pwrite(fd, "hello", 5, 0));
	a = map(fd, 3, PROT_READ | PROT_WRITE, MAP_SHARED);
	b = map(fd, 3, PROT_READ | PROT_WRITE, MAP_SHARED);
	printf("map shared twice: %s\n", a == MAP_FAILED || b == MAP_FAILED ? answer(-1) : "granted");
	if (a == MAP_FAILED || b == MAP_FAILED)
		return;
	printf("mapping reads the write: %s\n", memcmp(a, "hello", 5) ? "no" : "yes");
	memcpy(a + page, "world", 5);
	pread(fd, buf, 5, page);
	printf("pread reads the mapping's write: %s\n", buf);
	printf("second mapping too: %s\n", memcmp(b + page, "world", 5) ? "no" : "yes");
	pid = fork();
	if (!pid) {
		memcpy(b + 2 * page, "child", 5);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("child's write seen: %s\n", memcmp(a + 2 * page, "child", 5) ? "no" : "yes");
	fstat(fd, &st);
	printf("size %ld, blocks %ld\n", (long)st.st_size, (long)st.st_blocks);
	munmap(b, 3 * page);
	munmap(a, 3 * page);
}

static void private(int fd)
{
	char buf[8] = { 0 };
	char *p = map(fd, 3, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	char *s = map(fd, 3, PROT_READ, MAP_SHARED);

	printf("map private: %s\n", p == MAP_FAILED ? answer(-1) : "granted");
	if (p == MAP_FAILED || s == MAP_FAILED)
		return;
	printf("private reads the file: %s\n", memcmp(p + page, "world", 5) ? "no" : "yes");
	memcpy(p + page, "mine!", 5);
	pread(fd, buf, 5, page);
	printf("after a private write the file has: %s\n", buf);
	printf("a shared mapping has: %.5s, the private one: %.5s\n", s + page, p + page);
	munmap(p, 3 * page);
	munmap(s, 3 * page);
}

static void past_end(int fd)
{
	char *p = map(fd, 4, PROT_READ, MAP_SHARED);

	if (p == MAP_FAILED) {
		printf("map 4 pages of 3: %s\n", answer(-1));
		return;
	}
	touch("page 4 of a 3-page file", p + 3 * page);
	printf("ftruncate to 4 pages: %s\n", answer(ftruncate(fd, 4 * page)));
	touch("page 4 after", p + 3 * page);
	munmap(p, 4 * page);
}

static void dontunmap(int fd)
{
	char *p = map(fd, 2, PROT_READ | PROT_WRITE, MAP_SHARED);
	char *q;

	if (p == MAP_FAILED)
		return;
	q = mremap(p, 2 * page, 2 * page, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	printf("mremap dontunmap: %s\n", q == MAP_FAILED ? answer(-1) : "granted");
	if (q != MAP_FAILED) {
		printf("new range: %.5s, old range: %.5s\n", q, p);
		munmap(q, 2 * page);
	}
	munmap(p, 2 * page);
}

static void blocks_line(const char *what, int fd)
{
	struct stat st;

	fstat(fd, &st);
	printf("%s: size %ld, blocks %ld\n", what, (long)st.st_size, (long)st.st_blocks);
}

static void allocate(void)
{
	int fd = memfd_create("fallocate", 0), fds[2];
	char buf[8] = { 0 };

	printf("fallocate 2 pages: %s\n", answer(fallocate(fd, 0, 0, 2 * page)));
	blocks_line("  then", fd);
	pwrite(fd, "abcdef", 6, 0);
	printf("punch bytes 1-2: %s\n",
	       answer(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 1, 2)));
	pread(fd, buf, 6, 0);
	printf("  reads: %c %d %d %c\n", buf[0], buf[1], buf[2], buf[3]);
	printf("punch page 2: %s\n",
	       answer(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, page, page)));
	blocks_line("  then", fd);
	printf("punch without KEEP_SIZE: %s\n", answer(fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, 1)));
	printf("zero range: %s\n", answer(fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, 1)));
	printf("mode 0x100: %s\n", answer(fallocate(fd, 0x100, 0, 1)));
	printf("length 0: %s\n", answer(fallocate(fd, 0, 0, 0)));
	printf("offset -1: %s\n", answer(fallocate(fd, 0, -1, 1)));
	printf("keep size past the end: %s\n",
	       answer(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 4 * page)));
	/* Not its blocks: Linux keeps the pages past the end, Pagoda does not make them. */
	printf("  size stays: %s\n", lseek(fd, 0, SEEK_END) == 2 * page ? "yes" : "no");
	close(fd);
	pipe(fds);
	printf("a pipe: %s\n", answer(fallocate(fds[1], 0, 0, 1)));
	close(fds[0]);
	close(fds[1]);
}

static void tmpfiles(void)
{
	int fd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	char buf[8] = { 0 };
	struct stat st;

	printf("O_TMPFILE in /tmp: %s\n", answer(fd));
	if (fd >= 0) {
		pwrite(fd, "nameless", 8, 0);
		pread(fd, buf, 8, 0);
		fstat(fd, &st);
		printf("  reads %.8s, links %ld, mode %o\n", buf, (long)st.st_nlink,
		       (unsigned int)st.st_mode);
		close(fd);
	}
	printf("O_TMPFILE read-only: %s\n", answer(open("/tmp", O_TMPFILE | O_RDONLY, 0600)));
	printf("O_TMPFILE with O_CREAT: %s\n",
	       answer(open("/tmp", O_TMPFILE | O_CREAT | O_RDWR, 0600)));
	printf("O_TMPFILE in /proc: %s\n", answer(open("/proc", O_TMPFILE | O_RDWR, 0600)));
	printf("O_TMPFILE on a file: %s\n",
	       answer(open("/proc/self/status", O_TMPFILE | O_RDWR, 0600)));
}

/*
 * A child that reads m's page 3 (mapping it), says so on ready, waits for
 * a byte on go, then reads it again.
 */
static pid_t child_toucher(char *m, const int *ready, int go)
{
	pid_t pid = fork();
	char c;

	if (pid) {
		read(ready[0], &c, 1);
		return pid;
	}
	(void)*(volatile char *)(m + 2 * page);
	write(ready[1], "r", 1);
	read(go, &c, 1);
	touch("  child's mapping, page 3", m + 2 * page);
	_exit(0);
}

static void truncate_unmaps(void)
{
	int fd = memfd_create("truncate", 0), go[2], ready[2];
	char *s, *p, buf[8] = { 0 };
	pid_t pid;

	ftruncate(fd, 3 * page);
	for (int i = 0; i < 3; i++)
		pwrite(fd, "file", 4, i * page);
	s = map(fd, 3, PROT_READ | PROT_WRITE, MAP_SHARED);
	p = map(fd, 3, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	if (s == MAP_FAILED || p == MAP_FAILED || pipe(go) || pipe(ready)) {
		printf("truncate: maps %s\n", answer(-1));
		return;
	}
	printf("shared page 3 before: %.4s\n", s + 2 * page);
	p[page] = 'P';    /* page 2: a copy of the private mapping's own */
	p[2 * page] = 'P'; /* page 3 too */
	(void)*(volatile char *)p; /* page 1: the file's page, read-only */
	pid = child_toucher(s, ready, go[0]);
	printf("ftruncate to 1 page: %s\n", answer(ftruncate(fd, page)));
	write(go[1], "g", 1);
	waitpid(pid, NULL, 0);
	touch("  shared mapping, page 2", s + page);
	touch("  shared mapping, page 3", s + 2 * page);
	touch("  private mapping's copy, page 2", p + page);
	touch("  private mapping's copy, page 3", p + 2 * page);
	touch("  private mapping, page 1", p);
	printf("ftruncate to 3 pages: %s\n", answer(ftruncate(fd, 3 * page)));
	touch("  shared mapping, page 3", s + 2 * page);
	touch("  private mapping, page 2", p + page);
	munmap(p, 3 * page);

	for (int i = 0; i < 3; i++)
		pwrite(fd, "file", 4, i * page);
	p = map(fd, 3, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	printf("shared page 2 before the hole: %.4s\n", s + page);
	p[page] = 'P';                    /* page 2: the private mapping's copy */
	(void)*(volatile char *)(p + 2 * page); /* page 3: the file's, read-only */
	printf("punch page 2-3: %s\n", answer(fallocate(fd, FALLOC_FL_PUNCH_HOLE |
							 FALLOC_FL_KEEP_SIZE, page, 2 * page)));
	touch("  shared mapping, page 2", s + page);
	touch("  private mapping's copy, page 2", p + page);
	touch("  private mapping, page 3", p + 2 * page);
	s[2 * page] = 'S';
	pread(fd, buf, 1, 2 * page);
	printf("  a write to shared page 3, the file reads: %d\n", buf[0]);
	blocks_line("  then", fd);
	munmap(p, 3 * page);
	munmap(s, 3 * page);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	close(fd);
}

static void access_modes(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/memfdtest.%d", (int)getpid());
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "tmpfile", 7) != 7) {
		printf("a file in /tmp: %s\n", answer(-1));
		return;
	}
	close(fd);
	fd = open(path, O_RDONLY);
	printf("read-only open, shared writable: %s\n",
	       answer(map(fd, 1, PROT_READ | PROT_WRITE, MAP_SHARED) == MAP_FAILED ? -1 : 0));
	{
		char *p = map(fd, 1, PROT_READ, MAP_SHARED);

		printf("read-only open, shared read-only: %.7s\n", p == MAP_FAILED ? "failed" : p);
		if (p != MAP_FAILED)
			munmap(p, page);
	}
	close(fd);
	fd = open(path, O_WRONLY);
	printf("write-only open, shared: %s\n",
	       answer(map(fd, 1, PROT_WRITE, MAP_SHARED) == MAP_FAILED ? -1 : 0));
	printf("write-only open, private: %s\n",
	       answer(map(fd, 1, PROT_READ, MAP_PRIVATE) == MAP_FAILED ? -1 : 0));
	close(fd);
	fd = open(path, O_RDONLY);
	printf("read-only open, fallocate: %s\n", answer(fallocate(fd, 0, 0, 1)));
	close(fd);
	unlink(path);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = bus, .sa_flags = SA_SIGINFO };
	int fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	page = sysconf(_SC_PAGESIZE);
	sigaction(SIGBUS, &sa, NULL);
	refusals();
	fd = memfd_create("memfdtest", MFD_CLOEXEC);
	printf("memfd_create: %s\n", answer(fd));
	if (fd < 0)
		return 1;
	shared(fd);
	private(fd);
	past_end(fd);
	dontunmap(fd);
	close(fd);
	allocate();
	tmpfiles();
	access_modes();
	truncate_unmaps();
	printf("memfdtest: done\n");
	return 0;
}
