/* SPDX-License-Identifier: MIT */
/*
 * x86-64's own rows of the system call table: the older calls its Linux
 * kept from i386 (arch/x86/entry/syscalls/syscall_64.tbl) that arm64's
 * generic table never had, and arch_prctl. kernel/syscall.c holds the
 * rows both arches share and includes this file inside its table with
 * __SYSCALL(nr, handler) defined, as Linux's syscall_64.c includes the
 * generated list; so there is no include guard.
 */
__SYSCALL(__NR_open, sys_open)
__SYSCALL(__NR_creat, sys_creat)
__SYSCALL(__NR_access, sys_access)
__SYSCALL(__NR_alarm, sys_alarm)
__SYSCALL(__NR_pause, sys_pause)
__SYSCALL(__NR_dup2, sys_dup2)
__SYSCALL(__NR_pipe, sys_pipe)
__SYSCALL(__NR_fork, sys_fork)
__SYSCALL(__NR_vfork, sys_vfork)
__SYSCALL(__NR_arch_prctl, sys_arch_prctl)
__SYSCALL(__NR_stat, sys_stat)
__SYSCALL(__NR_lstat, sys_lstat)
__SYSCALL(__NR_readlink, sys_readlink)
__SYSCALL(__NR_mkdir, sys_mkdir)
__SYSCALL(__NR_rmdir, sys_rmdir)
__SYSCALL(__NR_unlink, sys_unlink)
__SYSCALL(__NR_rename, sys_rename)
__SYSCALL(__NR_getpgrp, sys_getpgrp)
__SYSCALL(__NR_chmod, sys_chmod)
__SYSCALL(__NR_symlink, sys_symlink)
__SYSCALL(__NR_poll, sys_poll)
__SYSCALL(__NR_select, sys_select)
