// SPDX-License-Identifier: MIT
/*
 * faults: demand paging and the faults a program can take, printed so
 * that the same binary's output on Linux and on Pagoda can be compared
 * line for line (tests/levels/procmem.py):
 *
 * - a large anonymous mapping reads as zeros and holds what is written,
 *   page by page, wherever it is first touched;
 * - the stack grows down on faults (a deep recursion), and a recursion
 *   without end is killed by SIGSEGV (a child, so the program goes on);
 * - a SIGSEGV handler (SA_SIGINFO) gets si_code SEGV_MAPERR for an
 *   address in no area and SEGV_ACCERR for a write to a read-only area or
 *   any access to PROT_NONE, with si_addr the faulting byte; it makes the
 *   page accessible (mprotect) and returns, and the access is retried;
 * - a fault with no handler ends the process with SIGSEGV;
 * - fork and mprotect over 300 pages (several of the kernel's batches of
 *   entries changed under one TLB flush): copy-on-write holds on every
 *   page, and a page made read-only faults once, wherever it lies.
 *
 * Addresses are printed relative to the mapping they fall in.
 */
#include <ulib.h>

#define PAGE 4096UL
#define SIGSEGV 11
#define MAP_FIXED 0x10
#define PROT_NONE 0

/* The handler's settings must be stored before the access that faults. */
#define barrier() __asm__ volatile("" ::: "memory")

static volatile int faults, last_code;
static volatile unsigned long last_addr;
static volatile long fix_prot;
static volatile int fix_by_mapping;

static long mprotect(void *a, unsigned long len, long prot)
{
	return syscall3(__NR_mprotect, a, len, prot);
}

/* Note the fault, then let the access through: the page gets fix_prot. */
static void on_segv(int sig, const struct ksiginfo *info, void *uc)
{
	(void)sig;
	(void)uc;
	faults++;
	last_code = info->si_code;
	last_addr = info->si_addr;
	if (fix_by_mapping)
		mmap((void *)(last_addr & ~(PAGE - 1)), PAGE, (int)fix_prot,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	else
		mprotect((void *)(last_addr & ~(PAGE - 1)), PAGE, fix_prot);
}

static void report(const char *what, const char *base)
{
	printf("%s: %d fault(s), si_code %d (%s), si_addr base+%lu\n", what, faults, last_code,
	       last_code == 1 ? "SEGV_MAPERR" : last_code == 2 ? "SEGV_ACCERR" : "?",
	       (unsigned long)(last_addr - (unsigned long)base));
	faults = 0;
	last_code = 0;
	last_addr = 0;
}

static long wait_child(long pid)
{
	int status = 0;

	syscall4(__NR_wait4, pid, &status, 0, 0);
	return status;
}

/* 1 KiB frames; each is read after the call returns, so each must really be there. */
static unsigned long deep(unsigned long n)
{
	volatile char frame[1024];
	unsigned long below;

	frame[0] = 1;
	frame[1023] = 2;
	if (n == 0)
		return 0;
	below = deep(n - 1);
	return below + frame[0] + frame[1023];
}

/* Until the stack can grow no more; n never reaches ~0 in practice. */
static unsigned long endless(unsigned long n)
{
	volatile char frame[4096];
	unsigned long below;

	frame[0] = (char)n;
	if (n == ~0UL)
		return 0;
	below = endless(n + 1);
	return below + frame[0];
}

int main(int argc, char **argv, char **envp)
{
	unsigned long sum = 0, written = 0;
	char *big, *ro, *none, *hole;
	long pid, status;

	(void)argc;
	(void)argv;
	(void)envp;
	/* 256 MiB, touched here and there: zeros until written, then what was written. */
	big = mmap(NULL, 256UL << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (unsigned long off = 0; off < (256UL << 20); off += 3 * (1UL << 20) + 4096 * 7)
		sum += (unsigned char)big[off];
	for (unsigned long off = 5; off < (256UL << 20); off += 5 * (1UL << 20) + 4096 * 3) {
		big[off] = (char)(off >> 20);
		written++;
	}
	for (unsigned long off = 5; off < (256UL << 20); off += 5 * (1UL << 20) + 4096 * 3)
		sum += (unsigned char)big[off] == (unsigned char)(off >> 20);
	printf("256 MiB mapping: untouched reads 0, %lu of %lu written bytes read back\n", sum,
	       written);
	munmap(big, 256UL << 20);

	/* fork shares pages copy-on-write: each side's writes are its own. */
	big = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	big[0] = 'p';
	big[PAGE] = 'p';
	pid = fork();
	if (pid == 0) {
		int ok = big[0] == 'p' && big[PAGE] == 'p' && big[2 * PAGE] == 0;

		big[0] = 'c';
		big[2 * PAGE] = 'c';
		exit(ok && big[0] == 'c' && big[PAGE] == 'p' ? 7 : 1);
	}
	status = wait_child(pid);
	printf("fork: child saw the parent's pages and wrote its own: %s; parent's: %c %c %d\n",
	       (status >> 8) == 7 ? "yes" : "no", big[0], big[PAGE], big[2 * PAGE]);
	big[0] = 'q';
	big[PAGE] = 'q';
	printf("fork: parent writes after the child ended: %c %c\n", big[0], big[PAGE]);
	munmap(big, 4 * PAGE);

	/* The stack grows down: 2 MiB of frames. */
	printf("deep recursion (2 MiB of stack): %lu\n", deep(2048));

	/* Handled faults: the handler makes the page accessible and the access goes again. */
	ulib_sigaction(SIGSEGV, on_segv, SA_SIGINFO);
	ro = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fix_prot = PROT_READ | PROT_WRITE;
	barrier();
	ro[PAGE + 12] = 1;
	report("write to a read-only page", ro);
	printf("  then it holds %d\n", ro[PAGE + 12]);
	barrier();
	ro[7] = 3;
	report("write to the other read-only page", ro);
	none = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fix_prot = PROT_READ;
	barrier();
	sum = (unsigned char)none[100];
	report("read of a PROT_NONE page", none);
	printf("  then it reads %lu\n", sum);
	mprotect(ro, PAGE, PROT_NONE);
	barrier();
	sum = (unsigned char)ro[7];
	report("read of a written page made PROT_NONE", ro);
	printf("  then it reads %lu\n", sum);
	/* A hole: the handler maps a page there. */
	hole = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(hole + PAGE, PAGE);
	fix_prot = PROT_READ | PROT_WRITE;
	fix_by_mapping = 1;
	barrier();
	hole[PAGE + 1] = 5;
	report("write into a hole", hole);
	printf("  then it holds %d\n", hole[PAGE + 1]);
	munmap(hole + PAGE, PAGE);
	pid = fork();
	if (pid == 0) {
		ulib_sigaction(SIGSEGV, NULL /* SIG_DFL */, 0);
		hole[PAGE + 1] = 1;
		exit(0);
	}
	status = wait_child(pid);
	printf("write into a hole, no handler: %s %ld\n",
	       (status & 0x7f) ? "killed by signal" : "exit", (status & 0x7f) ? status & 0x7f :
								   (status >> 8) & 0xff);
	pid = fork();
	if (pid == 0) {
		ulib_sigaction(SIGSEGV, NULL /* SIG_DFL */, 0);
		endless(0);
		exit(0);
	}
	status = wait_child(pid);
	printf("endless recursion: %s %ld\n", (status & 0x7f) ? "killed by signal" : "exit",
	       (status & 0x7f) ? status & 0x7f : (status >> 8) & 0xff);
	/*
	 * fork and mprotect change entries a batch at a time with one TLB
	 * flush per batch (mm/memory.c): 300 pages span several batches.
	 */
	big = mmap(NULL, 300 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (unsigned long i = 0; i < 300; i++)
		big[i * PAGE] = 'p';
	pid = fork();
	if (pid == 0) {
		int ok = 1;

		for (unsigned long i = 0; i < 300; i++)
			ok &= big[i * PAGE] == 'p';
		for (unsigned long i = 0; i < 300; i++)
			big[i * PAGE] = 'c';
		for (unsigned long i = 0; i < 300; i++)
			ok &= big[i * PAGE] == 'c';
		exit(ok ? 7 : 1);
	}
	status = wait_child(pid);
	sum = 0;
	for (unsigned long i = 0; i < 300; i++)
		sum += big[i * PAGE] == 'p';
	printf("fork of 300 pages: the child saw them and wrote its own: %s; the parent's intact: %lu\n",
	       (status >> 8) == 7 ? "yes" : "no", sum);
	mprotect(big, 300 * PAGE, PROT_READ);
	fix_by_mapping = 0;
	fix_prot = PROT_READ | PROT_WRITE;
	barrier();
	big[0] = 'q';
	report("write to page 1 of 300 made read-only", big);
	barrier();
	big[150 * PAGE] = 'q';
	report("write to page 151 of them", big);
	barrier();
	big[299 * PAGE] = 'q';
	report("write to page 300 of them", big);
	sum = 0;
	for (unsigned long i = 0; i < 300; i++)
		sum += big[i * PAGE] == 'p';
	printf("  then pages 1, 151, 300 hold %c %c %c; the other %lu unchanged\n", big[0],
	       big[150 * PAGE], big[299 * PAGE], sum);
	mprotect(big, 300 * PAGE, PROT_READ | PROT_WRITE);
	for (unsigned long i = 0; i < 300; i++)
		big[i * PAGE] = 'r';
	printf("  made writable again, 300 writes take %d fault(s)\n", faults);
	munmap(big, 300 * PAGE);
	printf("faults: done\n");
	return 0;
}
