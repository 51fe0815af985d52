/* SPDX-License-Identifier: MIT */
/* System call handlers defined outside kernel/syscall.c, for its table. */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

#include <pagoda/types.h>

long sys_openat(const unsigned long *args);
long sys_read(const unsigned long *args);
long sys_close(const unsigned long *args);
long sys_lseek(const unsigned long *args);
long sys_write(const unsigned long *args);
/* kernel/read_write.c, with sys_read and sys_write */
long sys_readv(const unsigned long *args);
long sys_writev(const unsigned long *args);
long sys_pread64(const unsigned long *args);
long sys_pwrite64(const unsigned long *args);
long sys_ioctl(const unsigned long *args);
long sys_dup(const unsigned long *args);
long sys_dup2(const unsigned long *args);
long sys_dup3(const unsigned long *args);
long sys_pipe2(const unsigned long *args);
long sys_pipe(const unsigned long *args);
long sys_fstat(const unsigned long *args);
long sys_newfstatat(const unsigned long *args);
long sys_readlinkat(const unsigned long *args);
#ifdef __x86_64__
long sys_stat(const unsigned long *args);
long sys_lstat(const unsigned long *args);
long sys_readlink(const unsigned long *args);
#endif
long sys_execve(const unsigned long *args);
long sys_fork(const unsigned long *args);
long sys_vfork(const unsigned long *args);
long sys_clone(const unsigned long *args);
long sys_wait4(const unsigned long *args);
long sys_getuid(const unsigned long *args);
/* kernel/futex/syscalls.c, kernel/thread.c: threads and their futexes. */
long sys_set_robust_list(const unsigned long *args);
long sys_get_robust_list(const unsigned long *args);
long sys_futex(const unsigned long *args);
long sys_futex_waitv(const unsigned long *args);
long sys_set_tid_address(const unsigned long *args);
long sys_gettid(const unsigned long *args);
long sys_madvise(const unsigned long *args);
long sys_getcpu(const unsigned long *args);
long sys_prlimit64(const unsigned long *args);
long sys_nanosleep(const unsigned long *args);
long sys_clock_nanosleep(const unsigned long *args);
long sys_arch_prctl(const unsigned long *args);
long sys_rt_sigaction(const unsigned long *args);
long sys_rt_sigprocmask(const unsigned long *args);
long sys_rt_sigsuspend(const unsigned long *args);
long sys_sigaltstack(const unsigned long *args);
long sys_kill(const unsigned long *args);
long sys_rt_sigreturn(const unsigned long *args);
long sys_tgkill(const unsigned long *args);
long sys_tkill(const unsigned long *args);
/* kernel/time/: the clocks and the interval timers. */
long sys_clock_gettime(const unsigned long *args);
long sys_clock_getres(const unsigned long *args);
long sys_gettimeofday(const unsigned long *args);
long sys_getitimer(const unsigned long *args);
long sys_setitimer(const unsigned long *args);
#ifdef __x86_64__
long sys_alarm(const unsigned long *args);
long sys_pause(const unsigned long *args);
#endif
/* kernel/sched/syscalls.c: affinity. kernel/sys.c: rseq, answered as without CONFIG_RSEQ. */
long sys_sched_getaffinity(const unsigned long *args);
long sys_sched_setaffinity(const unsigned long *args);
long sys_rseq(const unsigned long *args);
long sys_sysinfo(const unsigned long *args);
struct process;
/* kernel/rusage.c */
long sys_getrusage(const unsigned long *args);
void acct_process_exit(struct process *p);
/* p's CPU time so far: its ended threads' and its live ones' (CLOCK_PROCESS_CPUTIME_ID). */
u64 run_time_ns(struct process *p);
void acct_collect_child(struct process *p, struct process *c);
int put_child_rusage(u64 uaddr, struct process *c);
/* p's run time so far, and ns split into user and system time as the tick saw them (/proc/PID/stat). */
u64 run_time_ns(struct process *p);
void cputime_adjust(u64 ns, u64 uticks, u64 sticks, u64 *utime, u64 *stime);
/* kernel/file.c: x86-64's older file calls. */
#ifdef __x86_64__
long sys_open(const unsigned long *args);
long sys_creat(const unsigned long *args);
long sys_access(const unsigned long *args);
#endif
long sys_faccessat(const unsigned long *args);
long sys_faccessat2(const unsigned long *args);
long sys_statx(const unsigned long *args);
long sys_fadvise64(const unsigned long *args);
long sys_statfs(const unsigned long *args);
long sys_fstatfs(const unsigned long *args);
/* fs/ and the rest of a shell's calls. */
long sys_getdents64(const unsigned long *args);
long sys_mkdirat(const unsigned long *args);
long sys_unlinkat(const unsigned long *args);
long sys_fchmodat(const unsigned long *args);
long sys_fchmod(const unsigned long *args);
long sys_chmod(const unsigned long *args);
long sys_symlinkat(const unsigned long *args);
long sys_symlink(const unsigned long *args);
long sys_renameat2(const unsigned long *args);
long sys_fcntl(const unsigned long *args);
long sys_umask(const unsigned long *args);
long sys_chdir(const unsigned long *args);
long sys_fchdir(const unsigned long *args);
long sys_getcwd(const unsigned long *args);
long sys_mount(const unsigned long *args);
long sys_umount2(const unsigned long *args);
long sys_reboot(const unsigned long *args);
long sys_truncate(const unsigned long *args);
long sys_ftruncate(const unsigned long *args);
long sys_fsync(const unsigned long *args);
long sys_getpgid(const unsigned long *args);
long sys_setpgid(const unsigned long *args);
long sys_getsid(const unsigned long *args);
long sys_setsid(const unsigned long *args);
long sys_renameat(const unsigned long *args);
#ifdef __x86_64__
long sys_mkdir(const unsigned long *args);
long sys_rmdir(const unsigned long *args);
long sys_unlink(const unsigned long *args);
long sys_rename(const unsigned long *args);
long sys_getpgrp(const unsigned long *args);
#endif
long sys_ppoll(const unsigned long *args);
long sys_pselect6(const unsigned long *args);
long sys_sync(const unsigned long *args);
long sys_utimensat(const unsigned long *args);
long sys_prctl(const unsigned long *args);
long sys_sendfile(const unsigned long *args);
#ifdef __x86_64__
long sys_poll(const unsigned long *args);
long sys_select(const unsigned long *args);
#endif
/* drivers/tty/n_tty.c: a program reading the console, and its ioctls. */
struct file;
struct iov_iter;
long tty_read(struct file *f, struct iov_iter *to);
long tty_ioctl(unsigned long cmd, u64 arg);
unsigned int tty_poll(void);
/* kernel/signal.c: a write to a pipe nobody reads (SIGPIPE, unless ignored). */
void signal_pipe_broken(void);
/* A NUL-terminated string from user memory, at most len bytes with its NUL. */
int string_from_user(char *buf, u64 ustr, size_t len);

/* kernel/sched/priority.c: nice values */
long sys_getpriority(const unsigned long *args);
long sys_setpriority(const unsigned long *args);
/* mm/memfd.c */
long sys_memfd_create(const unsigned long *args);
/* fs/timerfd.c */
long sys_timerfd_create(const unsigned long *args);
long sys_timerfd_settime(const unsigned long *args);
long sys_timerfd_gettime(const unsigned long *args);

/* ipc/shm.c: System V shared memory */
long sys_shmget(const unsigned long *args);
long sys_shmat(const unsigned long *args);
long sys_shmdt(const unsigned long *args);
long sys_shmctl(const unsigned long *args);

#endif
