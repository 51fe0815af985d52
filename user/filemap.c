// SPDX-License-Identifier: MIT
/*
 * filemap: private mappings of a file (mmap with a file descriptor), as a
 * dynamic linker makes them, printed as "case: answer" so the same static
 * binary's output on Linux and on Pagoda can be compared line for line
 * (tests/levels/procmem.py). The file is the program itself (argv[0]).
 *
 * - a read-only private mapping reads the file's bytes, at an offset too;
 * - a writable private mapping takes writes that stay its own: the file
 *   and another mapping of it still read the old bytes;
 * - bad requests: an offset not a page multiple, a closed descriptor, a
 *   pipe, MAP_SHARED with PROT_WRITE on a read-only descriptor;
 * - a page wholly past the file's end raises SIGBUS (BUS_ADRERR, si_addr
 *   the byte), the part of the last page past the end reads as zeros;
 * - fork: the child sees the parent's private writes, its own stay its own.
 */
#include <mmcheck.h>

static int same(const char *a, const char *b, unsigned long n)
{
	while (n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

static long map(unsigned long len, int prot, int flags, long fd, long off)
{
	return (long)mmap(NULL, len, prot, flags, (int)fd, off);
}

int main(int argc, char **argv, char **envp)
{
	char head[16], again[16];
	unsigned long size, last;
	int fds[2];
	long fd, r;
	char *a, *b, *tail;

	(void)argc;
	(void)envp;
	fd = sys_open(argv[0], O_RDONLY);
	size = (unsigned long)syscall3(__NR_lseek, fd, 0, 2 /* SEEK_END */);
	syscall4(__NR_pread64, fd, head, sizeof(head), 0);

	a = (char *)map(2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("map read-only: %s\n", answer((long)a));
	printf("  reads the file: %s\n", same(a, head, sizeof(head)) ? "yes" : "no");
	b = (char *)map(PAGE, PROT_READ, MAP_PRIVATE, fd, PAGE);
	syscall4(__NR_pread64, fd, again, sizeof(again), PAGE);
	printf("map at offset one page: %s, reads the file there: %s\n", answer((long)b),
	       same(b, again, sizeof(again)) ? "yes" : "no");
	munmap(b, PAGE);

	b = (char *)map(PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	b[1] = 'X';
	syscall4(__NR_pread64, fd, again, sizeof(again), 0);
	printf("writable private: writes stay its own: %s; the file and the other map: %c %c\n",
	       b[1] == 'X' ? "yes" : "no", again[1], a[1]);

	r = fork();
	if (r == 0)
		exit(b[1] == 'X' && (b[1] = 'c') == 'c' ? 7 : 1);
	printf("fork: child saw the private write: %s; parent keeps: %c\n",
	       (wait_status(r) >> 8) == 7 ? "yes" : "no", b[1]);
	munmap(b, PAGE);
	munmap(a, 2 * PAGE);

	printf("offset not a page multiple: %s\n", answer(map(PAGE, PROT_READ, MAP_PRIVATE, fd, 1)));
	printf("closed descriptor: %s\n", answer(map(PAGE, PROT_READ, MAP_PRIVATE, 99, 0)));
	printf("MAP_SHARED, PROT_WRITE, read-only fd: %s\n",
	       answer(map(PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)));
	printf("neither shared nor private: %s\n", answer(map(PAGE, PROT_READ, 0, fd, 0)));
	syscall2(__NR_pipe2, fds, 0);
	printf("a pipe: %s\n", answer(map(PAGE, PROT_READ, MAP_PRIVATE, fds[0], 0)));

	/* The last page of the file and one wholly past its end. */
	catch_sigbus();
	last = size & ~(PAGE - 1);
	tail = (char *)map(2 * PAGE, PROT_READ, MAP_PRIVATE, fd, (long)last);
	printf("map the last page and one past it: %s\n", answer((long)tail));
	printf("  past the end, same page: %s\n",
	       size % PAGE == 0 || tail[size % PAGE] == 0 ? "zeros" : "not zero");
	barrier();
	r = ((volatile char *)tail)[PAGE + 8];
	printf("  a page wholly past the end: %d SIGBUS, si_code %d, si_addr map+%lu\n", buses,
	       bus_code, bus_addr - (unsigned long)tail);
	(void)r;
	munmap(tail, 2 * PAGE);
	syscall1(__NR_close, fd);
	printf("filemap: done\n");
	return 0;
}
