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
#define __NR_readv 65
#define __NR_writev 66
#define __NR_pread64 67
#define __NR_pwrite64 68
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
#define __NR_shmget 194
#define __NR_shmctl 195
#define __NR_semctl 191
#define __NR_shmat 196
#define __NR_shmdt 197
#define __NR_brk 214
#define __NR_munmap 215
#define __NR_mmap 222
#define __NR_mprotect 226
#define __NR_getrandom 278
#define __NR_dup 23
#define __NR_dup3 24
#define __NR_pipe2 59
#define __NR_readlinkat 78
#define __NR_newfstatat 79
#define __NR_fstat 80
#define __NR_futex 98
#define __NR_futex_waitv 449
#define __NR_set_robust_list 99
#define __NR_get_robust_list 100
#define __NR_clock_nanosleep 115
#define __NR_kill 129
#define __NR_tkill 130
#define __NR_tgkill 131
#define __NR_sigaltstack 132
#define __NR_rt_sigaction 134
#define __NR_rt_sigprocmask 135
#define __NR_rt_sigsuspend 133
#define __NR_rt_sigreturn 139
#define __NR_getcpu 168
#define __NR_getuid 174
#define __NR_geteuid 175
#define __NR_getgid 176
#define __NR_getegid 177
#define __NR_mremap 216
#define __NR_clone 220
#define __NR_execve 221
#define __NR_madvise 233
#define __NR_wait4 260
#define __NR_prlimit64 261
#define __NR_faccessat 48
#define __NR_getitimer 102
#define __NR_setitimer 103
#define __NR_sched_setaffinity 122
#define __NR_sched_getaffinity 123
#define __NR_sysinfo 179
#define __NR_getrusage 165
#define __NR_rseq 293
#define __NR_faccessat2 439
/* What Debian's coreutils call (fs/stat.c, fs/fadvise.c, fs/statfs.c). */
#define __NR_statfs 43
#define __NR_fstatfs 44
#define __NR_statx 291
#define __NR_fadvise64 223
#define NR_syscalls 512

/* The file systems and the calls a shell makes (fs/, kernel/sys.c, kernel/reboot.c). */
#define __NR_getdents64 61
#define __NR_mkdirat 34
#define __NR_unlinkat 35
#define __NR_renameat2 276
#define __NR_fcntl 25
#define __NR_umask 166
#define __NR_fchmod 52
#define __NR_fchmodat 53
#define __NR_symlinkat 36
#define __NR_chdir 49
#define __NR_fchdir 50
#define __NR_getcwd 17
#define __NR_mount 40
#define __NR_umount2 39
#define __NR_reboot 142
#define __NR_truncate 45
#define __NR_ftruncate 46
#define __NR_fsync 82
#define __NR_fdatasync 83
#define __NR_getpgid 155
#define __NR_setpgid 154
#define __NR_getsid 156
#define __NR_setsid 157

#define __NR_ppoll 73
#define __NR_pselect6 72
#define __NR_sync 81

#define __NR_sendfile 71

#define __NR_prctl 167

#define __NR_utimensat 88
#define __NR_timerfd_create 85
#define __NR_timerfd_settime 86
#define __NR_timerfd_gettime 87
#define __NR_fallocate 47
#define __NR_msync 227
#define __NR_mincore 232
#define __NR_socketpair 199
#define __NR_sendto 206
#define __NR_recvfrom 207
#define __NR_shutdown 210
#define __NR_memfd_create 279
#define __NR_setpriority 140
#define __NR_getpriority 141

#define __NR_renameat 38 /* arm64 keeps it (__ARCH_WANT_RENAMEAT) */

/* Vectored I/O at a position, and Linux's native AIO (kernel/read_write.c, fs/aio.c). */
#define __NR_preadv 69
#define __NR_pwritev 70
#define __NR_preadv2 286
#define __NR_pwritev2 287
#define __NR_io_setup 0
#define __NR_io_destroy 1
#define __NR_io_submit 2
#define __NR_io_cancel 3
#define __NR_io_getevents 4

/*
 * clone(flags, newsp, parent_tid, tls, child_tid): arm64's Linux selects
 * CLONE_BACKWARDS, so tls comes before child_tid (kernel/fork.c).
 */
#define CONFIG_CLONE_BACKWARDS 1

#endif
