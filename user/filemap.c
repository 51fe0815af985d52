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
#include <ulib.h>

#define PAGE 4096UL
#define SIGBUS 7
#define SA_SIGINFO 0x00000004
#define SA_RESTORER 0x04000000
#define MAP_SHARED 0x01
#define MAP_FIXED 0x10
#define O_RDONLY 0

#define barrier() __asm__ volatile("" ::: "memory")

struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};

void bus_restorer(void);
#if defined(__x86_64__)
__asm__(".text\n.globl bus_restorer\nbus_restorer:\n\tmov $15, %eax\n\tsyscall\n\thlt\n");
#else
__asm__(".text\n.globl bus_restorer\nbus_restorer:\n\tmov x8, #139\n\tsvc #0\n\tbrk #0\n");
#endif

#ifdef __NR_open
#define sys_open(path, flags) syscall3(__NR_open, path, flags, 0)
#else
#define sys_open(path, flags) syscall4(__NR_openat, -100 /* AT_FDCWD */, path, flags, 0)
#endif

static volatile int buses, bus_code;
static volatile unsigned long bus_addr;

/* Note the SIGBUS, then put a zeroed page there so the access goes through. */
static void on_bus(int sig, int *info, void *uc)
{
	(void)sig;
	(void)uc;
	buses++;
	bus_code = info[2];
	bus_addr = *(unsigned long *)(info + 4);
	mmap((void *)(bus_addr & ~(PAGE - 1)), PAGE, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

static const char *answer(long r)
{
	if (r >= 0 || r < -4095)
		return "granted";
	switch (-r) {
	case 9: return "EBADF";
	case 12: return "ENOMEM";
	case 13: return "EACCES";
	case 19: return "ENODEV";
	case 22: return "EINVAL";
	default: return "other";
	}
}

static int same(const char *a, const char *b, unsigned long n)
{
	while (n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

static long fork_child(void)
{
#ifdef __NR_fork
	return syscall0(__NR_fork);
#else
	return syscall6(__NR_clone, 17 /* SIGCHLD */, 0, 0, 0, 0, 0);
#endif
}

static int wait_status(long pid)
{
	int status = 0;

	syscall4(__NR_wait4, pid, &status, 0, 0);
	return status;
}

static long map(unsigned long len, int prot, int flags, long fd, long off)
{
	return (long)mmap(NULL, len, prot, flags, (int)fd, off);
}

int main(int argc, char **argv, char **envp)
{
	struct ksigaction sa = { (unsigned long)on_bus, SA_SIGINFO | SA_RESTORER,
				 (unsigned long)bus_restorer, 0 };
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

	r = fork_child();
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
	syscall4(__NR_rt_sigaction, SIGBUS, &sa, NULL, 8);
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
