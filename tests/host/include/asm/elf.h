/* SPDX-License-Identifier: MIT */
/* The host test build loads no programs; the host's own machine stands in. */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#define ELF_MACHINE 62
#define ELF_PLATFORM "x86_64"
#define ELF_ET_DYN_BASE 0x555555554000UL

#define VDSO_VERSION "LINUX_2.6"
#define VDSO_SYMBOLS "__vdso_clock_gettime"

#endif
