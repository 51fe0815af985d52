// SPDX-License-Identifier: MIT
/*
 * memhostile: the calls a hostile or careless program makes with memory,
 * each printed as "case: answer" (a count, or an errno's name). The same
 * static binary runs on Linux and on Pagoda, and the test compares the two
 * outputs line for line (tests/levels/procmem.py), so every answer here is
 * Linux's, recorded when the test runs, never written down by hand.
 *
 * What it asks: more memory than any machine has (mmap of 64 TiB, brk 32
 * TiB up), and read, write, pread, pwrite, readv and writev over buffers
 * that are too long, end in a hole, or point at the kernel. Only files it
 * can open on both systems are used: its own executable and pipes.
 */
#include <ulib.h>

#define MADV_NOHUGEPAGE 15 /* Linux's value */

#define O_RDONLY 0
#define O_NONBLOCK 04000
#define SZ_TIB (1UL << 40)
#define PAGE 4096UL

struct iovec {
	void *base;
	unsigned long len;
};

static const char *const errnames[] = {
	[1] = "EPERM", [2] = "ENOENT", [9] = "EBADF", [11] = "EAGAIN", [12] = "ENOMEM",
	[13] = "EACCES", [14] = "EFAULT", [21] = "EISDIR", [22] = "EINVAL", [29] = "ESPIPE",
	[32] = "EPIPE", [38] = "ENOSYS",
};

static void show(const char *what, long r)
{
	if (r < 0 && r > -4096) {
		unsigned long e = (unsigned long)-r;

		if (e < sizeof(errnames) / sizeof(errnames[0]) && errnames[e])
			printf("%s: %s\n", what, errnames[e]);
		else
			printf("%s: errno %lu\n", what, e);
	} else {
		printf("%s: %ld\n", what, r);
	}
}

#ifdef __NR_open
#define sys_open(path, flags) syscall3(__NR_open, path, flags, 0)
#else
#define sys_open(path, flags) syscall4(__NR_openat, -100 /* AT_FDCWD */, path, flags, 0)
#endif

static long pipe_nb(int fds[2])
{
	return syscall2(__NR_pipe2, fds, O_NONBLOCK);
}

/* Empty a non-blocking pipe; how many bytes it held. */
static long drain(int fd)
{
	static char sink[4096];
	long total = 0, n;

	while ((n = syscall3(__NR_read, fd, sink, sizeof(sink))) > 0)
		total += n;
	return total;
}

/*
 * Run the machine out of memory: map 64 MiB at a time, touched, until a
 * request fails, grow the break the same way, then exit with all of it
 * still mapped. Pages come on first touch, so the kernel usually ends the
 * process when a touch finds no memory left, before it gets that far.
 * Every page must come back when the process is gone; what it prints
 * depends on the machine, so the test does not compare it with Linux.
 */
static int exhaust(void)
{
	unsigned long chunk = 64UL << 20, n = 0, grown = 0;
	char *m, *last = NULL;

	/* The shim's mmap() answers the kernel's -errno, not MAP_FAILED. */
	while (n < 1024 && (unsigned long)(m = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
						    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) <
				   -4096UL) {
		for (unsigned long off = 0; off < chunk; off += PAGE)
			m[off] = 1;
		last = m;
		n++;
	}
	/* Give back one chunk, and grow the break into that memory a MiB at a time. */
	if (last)
		munmap(last, chunk);
	while (grown < 65536 && sbrk(1L << 20) != (void *)-1)
		grown++;
	printf("exhaust: %lu x 64 MiB mapped, break grown %lu MiB\n", n, grown);
	return 0;
}

/* struct rusage on 64-bit Linux: two timevals, then fourteen longs. */
struct rusage {
	long utime[2], stime[2];
	long maxrss, ixrss, idrss, isrss, minflt, majflt, rest[8];
};

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)

/*
 * getrusage as a program sees it: its own peak memory and minor faults
 * grow by what it touches, a child's show in RUSAGE_CHILDREN once it is
 * collected, and wait4 hands over the child's. Only relations are
 * printed: the numbers themselves differ from machine to machine.
 */
static void usage(void *kernel)
{
	const unsigned long size = 8UL << 20;
	struct rusage before, after, kid, waited;
	int status;
	long pid;
	char *m;

	show("getrusage who 5", syscall2(__NR_getrusage, 5, &before));
	show("getrusage NULL", syscall2(__NR_getrusage, RUSAGE_SELF, NULL));
	show("getrusage kernel", syscall2(__NR_getrusage, RUSAGE_SELF, kernel));
	syscall2(__NR_getrusage, RUSAGE_SELF, &before);
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* A fault per page to count, whatever the kernel's huge-page policy. */
	syscall3(__NR_madvise, m, size, MADV_NOHUGEPAGE);
	for (unsigned long off = 0; off < size; off += PAGE)
		m[off] = 1;
	syscall2(__NR_getrusage, RUSAGE_SELF, &after);
	/* A peak, not the present: it may have been higher already. */
	printf("getrusage: maxrss at least 8 MiB: %s\n",
	       after.maxrss >= (long)(size >> 10) ? "yes" : "no");
	printf("getrusage: minflt grew by 2048: %s\n",
	       after.minflt - before.minflt >= (long)(size / PAGE) ? "yes" : "no");
	munmap(m, size);
	printf("getrusage: maxrss stays after munmap: %s\n",
	       (syscall2(__NR_getrusage, RUSAGE_SELF, &before), before.maxrss >= after.maxrss) ?
	       "yes" : "no");
	syscall2(__NR_getrusage, RUSAGE_CHILDREN, &before);
	printf("getrusage: children before any: maxrss %ld minflt %ld\n", before.maxrss,
	       before.minflt);
	pid = fork();
	if (pid == 0) {
		m = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		syscall3(__NR_madvise, m, 2 * size, MADV_NOHUGEPAGE);
		for (unsigned long off = 0; off < 2 * size; off += PAGE)
			m[off] = 1;
		exit(0);
	}
	syscall4(__NR_wait4, pid, &status, 0, &waited);
	syscall2(__NR_getrusage, RUSAGE_CHILDREN, &kid);
	printf("getrusage: child's 16 MiB in wait4's: %s\n",
	       waited.maxrss >= (long)(2 * size >> 10) ? "yes" : "no");
	printf("getrusage: child's 16 MiB in RUSAGE_CHILDREN: %s\n",
	       kid.maxrss >= (long)(2 * size >> 10) ? "yes" : "no");
	printf("getrusage: child's faults in RUSAGE_CHILDREN: %s\n",
	       kid.minflt >= (long)(2 * size / PAGE) ? "yes" : "no");
}

int main(int argc, char **argv, char **envp)
{
	long cur, r;
	char small[8] = "8 bytes\n";
	char *two, *ro, *none;
	int p[2], fd;
	struct iovec iov[3];
	void *kernel = (void *)0xffff800000000000UL;

	(void)envp;
	if (argc > 1 && !strcmp(argv[1], "exhaust"))
		return exhaust();
	/* More than any machine: refused, and nothing kept once it is over. */
	r = (long)mmap(NULL, 64 * SZ_TIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	show("mmap 64 TiB", r);
	cur = syscall1(__NR_brk, 0);
	r = syscall1(__NR_brk, cur + 32 * SZ_TIB);
	printf("brk +32 TiB: %s\n", r == cur ? "refused (old break)" :
	       r == cur + (long)(32 * SZ_TIB) ? "moved" : "other");
	r = syscall1(__NR_brk, cur);
	printf("brk back: %s\n", r == cur ? "same" : "moved");

	/*
	 * One read-only page, then two readable, writable pages with a hole
	 * after them (mapped last, so no later mapping fills the hole). The
	 * two are placed at 1 GiB, not where mmap's layout puts them: a
	 * write of 2 GiB from them is refused up front (EFAULT, access_ok)
	 * when they lie within 2 GiB of the top of user space, which on
	 * arm64 (Linux's 1 GiB of mmap randomness, Pagoda's layout) they
	 * may, and on x86-64 rarely. At 1 GiB every kernel's answer is the
	 * copy up to the hole.
	 */
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	two = mmap((void *)(1UL << 30), 3 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if ((unsigned long)two >= -4096UL) {
		printf("mmap 3 pages failed\n");
		return 1;
	}
	munmap(two + 2 * PAGE, PAGE);
	memset(two, 'x', 2 * PAGE);

	/* write(2) */
	show("write 1 SIZE_MAX", syscall3(__NR_write, 1, small, ~0UL));
	show("write 1 SSIZE_MAX", syscall3(__NR_write, 1, small, ~0UL >> 1));
	show("write 1 NULL 0", syscall3(__NR_write, 1, NULL, 0));
	show("write 1 NULL 8", syscall3(__NR_write, 1, NULL, 8));
	show("write 1 kernel 8", syscall3(__NR_write, 1, kernel, 8));
	show("write 1 hole 8", syscall3(__NR_write, 1, two + 2 * PAGE, 8));
	show("pipe2", pipe_nb(p) ? -1 : 0);
	show("write pipe SIZE_MAX", syscall3(__NR_write, p[1], small, ~0UL));
	show("write pipe 2 pages + hole", syscall3(__NR_write, p[1], two, 3 * PAGE));
	show("  drained", drain(p[0]));
	show("write pipe 100 in, + hole", syscall3(__NR_write, p[1], two + 100, 3 * PAGE));
	show("  drained", drain(p[0]));
	show("write pipe last 8 + hole", syscall3(__NR_write, p[1], two + 2 * PAGE - 8, 16));
	show("  drained", drain(p[0]));
	show("write pipe 2 GiB from 2 pages", syscall3(__NR_write, p[1], two, 1UL << 31));
	show("  drained", drain(p[0]));

	/* read(2) from a file (this program) and a pipe */
	fd = (int)sys_open(argv[0], O_RDONLY);
	show("open self", fd < 0 ? fd : 0);
	show("read SIZE_MAX", syscall3(__NR_read, fd, small, ~0UL));
	show("read NULL 8", syscall3(__NR_read, fd, NULL, 8));
	show("read kernel 8", syscall3(__NR_read, fd, kernel, 8));
	show("read read-only page", syscall3(__NR_read, fd, ro, 8));
	show("read 3 pages into 2 + hole", syscall3(__NR_read, fd, two, 3 * PAGE));
	show("read 3 pages at 100 in", syscall3(__NR_read, fd, two + 100, 3 * PAGE));
	show("lseek back", syscall3(__NR_lseek, fd, 0, 0));
	show("read 8", syscall3(__NR_read, fd, small, 8));
	printf("  magic: %s\n", small[1] == 'E' && small[2] == 'L' && small[3] == 'F' ? "ELF" : "?");
	show("write to read-only fd", syscall3(__NR_write, fd, small, 8));
	syscall3(__NR_write, p[1], "0123456789", 10);
	show("read pipe into hole", syscall3(__NR_read, p[0], two + 2 * PAGE, 10));
	show("read pipe 4 before hole", syscall3(__NR_read, p[0], two + 2 * PAGE - 4, 10));
	show("  drained", drain(p[0]));

	/* pread64 / pwrite64 */
	show("pread 8 at 1", syscall4(__NR_pread64, fd, small, 8, 1));
	printf("  bytes: %s\n", small[0] == 'E' && small[1] == 'L' ? "ELF" : "?");
	show("pread at -1", syscall4(__NR_pread64, fd, small, 8, -1L));
	show("pread past the end", syscall4(__NR_pread64, fd, small, 8, 1L << 40));
	show("pread NULL", syscall4(__NR_pread64, fd, NULL, 8, 0));
	show("pread SIZE_MAX", syscall4(__NR_pread64, fd, small, ~0UL, 0));
	show("pread 3 pages into 2 + hole", syscall4(__NR_pread64, fd, two, 3 * PAGE, 0));
	show("lseek after pread", syscall3(__NR_lseek, fd, 0, 1));
	show("pread pipe", syscall4(__NR_pread64, p[0], small, 8, 0));
	show("pwrite pipe", syscall4(__NR_pwrite64, p[1], small, 8, 0));
	show("pwrite read-only fd", syscall4(__NR_pwrite64, fd, small, 8, 0));

	/* readv / writev */
	iov[0] = (struct iovec){ small, 4 };
	iov[1] = (struct iovec){ two + 2 * PAGE, 4 };
	show("writev 4 + hole", syscall3(__NR_writev, p[1], iov, 2));
	show("  drained", drain(p[0]));
	iov[1] = (struct iovec){ kernel, 4 };
	show("writev 4 + kernel", syscall3(__NR_writev, p[1], iov, 2));
	show("  drained", drain(p[0]));
	iov[1] = (struct iovec){ small, ~0UL };
	show("writev len SIZE_MAX", syscall3(__NR_writev, p[1], iov, 2));
	iov[1] = (struct iovec){ small, ~0UL >> 1 };
	show("writev len SSIZE_MAX", syscall3(__NR_writev, p[1], iov, 2));
	iov[0] = (struct iovec){ two, ~0UL >> 2 };
	iov[1] = (struct iovec){ two, ~0UL >> 2 };
	show("writev sum over SSIZE_MAX", syscall3(__NR_writev, p[1], iov, 2));
	iov[0] = (struct iovec){ two, 1UL << 30 };
	iov[1] = (struct iovec){ two, 1UL << 30 };
	iov[2] = (struct iovec){ two, 1UL << 30 };
	show("writev 3 GiB from 2 pages", syscall3(__NR_writev, p[1], iov, 3));
	show("  drained", drain(p[0]));
	show("writev iov NULL", syscall3(__NR_writev, p[1], NULL, 1));
	show("writev 0 iovs", syscall3(__NR_writev, p[1], NULL, 0));
	show("writev 1025 iovs", syscall3(__NR_writev, p[1], iov, 1025));
	show("writev -1 iovs", syscall3(__NR_writev, p[1], iov, -1L));
	syscall3(__NR_lseek, fd, 0, 0);
	iov[0] = (struct iovec){ small, 4 };
	iov[1] = (struct iovec){ two + 2 * PAGE - 2, 8 };
	show("readv 4 + 2 before hole", syscall3(__NR_readv, fd, iov, 2));
	show("  offset", syscall3(__NR_lseek, fd, 0, 1));
	iov[1] = (struct iovec){ kernel, 8 };
	show("readv 4 + kernel", syscall3(__NR_readv, fd, iov, 2));
	show("readv iov in the hole", syscall3(__NR_readv, fd, two + 2 * PAGE, 1));
	show("readv 1025 iovs", syscall3(__NR_readv, fd, iov, 1025));
	/* Which comes first: the descriptor's mode, or the vector? */
	show("writev read-only fd, iov NULL", syscall3(__NR_writev, fd, NULL, 1));
	show("writev read-only fd, 0 iovs", syscall3(__NR_writev, fd, NULL, 0));
	show("readv write end, iov NULL", syscall3(__NR_readv, p[1], NULL, 1));
	show("readv bad fd, iov NULL", syscall3(__NR_readv, 99, NULL, 1));
	show("read write end, NULL", syscall3(__NR_read, p[1], NULL, 8));
	show("read write end, kernel", syscall3(__NR_read, p[1], kernel, 8));
	show("write read-only fd, SIZE_MAX", syscall3(__NR_write, fd, small, ~0UL));
	show("pread write end", syscall4(__NR_pread64, p[1], small, 8, 0));
	show("pread bad fd at -1", syscall4(__NR_pread64, 99, small, 8, -1L));
	show("pread 0 bytes at -1", syscall4(__NR_pread64, fd, small, 0, -1L));
	none = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	none[0] = 'n';
	syscall3(__NR_mprotect, none, 2 * PAGE, 0 /* PROT_NONE */);
	show("write pipe from PROT_NONE page", syscall3(__NR_write, p[1], none, 8));
	show("write pipe from untouched PROT_NONE", syscall3(__NR_write, p[1], none + PAGE, 8));
	write(p[1], small, 8);
	show("read pipe into PROT_NONE page", syscall3(__NR_read, p[0], none, 8));
	printf("  drained: %ld\n", drain(p[0]));
	munmap(none, 2 * PAGE);
	syscall1(__NR_close, fd);
	syscall1(__NR_close, p[0]);
	syscall1(__NR_close, p[1]);
	usage(kernel);
	printf("memhostile: done\n");
	return 0;
}
