/* SPDX-License-Identifier: MIT */
/*
 * The open flags whose values differ between arches: x86-64 takes Linux's
 * generic ones (include/uapi/asm-generic/fcntl.h). The rest are the same
 * everywhere and stand in <pagoda/fs.h>.
 */
#ifndef ASM_FCNTL_H
#define ASM_FCNTL_H

#define O_DIRECT 040000
#define O_DIRECTORY 0200000
#define O_NOFOLLOW 0400000

#endif
