/* SPDX-License-Identifier: MIT */
/* What an arm64 executable looks like to exec (kernel/exec.c). */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#define ELF_MACHINE 183 /* EM_AARCH64 */
#define ELF_PLATFORM "aarch64"
/* Where a static-PIE goes before randomisation: two thirds up, as Linux. */
#define ELF_ET_DYN_BASE 0xaaaaaaaaa000UL

#endif
