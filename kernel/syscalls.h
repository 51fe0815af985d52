/* SPDX-License-Identifier: MIT */
/* System call handlers defined outside kernel/syscall.c, for its table. */
#ifndef KERNEL_SYSCALLS_H
#define KERNEL_SYSCALLS_H

#include <pagoda/types.h>

/*
 * Every handler takes the six argument registers (args[0..5]) and answers
 * a value or a negative errno, so one function type declares them all;
 * each definition still spells out "long sys_NAME(const unsigned long *args)".
 */
typedef long syscall_fn_t(const unsigned long *args);

syscall_fn_t sys_openat, sys_read, sys_close, sys_lseek, sys_write;
/* kernel/read_write.c, with sys_read and sys_write */
syscall_fn_t sys_readv, sys_writev, sys_pread64, sys_pwrite64, sys_ioctl,
	sys_dup, sys_dup2, sys_dup3, sys_pipe2, sys_pipe, sys_fstat,
	sys_newfstatat, sys_readlinkat;
syscall_fn_t sys_preadv, sys_pwritev, sys_preadv2, sys_pwritev2;
/* fs/aio.c: Linux's native asynchronous I/O */
syscall_fn_t sys_io_setup, sys_io_destroy, sys_io_submit, sys_io_getevents,
	sys_io_cancel;
syscall_fn_t sys_stat, sys_lstat, sys_readlink;
syscall_fn_t sys_execve, sys_fork, sys_vfork, sys_clone, sys_wait4, sys_getuid;
/* kernel/futex/syscalls.c, kernel/thread.c: threads and their futexes. */
syscall_fn_t sys_set_robust_list, sys_get_robust_list, sys_futex,
	sys_futex_waitv, sys_set_tid_address, sys_gettid;
syscall_fn_t sys_madvise, sys_getcpu, sys_prlimit64, sys_nanosleep,
	sys_clock_nanosleep, sys_arch_prctl;
/* kernel/signal.c */
syscall_fn_t sys_rt_sigaction, sys_rt_sigprocmask, sys_rt_sigsuspend,
	sys_sigaltstack, sys_kill, sys_rt_sigreturn, sys_tgkill, sys_tkill;
/* kernel/time/: the clocks and the interval timers. */
syscall_fn_t sys_clock_gettime, sys_clock_getres, sys_gettimeofday,
	sys_getitimer, sys_setitimer;
syscall_fn_t sys_alarm, sys_pause;
/* kernel/sched/syscalls.c: affinity. kernel/sys.c: rseq, answered as without CONFIG_RSEQ. */
syscall_fn_t sys_sched_getaffinity, sys_sched_setaffinity, sys_rseq,
	sys_sysinfo;
struct process;
/* kernel/rusage.c */
syscall_fn_t sys_getrusage;
void acct_process_exit(struct process *p);
void acct_collect_child(struct process *p, struct process *c);
int put_child_rusage(u64 uaddr, struct process *c);
/*
 * p's CPU time so far: its ended threads' and its live ones'
 * (CLOCK_PROCESS_CPUTIME_ID, /proc/PID/stat).
 */
u64 run_time_ns(struct process *p);
/* ns split into user and system time as the tick saw them (/proc/PID/stat). */
void cputime_adjust(u64 ns, u64 uticks, u64 sticks, u64 *utime, u64 *stime);
/* fs/: the file calls, with x86-64's older ones (open, creat, access). */
syscall_fn_t sys_open, sys_creat, sys_access, sys_faccessat, sys_faccessat2, sys_statx, sys_fadvise64,
	sys_statfs, sys_fstatfs;
/* fs/ and the rest of a shell's calls. */
syscall_fn_t sys_getdents64, sys_mkdirat, sys_unlinkat, sys_fchmodat,
	sys_fchmod, sys_chmod, sys_symlinkat, sys_symlink, sys_renameat2,
	sys_fcntl, sys_umask, sys_chdir, sys_fchdir, sys_getcwd, sys_mount,
	sys_umount2, sys_reboot, sys_truncate, sys_ftruncate, sys_fsync,
	sys_getpgid, sys_setpgid, sys_getsid, sys_setsid, sys_renameat;
syscall_fn_t sys_mkdir, sys_rmdir, sys_unlink, sys_rename, sys_getpgrp;
syscall_fn_t sys_ppoll, sys_pselect6, sys_sync, sys_utimensat, sys_prctl,
	sys_sendfile;
syscall_fn_t sys_poll, sys_select;
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
syscall_fn_t sys_getpriority, sys_setpriority;
/* fs/open.c */
syscall_fn_t sys_fallocate;
/* mm/msync.c */
syscall_fn_t sys_msync;
syscall_fn_t sys_mincore;
/* net/af_unix.c: socket pairs */
syscall_fn_t sys_socketpair, sys_sendto, sys_recvfrom, sys_shutdown;
/* mm/memfd.c */
syscall_fn_t sys_memfd_create;
/* fs/timerfd.c */
syscall_fn_t sys_timerfd_create, sys_timerfd_settime, sys_timerfd_gettime;

/* ipc/shm.c: System V shared memory */
syscall_fn_t sys_shmget, sys_shmat, sys_shmdt, sys_shmctl;
/* ipc/sem.c: System V semaphores, only the question whether there are any */
syscall_fn_t sys_semctl;

#endif
