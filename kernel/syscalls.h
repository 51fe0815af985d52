/* SPDX-License-Identifier: MIT */
/* System call handlers defined outside kernel/syscall.c, for its table. */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

long sys_openat(const unsigned long *args);
long sys_read(const unsigned long *args);
long sys_close(const unsigned long *args);
long sys_lseek(const unsigned long *args);
/* CLOCK_REALTIME - CLOCK_MONOTONIC, in ns (syscall.c; the vDSO shares it). */
s64 realtime_offset_ns(void);

#endif
