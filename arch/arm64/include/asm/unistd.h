/* SPDX-License-Identifier: MIT */
/* Linux's arm64 system call numbers (the generic table, include/uapi/asm-generic/unistd.h). */
#ifndef ASM_UNISTD_H
#define ASM_UNISTD_H

#define __NR_ioctl 29
#define __NR_openat 56
#define __NR_close 57
#define __NR_lseek 62
#define __NR_read 63
#define __NR_write 64
#define __NR_writev 66
#define __NR_exit 93
#define __NR_exit_group 94
#define __NR_set_tid_address 96
#define __NR_nanosleep 101
#define __NR_clock_gettime 113
#define __NR_clock_getres 114
#define __NR_sched_yield 124
#define __NR_uname 160
#define __NR_gettimeofday 169
#define __NR_getpid 172
#define __NR_getppid 173
#define __NR_gettid 178
#define __NR_brk 214
#define __NR_munmap 215
#define __NR_mmap 222
#define __NR_mprotect 226
#define __NR_getrandom 278
#define NR_syscalls 512

#endif
