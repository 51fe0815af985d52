/* SPDX-License-Identifier: MIT */
/*
 * The checkpoint image, as bytes (docs/checkpoint-restore.md draws it).
 * Pure declarations: the kernel's dump and restore and the host fuzzer
 * (tests/host/fuzz_cr_image.c) share them, and image.c checks a buffer
 * against them before anything is built from it.
 *
 * A 64-byte header, then records, each an 8-byte {type, len} and len
 * bytes of payload padded to 8. Little-endian, the dumping kernel's arch.
 * Order is part of the format, so a single forward pass can check every
 * reference: the vDSO symbol table first; per process its PROC, its
 * VMAs in address order, the PAGEs of those VMAs in address order; then
 * PIPEs, FILEs (a pipe end names its PIPE) and FDs (naming a PROC and a
 * FILE); END last.
 */
#ifndef KERNEL_CR_IMAGE_H
#define KERNEL_CR_IMAGE_H

#include <pagoda/types.h>

#define CR_MAGIC 0x3130524341444750ULL /* "PGDACR01" */
#define CR_VERSION 1u
#define CR_PAGE_SIZE 4096u

#define CR_MAX_PROCS 32
#define CR_MAX_VMAS 64     /* per process */
#define CR_MAX_SYMS 8
#define CR_MAX_FDS 16      /* NR_OPEN */
#define CR_MAX_FILES 128
#define CR_PIPE_MAX 65536u /* a pipe's ring (kernel/pipe.c: 16 pages) */
#define CR_REGS_MAX 512u
#define CR_USTATE_MAX 640u
#define CR_NSIG 64

struct cr_header {
	u64 magic;
	u32 version;
	u32 header_size;  /* sizeof(struct cr_header) */
	u32 machine;      /* ELF e_machine of the dumping kernel */
	u32 nr_records;   /* END included */
	u64 total_len;    /* header and records */
	u64 mono_ns;      /* CLOCK_MONOTONIC at the dump */
	u32 body_crc;     /* crc32 over [header_size, total_len) */
	u32 header_crc;   /* crc32 over this header with header_crc 0 */
	u32 regs_size;    /* the arch's struct pt_regs */
	u32 ustate_size;  /* the arch's struct arch_user_state */
	u32 root_pid;
	u32 flags;        /* 0 */
};

enum cr_rec_type {
	CR_REC_SYMTAB = 1,
	CR_REC_PROC,
	CR_REC_VMA,
	CR_REC_PAGE,
	CR_REC_PIPE,
	CR_REC_FILE,
	CR_REC_FD,
	CR_REC_END,
};

struct cr_rec {
	u32 type, len;
};

/* The dumping kernel's vDSO exports: name and offset from the image's start. */
struct cr_sym {
	char name[32];
	u64 offset;
};

struct cr_symtab {
	u32 nr;
	u32 vdso_pages;   /* the vDSO's size; vvar is one page below it */
	struct cr_sym sym[CR_MAX_SYMS];
};

#define CR_PROC_ZOMBIE 1u  /* ended, not collected: only pid, ppid, exit_status count */
#define CR_PROC_VDSO 2u    /* had [vdso] at vdso_base (and [vvar] at vvar_base if vvar_base) */

struct cr_act {
	u64 handler, flags, restorer, mask;
};

struct cr_proc {
	s32 pid;
	s32 ppid;         /* 0: the tree's root (nobody in the image waits for it) */
	u32 flags;
	s32 exit_status;
	char name[16];
	u64 brk_start, brk, mmap_base, stack;
	u64 vdso_base, vvar_base;
	u64 sigmask, sigpending;
	u64 nr_syscalls;
	struct cr_act act[CR_NSIG];
	u8 regs[CR_REGS_MAX];     /* header.regs_size bytes used */
	u8 ustate[CR_USTATE_MAX]; /* header.ustate_size bytes used */
};

enum cr_vma_kind { CR_VMA_ANON = 1, CR_VMA_VDSO, CR_VMA_VVAR, CR_VMA_FILE };
#define CR_PROT_MASK 6u
#define CR_PATH_MAX 256 /* a FILE area's path, its NUL included */

/*
 * A FILE area (a private mapping of an initramfs file: exec's text, mmap
 * with a descriptor) is followed in its record by the file's absolute
 * path, NUL-terminated; pgoff is the file page at start. Its pages that
 * differ from zero are dumped like an ANON area's.
 */
struct cr_vma {
	s32 pid;
	u32 kind;
	u32 prot;         /* CR_PROT_MASK bits: arch.h's PROT_WRITE (2), PROT_EXEC (4) */
	u32 pgoff;        /* FILE: the file page at start; else 0 */
	u64 start, end;
};

/* One non-zero page of an ANON or VDSO area (VVAR's are the kernel's: never dumped). */
struct cr_page {
	s32 pid;
	u32 pad;
	u64 va;
	u8 data[CR_PAGE_SIZE];
};

/* A pipe's buffered bytes: struct cr_pipe then len bytes. */
struct cr_pipe {
	u32 id;
	u32 len;
	u32 readers, writers; /* open descriptions of each end (0 or 1) */
};

enum cr_file_kind { CR_FILE_CONSOLE = 1, CR_FILE_RAMFS, CR_FILE_PIPE };
#define CR_FILE_WRITE_END 1u
#define CR_FILE_NONBLOCK 2u

struct cr_file {
	u32 id;
	u32 kind;
	u32 flags;
	u32 pipe_id;
	u64 pos;          /* an initramfs file's offset */
	char path[64];    /* an initramfs file's path */
};

struct cr_fd {
	s32 pid;
	u32 fd;
	u32 file_id;
	u32 pad;
};

/* What the running kernel allows: the checker refuses what it could not restore. */
struct cr_limits {
	u32 machine;
	u32 regs_size, ustate_size;
	u64 task_size;
};

/* What a checked image holds, for restore to size its work. */
struct cr_summary {
	const struct cr_header *hdr;
	const struct cr_symtab *symtab;
	unsigned int nr_procs, nr_vmas, nr_pages, nr_pipes, nr_files, nr_fds;
};

/*
 * Check every byte of an image: 0 and *sum filled; -EINVAL (truncated,
 * corrupt, inconsistent) or -EPROTO (another version, arch or register
 * layout) with *why saying what is wrong. Nothing outside buf is read.
 */
int cr_image_check(const void *buf, size_t len, const struct cr_limits *lim,
		   struct cr_summary *sum, const char **why);
/* The record at *off of a checked image (moving *off past it), NULL after END. */
const struct cr_rec *cr_image_next(const void *buf, size_t *off);
/* The crc the header carries, computed. */
u32 cr_header_crc(const struct cr_header *h);

#endif
