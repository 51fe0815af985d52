/* SPDX-License-Identifier: MIT */
/* What an arm64 executable looks like to exec (kernel/exec.c). */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#define ELF_MACHINE 183 /* EM_AARCH64 */
#define ELF_PLATFORM "aarch64"
/* Where a static-PIE goes before randomisation: two thirds up, as Linux. */
#define ELF_ET_DYN_BASE 0xaaaaaaaaa000UL
/*
 * AT_HWCAP: what every core Pagoda runs on has and the kernel keeps for
 * each thread (Linux's HWCAP_FP | HWCAP_ASIMD); glibc picks its string
 * routines by it. Nothing in AT_HWCAP2.
 */
#define ELF_HWCAP 0x3UL
#define ELF_HWCAP2 0UL
/* AT_MINSIGSTKSZ: Linux's MINSIGSTKSZ for arm64, more than our frame takes. */
#define ELF_MINSIGSTKSZ 5120UL

/*
 * The vDSO's symbol version and names, as Linux exports them: the clock
 * reads first (clock_gettime, gettimeofday, clock_getres), then the rest.
 */
#define VDSO_VERSION "LINUX_2.6.39"
#define VDSO_SYMBOLS "__kernel_clock_gettime", "__kernel_gettimeofday", "__kernel_clock_getres", \
	"__kernel_rt_sigreturn"

#endif
