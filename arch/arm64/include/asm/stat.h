/* SPDX-License-Identifier: MIT */
/*
 * What stat(2) and fstat(2) write on arm64: the generic layout (Linux's
 * include/uapi/asm-generic/stat.h), 128 bytes, st_mode before a 32-bit
 * st_nlink, st_blksize 32-bit. fs/stat.c fills it from a struct kstat.
 */
#ifndef ASM_STAT_H
#define ASM_STAT_H

#include <pagoda/types.h>

struct stat {
	u64 st_dev;
	u64 st_ino;
	u32 st_mode;
	u32 st_nlink;
	u32 st_uid;
	u32 st_gid;
	u64 st_rdev;
	u64 __pad1;
	s64 st_size;
	s32 st_blksize;
	s32 __pad2;
	s64 st_blocks;
	s64 st_atime;
	u64 st_atime_nsec;
	s64 st_mtime;
	u64 st_mtime_nsec;
	s64 st_ctime;
	u64 st_ctime_nsec;
	u32 __unused4;
	u32 __unused5;
};

_Static_assert(sizeof(struct stat) == 128, "arm64's struct stat is 128 bytes");

#endif
