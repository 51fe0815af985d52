// SPDX-License-Identifier: MIT
/*
 * A dynamically linked, position-dependent (ET_EXEC, -no-pie) program that
 * prints what the kernel told it at exec through the auxiliary vector, in
 * a form that does not depend on the machine or the run: the same binary
 * prints the same lines on Linux and on Pagoda (tests/levels/dynelf.py
 * compares them). It is built by the test with the host's gcc against
 * glibc, and runs through ld.so like any Debian program.
 *
 *	dynaux              the auxiliary vector's checks
 *	dynaux exec PATH    execve(PATH) and the error it gives
 *	dynaux base         where the loader and the stack are this run
 *	                    (they move from run to run unless randomisation is off)
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char _start[];

static void yes(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "yes" : "NO");
}

/* Is one of the loaded objects the vDSO (its headers inside the vDSO's image)? */
static int is_vdso(struct dl_phdr_info *info, size_t size, void *data)
{
	unsigned long at = (unsigned long)info->dlpi_phdr, vdso = *(unsigned long *)data;

	(void)size;
	return vdso && at >= vdso && at < vdso + 4096;
}

int main(int argc, char **argv)
{
	const Elf64_Ehdr *prog, *ld, *vdso;
	unsigned long base = getauxval(AT_BASE), phdr = getauxval(AT_PHDR);
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);

	if (argc == 3 && !strcmp(argv[1], "exec")) {
		char *args[] = { argv[2], NULL };

		execv(argv[2], args);
		printf("exec %s: %s\n", strrchr(argv[2], '/') + 1, strerror(errno));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "base")) {
		printf("loader at %#lx, stack near %#lx\n", base, (unsigned long)rnd & ~4095UL);
		return 0;
	}
	/* A position-dependent program is where its link put it, on any kernel. */
	prog = (const Elf64_Ehdr *)(phdr - sizeof(Elf64_Ehdr));
	printf("program headers at %#lx, %lu of %lu bytes\n", phdr, getauxval(AT_PHNUM),
	       getauxval(AT_PHENT));
	yes("the program is ET_EXEC", prog->e_type == ET_EXEC);
	yes("AT_ENTRY is _start", getauxval(AT_ENTRY) == (unsigned long)_start);
	ld = (const Elf64_Ehdr *)base;
	yes("AT_BASE is the loader, page-aligned ET_DYN",
	    base && !(base % 4096) && !memcmp(ld->e_ident, ELFMAG, SELFMAG) && ld->e_type == ET_DYN);
	vdso = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	yes("AT_SYSINFO_EHDR is an ELF image", vdso && !memcmp(vdso->e_ident, ELFMAG, SELFMAG));
	/* ld.so takes a usable vDSO into its list of objects; its clocks come from there. */
	yes("the loader took the vDSO in", dl_iterate_phdr(is_vdso, &(unsigned long){
		getauxval(AT_SYSINFO_EHDR) }));
	printf("AT_PAGESZ %lu, AT_SECURE %lu\n", getauxval(AT_PAGESZ), getauxval(AT_SECURE));
	yes("AT_EXECFN is the path run", execfn && !strcmp(execfn, argv[0]));
	yes("AT_RANDOM points at 16 bytes, not all zero",
	    rnd && (memcmp(rnd, "\0\0\0\0\0\0\0\0", 8) || memcmp(rnd + 8, "\0\0\0\0\0\0\0\0", 8)));
	yes("AT_UID and AT_EUID are getuid() and geteuid()",
	    getauxval(AT_UID) == getuid() && getauxval(AT_EUID) == geteuid());
	yes("AT_MINSIGSTKSZ is given", getauxval(AT_MINSIGSTKSZ) > 0);
	printf("dynaux: done\n");
	return 0;
}
