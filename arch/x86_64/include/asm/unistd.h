/* SPDX-License-Identifier: MIT */
/* Linux's x86-64 system call numbers (arch/x86/entry/syscalls/syscall_64.tbl). */
#ifndef ASM_UNISTD_H
#define ASM_UNISTD_H

#define __NR_write 1
#define __NR_sched_yield 24
#define __NR_getpid 39
#define __NR_exit 60
#define __NR_gettid 186
#define __NR_exit_group 231
#define NR_syscalls 512

#endif
