// SPDX-License-Identifier: MIT
/*
 * areas: how mmap, munmap, mprotect, mremap and brk split and merge a
 * process's areas. It makes a 32-page region (and a heap), changes it
 * step by step, and after each step shows the areas: on Linux (argument
 * "proc") by printing /proc/self/maps itself; on Pagoda, which has no
 * /proc, by pausing 0.4 seconds so that the test can type the shell's
 * `maps PID` (tests/levels/procmem.py, which compares the two stories
 * area for area). The memory is never written, so on Linux no area gets
 * an anon_vma, which would keep some of them from merging.
 */
#include <ulib.h>

#define PAGE 4096UL
#define NPAGES 32
#define MAP_FIXED 0x10
#define PROT_NONE 0
#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2

static int from_proc;
static int step;

static long mremap(void *old, unsigned long old_len, unsigned long new_len, long flags,
		   void *new_addr)
{
	return syscall6(__NR_mremap, old, old_len, new_len, flags, new_addr, 0);
}

static long mprotect(void *a, unsigned long len, long prot)
{
	return syscall3(__NR_mprotect, a, len, prot);
}

/* After each change: its name, then the areas, one way or the other. */
static void show(const char *what, long answer)
{
	printf("step %d: %s: %ld\n", ++step, what, answer < 0 && answer > -4096 ? answer : 0);
	if (from_proc) {
		static char buf[16384];
		long fd = syscall4(__NR_openat, -100, "/proc/self/maps", 0, 0), n, got = 0;

		while (fd >= 0 && (n = syscall3(__NR_read, fd, buf + got, sizeof(buf) - 1 - got)) > 0)
			got += n;
		buf[got] = 0;
		syscall3(__NR_write, 1, buf, got);
		syscall1(__NR_close, fd);
	} else {
		struct timespec ts = { 0, 400000000 };

		syscall2(__NR_nanosleep, &ts, NULL);
	}
}

int main(int argc, char **argv, char **envp)
{
	char *b, *heap;
	long r;

	(void)envp;
	from_proc = argc > 1 && !strcmp(argv[1], "proc");
	/* A region with room around it: map it, and unmap what surrounds it. */
	b = mmap(NULL, (NPAGES + 2) * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if ((unsigned long)b >= -4096UL)
		return 2;
	munmap(b, PAGE);
	munmap(b + (NPAGES + 1) * PAGE, PAGE);
	b += PAGE;
	heap = (char *)syscall1(__NR_brk, 0);
	printf("areas: pid %ld region %lx heap %lx\n", getpid(), (unsigned long)b,
	       (unsigned long)heap);
	show("mmap 32 pages rw", 0);
	show("mprotect 4-8 r", mprotect(b + 4 * PAGE, 4 * PAGE, PROT_READ));
	show("mprotect 4-8 rw again", mprotect(b + 4 * PAGE, 4 * PAGE, PROT_READ | PROT_WRITE));
	mprotect(b + 2 * PAGE, 4 * PAGE, PROT_NONE);
	show("mprotect 2-6, 6-10 none", mprotect(b + 6 * PAGE, 4 * PAGE, PROT_NONE));
	show("mprotect 30-34 r, past the end", mprotect(b + 30 * PAGE, 4 * PAGE, PROT_READ));
	show("mprotect 0-32 rw", mprotect(b, NPAGES * PAGE, PROT_READ | PROT_WRITE));
	show("munmap 6-7", munmap(b + 6 * PAGE, PAGE));
	r = (long)mmap(b + 6 * PAGE, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	show("mmap fixed 6-7 rw", r);
	r = (long)mmap(b + 10 * PAGE, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		       -1, 0);
	show("mmap fixed 10-12 r over it", r);
	show("mremap 12-16 to 2 pages", mremap(b + 12 * PAGE, 4 * PAGE, 2 * PAGE, 0, NULL));
	show("mremap 12-14 to 4 pages", mremap(b + 12 * PAGE, 2 * PAGE, 4 * PAGE, 0, NULL));
	show("mremap 20-22 to 4, may not move", mremap(b + 20 * PAGE, 2 * PAGE, 4 * PAGE, 0, NULL));
	r = mremap(b + 20 * PAGE, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE, NULL);
	if (r > 0)
		munmap((void *)r, 4 * PAGE);
	show("mremap 20-22 to 4, moved, unmapped", r == (long)(b + 20 * PAGE) ? -1 : r);
	show("mremap 24-26 to 20-22, fixed", mremap(b + 24 * PAGE, 2 * PAGE, 2 * PAGE,
						    MREMAP_MAYMOVE | MREMAP_FIXED, b + 20 * PAGE));
	show("mremap across a hole", mremap(b + 16 * PAGE, 12 * PAGE, 16 * PAGE, 0, NULL));
	show("mprotect across a hole", mprotect(b + 16 * PAGE, 12 * PAGE, PROT_READ));
	syscall1(__NR_brk, heap + 3 * PAGE);
	show("brk +3 pages", 0);
	syscall1(__NR_brk, heap + 2 * PAGE);
	show("brk back 1 page", 0);
	show("munmap 0-32", munmap(b, NPAGES * PAGE));
	printf("areas: done\n");
	return 0;
}
