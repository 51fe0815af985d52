/* SPDX-License-Identifier: MIT */
/* System call handlers defined outside kernel/syscall.c, for its table. */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

long sys_openat(const unsigned long *args);
long sys_read(const unsigned long *args);
long sys_close(const unsigned long *args);
long sys_lseek(const unsigned long *args);
long sys_fstat(const unsigned long *args);
long sys_newfstatat(const unsigned long *args);
long sys_execve(const unsigned long *args);
long sys_fork(const unsigned long *args);
long sys_vfork(const unsigned long *args);
long sys_clone(const unsigned long *args);
long sys_wait4(const unsigned long *args);
long sys_getuid(const unsigned long *args);
long sys_set_robust_list(const unsigned long *args);
long sys_madvise(const unsigned long *args);
long sys_getcpu(const unsigned long *args);
long sys_prlimit64(const unsigned long *args);
long sys_nanosleep(const unsigned long *args);
long sys_clock_nanosleep(const unsigned long *args);
long sys_arch_prctl(const unsigned long *args);
long sys_rt_sigaction(const unsigned long *args);
long sys_rt_sigprocmask(const unsigned long *args);
long sys_sigaltstack(const unsigned long *args);
long sys_kill(const unsigned long *args);
long sys_tgkill(const unsigned long *args);
/* A NUL-terminated string from user memory, at most len bytes with its NUL. */
int string_from_user(char *buf, u64 ustr, size_t len);
/* CLOCK_REALTIME - CLOCK_MONOTONIC, in ns (syscall.c; the vDSO shares it). */
s64 realtime_offset_ns(void);

#endif
