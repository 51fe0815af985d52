/* SPDX-License-Identifier: MIT */
/*
 * ELF64 (its format in <uapi/linux/elf.h>, shared with user/), and a checker
 * that turns an executable image into the list of segments to map. Pure
 * code: the same lib/elf.c runs in the kernel (kernel/exec.c) and on the
 * host, where it is unit-tested and fuzzed (tests/host/fuzz_elf.c).
 */
#ifndef PAGODA_ELF_H
#define PAGODA_ELF_H

#include <pagoda/types.h>
#include <uapi/linux/elf.h>

/* Linux's auxiliary vector keys (include/uapi/linux/auxvec.h). */
#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_BASE 7
#define AT_FLAGS 8
#define AT_ENTRY 9
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_HWCAP2 26
#define AT_EXECFN 31
#define AT_SYSINFO_EHDR 33
#define AT_MINSIGSTKSZ 51

/* Linux refuses an interpreter path longer than this (PATH_MAX). */
#define ELF_INTERP_MAX 4096

#define ELF_MAX_SEGMENTS 16

struct elf_segment {
	u64 vaddr, memsz;   /* page-aligned span to map, before the load bias */
	u64 offset, filesz; /* file bytes that go at vaddr + (offset & page) */
	u64 start;          /* the segment's own first address (p_vaddr) */
	unsigned int prot;  /* PF_R / PF_W / PF_X */
};

struct elf_info {
	bool pie;          /* ET_DYN: load anywhere, add a bias */
	u64 entry;         /* before the bias */
	u64 phdr;          /* where the program headers are in memory (AT_PHDR), before the bias */
	u16 phnum, phentsize;
	u64 lo, hi;        /* page-aligned span of all segments */
	bool exec_stack;
	u64 interp_off;    /* PT_INTERP: where the loader's path is in the file */
	u32 interp_len;    /* its length with the NUL; 0 for a static program */
	unsigned int nr_segments;
	struct elf_segment seg[ELF_MAX_SEGMENTS];
};

/*
 * Check a whole image for machine `machine` and user addresses below
 * `limit` and describe it. 0, or a negative errno with *why saying what is
 * wrong: -ENOEXEC for anything malformed or not for us, -E2BIG for more
 * segments than we take. A dynamic program's PT_INTERP is checked (inside
 * the file, NUL-terminated, no NUL before the end) and recorded for exec,
 * which loads that interpreter beside the program.
 */
int elf_parse(const void *image, size_t size, u16 machine, u64 limit,
	      struct elf_info *info, const char **why);

#endif
