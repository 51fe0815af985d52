/* SPDX-License-Identifier: MIT */
/*
 * The open flags whose values differ between arches: arm64's Linux moves
 * these three (arch/arm64/include/uapi/asm/fcntl.h, as 32-bit ARM did).
 * The rest are the same everywhere and stand in <pagoda/fs.h>.
 */
#ifndef ASM_FCNTL_H
#define ASM_FCNTL_H

#define O_DIRECTORY 040000
#define O_NOFOLLOW 0100000
#define O_DIRECT 0200000

#endif
