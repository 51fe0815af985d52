/* SPDX-License-Identifier: MIT */
/* What an x86-64 executable looks like to exec (kernel/exec.c). */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#define ELF_MACHINE 62 /* EM_X86_64 */
#define ELF_PLATFORM "x86_64"
/* Where a static-PIE goes before randomisation: two thirds up, as Linux. */
#define ELF_ET_DYN_BASE 0x555555554000UL

#endif
