// SPDX-License-Identifier: MIT
/*
 * vdsotest: find the vDSO the way a libc does, from AT_SYSINFO_EHDR, by
 * parsing its ELF here (program headers, PT_DYNAMIC, DT_HASH and
 * DT_GNU_HASH, the symbol and version tables), check the expected version
 * and symbols (given as arguments: VERSION CLOCK_GETTIME GETTIMEOFDAY
 * CLOCK_GETRES [MORE...]), then compare the vDSO's clocks with the system
 * calls: CLOCK_MONOTONIC never goes backwards across both, over many
 * rounds while the timer updates the data page, realtime agrees, and a
 * clock the vDSO does not serve falls back to the system call. Exit
 * status: the failed checks.
 */
#include <linux/elf.h>
#include <ulib.h>

static int failures;

static int memcmp_magic(const unsigned char *id)
{
	return !(id[0] == 0x7f && id[1] == 'E' && id[2] == 'L' && id[3] == 'F');
}

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("vdsotest: FAIL: %s\n", what);
		failures++;
	}
}

static unsigned long bias;
static const Elf64_Sym *symtab;
static const char *strtab;
static const uint16_t *versym;
static const Elf64_Verdef *verdef;
static unsigned long nsyms;

/* The version name of symbol i, or NULL. */
static const char *version_of(unsigned long i)
{
	uint16_t want = versym ? versym[i] & 0x7fff : 0;

	for (const char *d = (const char *)verdef; d;) {
		const Elf64_Verdef *vd = (const Elf64_Verdef *)d;

		if (vd->vd_ndx == want)
			return strtab + ((const Elf64_Verdaux *)(d + vd->vd_aux))->vda_name;
		d = vd->vd_next ? d + vd->vd_next : NULL;
	}
	return NULL;
}

static void *lookup(const char *name, const char *version)
{
	for (unsigned long i = 1; i < nsyms; i++) {
		const Elf64_Sym *s = &symtab[i];
		const char *v = version_of(i);

		if ((s->st_info & 0xf) != 2 /* STT_FUNC */ || !s->st_shndx)
			continue;
		if (!strcmp(strtab + s->st_name, name) && v && !strcmp(v, version))
			return (void *)(bias + s->st_value);
	}
	return NULL;
}

typedef int (*clock_gettime_t)(long, struct timespec *);
typedef int (*gettimeofday_t)(void *, void *);

static long ts_ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

/* CLOCK_MONOTONIC alternating the vDSO and the syscall: how often it went back. */
static long backwards_count(clock_gettime_t vgettime, int rounds)
{
	struct timespec a;
	long last = 0, backwards = 0;

	for (int i = 0; i < rounds; i++) {
		int r = (i & 1) ? vgettime(CLOCK_MONOTONIC, &a) : clock_gettime(CLOCK_MONOTONIC, &a);

		if (r || ts_ns(&a) < last)
			backwards++;
		last = ts_ns(&a);
	}
	return backwards;
}

/*
 * Four children run the interleaved check at once, yielding as they go,
 * so the scheduler spreads them and moves them between CPUs while the
 * timer rewrites the data page: each reads the counter of whatever CPU it
 * is on. Each exits with its count of backward steps (0 expected).
 */
static int on_every_cpu(clock_gettime_t vgettime)
{
	long pid[4];
	int bad = 0, status;

	for (int i = 0; i < 4; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			long b = 0;

			for (int k = 0; k < 20; k++) {
				b += backwards_count(vgettime, 200);
				syscall0(__NR_sched_yield);
			}
			exit(b ? 1 : 0);
		}
	}
	for (int i = 0; i < 4; i++) {
		status = -1;
		if (pid[i] <= 0 || syscall6(__NR_wait4, pid[i], &status, 0, 0, 0, 0) != pid[i] ||
		    status != 0)
			bad++;
	}
	return bad == 0;
}

#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2

/* The vDSO image's size in pages: its one PT_LOAD, rounded up. */
static unsigned long vdso_pages(const Elf64_Ehdr *eh)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD)
			return (ph[i].p_memsz + 4095) / 4096;
	return 0;
}

static int clock_works(clock_gettime_t f)
{
	struct timespec t;

	return f(CLOCK_MONOTONIC, &t) == 0 && (t.tv_sec > 0 || t.tv_nsec > 0);
}

/*
 * What checkpoint/restore does to the vDSO: move it (mremap, the vvar page
 * below it too) and, on x86-64, map it afresh where asked
 * (arch_prctl(ARCH_MAP_VDSO_64)); it must keep working at each place.
 * Last, unmap it: the program carries on, its clocks through the syscall.
 */
static void move_checks(const Elf64_Ehdr *eh, clock_gettime_t vgettime)
{
	unsigned long n = vdso_pages(eh), base = (unsigned long)eh, dest;
	unsigned long off = (unsigned long)vgettime - base;
	long r;

	check(n > 0, "the vDSO has a PT_LOAD");
	dest = (unsigned long)mmap(NULL, (n + 3) * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0);
	check(dest < (unsigned long)-4095, "room to move the vDSO to");
	if (!n || dest >= (unsigned long)-4095)
		return;
	munmap((void *)dest, (n + 3) * 4096);
	dest += 2 * 4096;
	r = syscall6(__NR_mremap, base - 4096, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED,
		     dest - 4096, 0);
	check(r == (long)(dest - 4096), "mremap moves vvar");
	r = syscall6(__NR_mremap, base, n * 4096, n * 4096, MREMAP_MAYMOVE | MREMAP_FIXED, dest,
		     0);
	check(r == (long)dest, "mremap moves the vDSO");
	if (r == (long)dest)
		check(clock_works((clock_gettime_t)(dest + off)), "the moved vDSO reads the clock");
#ifdef __x86_64__
	{
		unsigned long again = dest + 64 * 4096;

		r = syscall2(__NR_arch_prctl, 0x2003 /* ARCH_MAP_VDSO_64 */, again);
		check(r > 0, "arch_prctl(ARCH_MAP_VDSO_64) maps it where asked");
		if (r > 0) {
			check(clock_works((clock_gettime_t)(again + off)),
			      "the vDSO mapped afresh reads the clock");
			dest = again;
		}
	}
#endif
	check(munmap((void *)(dest - 4096), (n + 1) * 4096) == 0, "the vDSO can be unmapped");
	{
		struct timespec t;

		check(clock_gettime(CLOCK_MONOTONIC, &t) == 0, "the syscall clock still works");
	}
}

int main(int argc, char **argv, char **envp)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	const uint64_t *dyn = NULL;
	int have_hash = 0, have_gnu_hash = 0;
	clock_gettime_t vgettime;
	gettimeofday_t vgettimeofday;
	struct timespec a, b;
	long last = 0, backwards = 0;

	(void)envp;
	if (argc < 5) {
		printf("usage: vdsotest VERSION CLOCK_GETTIME GETTIMEOFDAY CLOCK_GETRES [SYMBOL...]\n");
		return 100;
	}
	check(eh != NULL, "AT_SYSINFO_EHDR is in the auxiliary vector");
	if (!eh)
		return failures;
	check(!memcmp_magic(eh->e_ident), "the vDSO starts with an ELF header");
	check(eh->e_type == 3, "the vDSO is a shared object");
	ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !bias)
			bias = (unsigned long)eh - ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const uint64_t *)ph[i].p_vaddr;
	}
	check(dyn != NULL, "the vDSO has PT_DYNAMIC");
	if (!dyn)
		return failures;
	dyn = (const uint64_t *)((unsigned long)dyn + bias);
	for (; dyn[0] != DT_NULL; dyn += 2) {
		switch (dyn[0]) {
		case DT_HASH:
			have_hash = 1;
			nsyms = ((const uint32_t *)(bias + dyn[1]))[1]; /* nchain */
			break;
		case DT_GNU_HASH:
			have_gnu_hash = 1;
			break;
		case DT_STRTAB:
			strtab = (const char *)(bias + dyn[1]);
			break;
		case DT_SYMTAB:
			symtab = (const Elf64_Sym *)(bias + dyn[1]);
			break;
		case DT_VERSYM:
			versym = (const uint16_t *)(bias + dyn[1]);
			break;
		case DT_VERDEF:
			verdef = (const Elf64_Verdef *)(bias + dyn[1]);
			break;
		}
	}
	check(have_hash, "DT_HASH");
	check(have_gnu_hash, "DT_GNU_HASH");
	check(symtab && strtab && versym && verdef, "symbol, string and version tables");
	if (!symtab || !strtab || !nsyms)
		return failures;
	for (int i = 2; i < argc; i++)
		if (!lookup(argv[i], argv[1])) {
			printf("vdsotest: %s@%s missing\n", argv[i], argv[1]);
			check(0, "an expected symbol is exported with the expected version");
		}
	check(lookup(argv[2], "LINUX_0.0") == NULL, "a wrong version does not match");
	vgettime = (clock_gettime_t)lookup(argv[2], argv[1]);
	vgettimeofday = (gettimeofday_t)lookup(argv[3], argv[1]);
	if (!vgettime || !vgettimeofday)
		return failures;

	/* Monotonic through both paths, interleaved: never backwards. */
	for (int i = 0; i < 2000; i++) {
		int r = (i & 1) ? vgettime(CLOCK_MONOTONIC, &a) : clock_gettime(CLOCK_MONOTONIC, &a);

		if (r || ts_ns(&a) < last)
			backwards++;
		last = ts_ns(&a);
	}
	check(backwards == 0, "CLOCK_MONOTONIC never goes backwards across the vDSO and the syscall");
	check(on_every_cpu(vgettime), "the same in four processes at once, on every CPU they land on");
	check(vgettime(CLOCK_REALTIME, &a) == 0 && clock_gettime(CLOCK_REALTIME, &b) == 0 &&
	      ts_ns(&b) - ts_ns(&a) >= 0 && ts_ns(&b) - ts_ns(&a) < 1000000000L,
	      "CLOCK_REALTIME agrees with the syscall");
	check(a.tv_sec > 1500000000L || a.tv_sec < 100000L, "realtime is the RTC's or zero-based");
	check(vgettime(6 /* CLOCK_MONOTONIC_COARSE */, &a) == 0 && ts_ns(&a) <= last + 1000000000L,
	      "the coarse clock is served and not ahead");
	check(vgettime(12345, &a) == -22, "an unknown clock falls back to the syscall's -EINVAL");
	{
		long tv[2] = { 0, 0 };

		check(vgettimeofday(tv, NULL) == 0 && tv[1] >= 0 && tv[1] < 1000000,
		      "gettimeofday through the vDSO");
	}
	move_checks(eh, vgettime);
	printf("vdsotest: %d symbols, %d failure(s)\n", argc - 2, failures);
	return failures;
}
