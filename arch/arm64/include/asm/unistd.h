/* SPDX-License-Identifier: MIT */
/* Linux's arm64 system call numbers (the generic table, include/uapi/asm-generic/unistd.h). */
#ifndef ASM_UNISTD_H
#define ASM_UNISTD_H

#define __NR_write 64
#define __NR_exit 93
#define __NR_exit_group 94
#define __NR_sched_yield 124
#define __NR_getpid 172
#define __NR_gettid 178
#define NR_syscalls 512

#endif
