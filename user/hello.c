// SPDX-License-Identifier: MIT
/*
 * hello: the first program of the initramfs, and a check of what the
 * kernel promised at exec: Linux's initial stack (argc, argv, envp, the
 * auxiliary vector), the program headers where AT_PHDR says, 16 random
 * bytes at AT_RANDOM, a heap (brk) and anonymous mmap that hold what is
 * written, a monotonic clock. It prints what it finds and exits with the
 * number of failed checks (0: all good), so a test needs only its status.
 */
#include <ulib.h>

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("hello: FAIL: %s\n", what);
		failures++;
	}
}

/* Hidden: reached PC-relative, so a static-PIE needs no relocation for it. */
extern char _start[] __attribute__((visibility("hidden")));

int main(int argc, char **argv, char **envp)
{
	unsigned char *rnd = (unsigned char *)getauxval(25 /* AT_RANDOM */);
	unsigned int *phdr = (unsigned int *)getauxval(3 /* AT_PHDR */);
	unsigned long phnum = getauxval(5 /* AT_PHNUM */);
	struct timespec a, b;
	char *heap, *map;
	long brk_now;
	int loads = 0, nonzero = 0;

	printf("hello, world from pid %ld: argc=%d", getpid(), argc);
	for (int i = 0; i < argc; i++)
		printf(" argv[%d]=%s", i, argv[i]);
	printf("\n");
	for (char **e = envp; *e; e++)
		printf("hello: env %s\n", *e);
	check(argc >= 1 && argv[argc] == NULL, "argv ends in NULL");
	check(getauxval(6 /* AT_PAGESZ */) == 4096, "AT_PAGESZ is 4096");
	check(getauxval(9 /* AT_ENTRY */) == (unsigned long)_start, "AT_ENTRY is _start");
	check(getauxval(17 /* AT_CLKTCK */) == 100, "AT_CLKTCK is 100");
	check(getauxval(4 /* AT_PHENT */) == 56, "AT_PHENT is 56");
	check(phdr && phnum > 0 && phnum < 32, "AT_PHDR and AT_PHNUM");
	for (unsigned long i = 0; phdr && i < phnum && i < 32; i++)
		loads += phdr[i * 14] == 1; /* p_type == PT_LOAD */
	check(loads >= 1, "the program headers hold a PT_LOAD");
	check(rnd != NULL, "AT_RANDOM");
	for (int i = 0; rnd && i < 16; i++)
		nonzero += rnd[i] != 0;
	check(nonzero >= 8, "AT_RANDOM holds random bytes");
	check(getauxval(31 /* AT_EXECFN */) != 0 &&
	      !strcmp((char *)getauxval(31), argv[0]), "AT_EXECFN is the path");

	heap = sbrk(3 * 4096);
	check(heap != (void *)-1, "brk grows");
	if (heap != (void *)-1) {
		memset(heap, 0x5a, 3 * 4096);
		check(heap[3 * 4096 - 1] == 0x5a, "the heap holds what is written");
		check(sbrk(-2 * 4096) != (void *)-1, "brk shrinks");
		/*
		 * The whole pages given back are gone: grown again, they read
		 * zeros (the last byte's page lies wholly above the shrunk break).
		 */
		check(sbrk(2 * 4096) == heap + 4096 && heap[3 * 4096 - 1] == 0,
		      "brk grown again over given-back pages reads zeros");
	}
	/* A refused brk answers the current break, not an error (the raw call, as Linux). */
	brk_now = syscall1(__NR_brk, 0);
	check(brk_now > 0 && syscall1(__NR_brk, 1UL << 62) == brk_now,
	      "a refused brk answers the current break");
	map = mmap(NULL, 5 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check((unsigned long)map < (unsigned long)-4096, "mmap gives memory");
	if ((unsigned long)map < (unsigned long)-4096) {
		check(map[4096 * 5 - 1] == 0, "mmap memory is zeroed");
		map[0] = 'x';
		map[5 * 4096 - 1] = 'y';
		check(map[0] == 'x' && map[5 * 4096 - 1] == 'y', "mmap memory holds what is written");
		check(munmap(map + 4096, 4096) == 0, "munmap of a middle page");
		check(munmap(map, 5 * 4096) == 0, "munmap of the rest");
	}
	check(clock_gettime(CLOCK_MONOTONIC, &a) == 0, "clock_gettime(CLOCK_MONOTONIC)");
	check(clock_gettime(CLOCK_MONOTONIC, &b) == 0 &&
	      (b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec)),
	      "the monotonic clock does not go back");
	check(clock_gettime(12345, &a) == -22, "an unknown clock is -EINVAL");
	printf("hello: %d failure(s)\n", failures);
	return failures;
}
