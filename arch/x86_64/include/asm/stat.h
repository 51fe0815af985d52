/* SPDX-License-Identifier: MIT */
/*
 * What stat(2) and fstat(2) write, in x86-64's own layout (Linux's
 * arch/x86/include/uapi/asm/stat.h): 144 bytes, a 64-bit st_nlink before
 * st_mode, st_blksize 64-bit. fs/stat.c fills it from a struct kstat.
 */
#ifndef ASM_STAT_H
#define ASM_STAT_H

#include <pagoda/types.h>

struct stat {
	u64 st_dev;
	u64 st_ino;
	u64 st_nlink;
	u32 st_mode;
	u32 st_uid;
	u32 st_gid;
	u32 __pad0;
	u64 st_rdev;
	s64 st_size;
	s64 st_blksize;
	s64 st_blocks;
	u64 st_atime;
	u64 st_atime_nsec;
	u64 st_mtime;
	u64 st_mtime_nsec;
	u64 st_ctime;
	u64 st_ctime_nsec;
	s64 __reserved[3];
};

_Static_assert(sizeof(struct stat) == 144, "x86-64's struct stat is 144 bytes");

#endif
