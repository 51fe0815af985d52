/* SPDX-License-Identifier: MIT */
/* What an x86-64 executable looks like to exec (kernel/exec.c). */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#define ELF_MACHINE 62 /* EM_X86_64 */
#define ELF_PLATFORM "x86_64"
/* Where a static-PIE goes before randomisation: two thirds up, as Linux. */
#define ELF_ET_DYN_BASE 0x555555554000UL
/*
 * AT_HWCAP and AT_HWCAP2: glibc on x86-64 asks CPUID itself and reads
 * neither, so nothing is claimed here.
 */
#define ELF_HWCAP 0UL
#define ELF_HWCAP2 0UL
/* AT_MINSIGSTKSZ: Linux's MINSIGSTKSZ for x86, more than our frame takes. */
#define ELF_MINSIGSTKSZ 2048UL

/*
 * The vDSO's symbol version and names, as Linux exports them: the clock
 * reads first (clock_gettime, gettimeofday, clock_getres), then the rest.
 */
#define VDSO_VERSION "LINUX_2.6"
#define VDSO_SYMBOLS "__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_clock_getres", "__vdso_time", "__vdso_getcpu"

#endif
