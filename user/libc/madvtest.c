// SPDX-License-Identifier: MIT
/*
 * madvtest: madvise(2) and mincore(2) as a program sees them, one
 * "case: answer" line each, so that the same static binary's output can
 * be set beside Linux's (the system test runs it on the host and on
 * Pagoda, and compares).
 *
 * - madvise's refusals: an unknown advice, a start off a page, a length
 *   that wraps; an empty range is granted; MADV_REMOVE and MADV_FREE
 *   where they do not apply;
 * - a hole in the range: -ENOMEM, the advice applied around it;
 * - MADV_DONTNEED: a private anonymous page reads zeros again, a private
 *   file page the file again, a shared page keeps what was written;
 * - mincore: touched and untouched pages, after DONTNEED, its refusals;
 * - MADV_HUGEPAGE and MADV_NOHUGEPAGE on parts of an area split it (and
 *   merge it back) in /proc/self/maps, untouched (Linux does not merge
 *   areas whose pages came from different faults' histories, its
 *   anon_vma, which Pagoda has not); one byte written in a 2 MiB
 *   stretch of a MADV_HUGEPAGE part makes the whole stretch resident,
 *   in a MADV_NOHUGEPAGE part one page (the host runs THP "madvise" or
 *   "always"; Pagoda "always": both give a stretch only where asked or
 *   allowed, and never under NOHUGEPAGE);
 * - MADV_DONTFORK: the child has no such area; MADV_WIPEONFORK: the
 *   child's copy reads zeros while the parent keeps its bytes;
 * - MADV_POPULATE_WRITE makes a range resident; on a read-only range it
 *   is EINVAL (Linux's answer for a protection that forbids it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "errno_name.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define HUGE (2UL << 20)

static long page;

static const char *answer(long r)
{
	return r >= 0 ? "granted" : errno_name(errno);
}

static void *anon(unsigned long bytes, int flags)
{
	return mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);
}

/* How many of n pages from p mincore says are resident, or -1 and why. */
static long resident(void *p, unsigned long n)
{
	static unsigned char vec[4096];
	long count = 0;

	if (n > sizeof(vec) || mincore(p, n * page, vec))
		return -1;
	for (unsigned long i = 0; i < n; i++)
		count += vec[i] & 1;
	return count;
}

/* Areas of /proc/self/maps that overlap [lo, hi). */
static int areas_in(uintptr_t lo, uintptr_t hi)
{
	static char buf[65536];
	int fd = open("/proc/self/maps", O_RDONLY), n = 0;
	ssize_t len = 0, r;

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += r;
	close(fd);
	buf[len] = 0;
	for (char *line = buf; *line; line = strchr(line, '\n') + 1) {
		unsigned long s, e;

		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s < hi && e > lo)
			n++;
		if (!strchr(line, '\n'))
			break;
	}
	return n;
}

static void refusals(void)
{
	char *p = anon(4 * page, MAP_PRIVATE);

	printf("unknown advice: %s\n", answer(madvise(p, page, 999)));
	printf("start off a page: %s\n", answer(madvise(p + 1, page, MADV_DONTNEED)));
	printf("length that wraps: %s\n", answer(madvise(p, (size_t)-1, MADV_DONTNEED)));
	printf("empty range: %s\n", answer(madvise(p, 0, MADV_DONTNEED)));
	printf("remove on private anonymous: %s\n", answer(madvise(p, page, MADV_REMOVE)));
	printf("free on private anonymous: %s\n", answer(madvise(p, page, MADV_FREE)));
	munmap(p, 4 * page);
	p = anon(page, MAP_SHARED);
	printf("free on shared anonymous: %s\n", answer(madvise(p, page, MADV_FREE)));
	printf("wipeonfork on shared anonymous: %s\n",
	       answer(madvise(p, page, MADV_WIPEONFORK)));
	munmap(p, page);
	p = anon(page, MAP_PRIVATE);
	munmap(p, page);
	printf("dontneed on nothing mapped: %s\n", answer(madvise(p, page, MADV_DONTNEED)));
	printf("normal on nothing mapped: %s\n", answer(madvise(p, page, MADV_NORMAL)));
}

static void dontneed(const char *self)
{
	char *p = anon(4 * page, MAP_PRIVATE), *q;
	int fd;

	for (int i = 0; i < 4; i++)
		p[i * page] = (char)('a' + i);
	printf("resident after writing 4: %ld\n", resident(p, 4));
	printf("dontneed pages 1-2: %s\n", answer(madvise(p + page, 2 * page, MADV_DONTNEED)));
	printf("resident after dontneed: %ld\n", resident(p, 4));
	printf("private anonymous reads: %d %d %d %d\n", p[0], p[page], p[2 * page],
	       p[3 * page]);
	/* a hole in the middle: -ENOMEM, both sides dropped */
	p[page] = 'x';
	p[2 * page] = 'y';
	munmap(p + 2 * page, page);
	printf("dontneed over a hole: %s\n", answer(madvise(p, 4 * page, MADV_DONTNEED)));
	printf("around the hole reads: %d %d %d\n", p[0], p[page], p[3 * page]);
	munmap(p, 4 * page);

	fd = open(self, O_RDONLY);
	q = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (q == MAP_FAILED) {
		printf("private file: %s\n", errno_name(errno));
	} else {
		q[1] = 'Z';
		printf("private file, written: %c\n", q[1]);
		printf("dontneed private file: %s\n", answer(madvise(q, page, MADV_DONTNEED)));
		printf("private file reads the file: %c\n", q[1]);
		printf("free on a file: %s\n", answer(madvise(q, page, MADV_FREE)));
		munmap(q, page);
	}
	close(fd);

	p = anon(page, MAP_SHARED);
	p[0] = 's';
	printf("dontneed shared: %s\n", answer(madvise(p, page, MADV_DONTNEED)));
	printf("shared keeps: %c\n", p[0]);
	munmap(p, page);
}

static void mincore_cases(void)
{
	unsigned char vec[4];
	char *p = anon(4 * page, MAP_PRIVATE);

	printf("mincore untouched: %ld\n", resident(p, 4));
	(void)*(volatile char *)(p + page); /* a read: the zero page */
	printf("mincore after a read: %ld\n", resident(p, 4));
	printf("mincore off a page: %s\n", answer(mincore(p + 1, page, vec)));
	printf("mincore bad vector: %s\n", answer(mincore(p, page, (unsigned char *)8)));
	munmap(p + 3 * page, page);
	printf("mincore into a hole: %s\n", answer(mincore(p, 4 * page, vec)));
	munmap(p, 3 * page);
}

static void hugepages(void)
{
	char *raw = anon(5 * HUGE, MAP_PRIVATE);
	char *h = (char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
	uintptr_t lo = (uintptr_t)h, hi = lo + 4 * HUGE;

	/* untouched: Linux merges areas whose pages have no history (anon_vma) */
	printf("hugepage advice, one area: %d\n", areas_in(lo, hi));
	printf("hugepage on the second 2 MiB: %s\n",
	       answer(madvise(h + HUGE, HUGE, MADV_HUGEPAGE)));
	printf("nohugepage on the fourth: %s\n",
	       answer(madvise(h + 3 * HUGE, HUGE, MADV_NOHUGEPAGE)));
	printf("areas after two advices: %d\n", areas_in(lo, hi));
	printf("hugepage on the first three: %s\n", answer(madvise(h, 3 * HUGE, MADV_HUGEPAGE)));
	printf("areas after: %d\n", areas_in(lo, hi));
	printf("nohugepage on all four: %s\n", answer(madvise(h, 4 * HUGE, MADV_NOHUGEPAGE)));
	printf("areas at last: %d\n", areas_in(lo, hi));
	munmap(raw, 5 * HUGE);

	raw = anon(5 * HUGE, MAP_PRIVATE);
	h = (char *)(((uintptr_t)raw + HUGE - 1) & ~(HUGE - 1));
	madvise(h, 2 * HUGE, MADV_HUGEPAGE);
	madvise(h + 2 * HUGE, 2 * HUGE, MADV_NOHUGEPAGE);
	h[HUGE + 5 * page] = 1;
	printf("one byte in the hugepage part: %ld resident of 512\n", resident(h + HUGE, 512));
	h[3 * HUGE + 5 * page] = 1;
	printf("one byte in the nohugepage part: %ld resident of 512\n",
	       resident(h + 3 * HUGE, 512));
	printf("dontneed a page of the stretch: %s\n",
	       answer(madvise(h + HUGE + 7 * page, page, MADV_DONTNEED)));
	printf("then resident: %ld of 512\n", resident(h + HUGE, 512));
	munmap(raw, 5 * HUGE);
}

static void forks(void)
{
	char *keep = anon(page, MAP_PRIVATE), *gone = anon(page, MAP_PRIVATE);
	char *wipe = anon(page, MAP_PRIVATE);
	int status;
	pid_t pid;

	keep[0] = 'k';
	gone[0] = 'g';
	wipe[0] = 'w';
	printf("dontfork: %s\n", answer(madvise(gone, page, MADV_DONTFORK)));
	printf("wipeonfork: %s\n", answer(madvise(wipe, page, MADV_WIPEONFORK)));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		unsigned char v;

		printf("child: kept %c, wiped reads %d, dontfork area %s\n", keep[0], wipe[0],
		       mincore(gone, page, &v) ? errno_name(errno) : "there");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("parent: %c %c %c\n", keep[0], gone[0], wipe[0]);
	printf("keeponfork, dofork: %s %s\n", answer(madvise(wipe, page, MADV_KEEPONFORK)),
	       answer(madvise(gone, page, MADV_DOFORK)));
	munmap(keep, page);
	munmap(gone, page);
	munmap(wipe, page);
}

static void populate(void)
{
	char *p = anon(8 * page, MAP_PRIVATE);

	printf("populate write: %s\n", answer(madvise(p, 8 * page, MADV_POPULATE_WRITE)));
	printf("resident after populate: %ld\n", resident(p, 8));
	mprotect(p, 8 * page, PROT_READ);
	printf("populate write, read-only: %s\n",
	       answer(madvise(p, 8 * page, MADV_POPULATE_WRITE)));
	munmap(p, 8 * page);
}

int main(int argc, char **argv)
{
	(void)argc;
	page = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("madvtest: start\n");
	refusals();
	dontneed(argv[0]);
	mincore_cases();
	hugepages();
	forks();
	populate();
	printf("madvtest: done\n");
	return 0;
}
