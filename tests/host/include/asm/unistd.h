/* SPDX-License-Identifier: MIT */
/* The host test build runs no system calls: only the table's size. */
#ifndef ASM_UNISTD_H
#define ASM_UNISTD_H

#define NR_syscalls 512

#endif
