/* SPDX-License-Identifier: MIT */
/*
 * arm64's own rows of the system call table: none. Its Linux numbers its
 * calls by the generic table (include/uapi/asm-generic/unistd.h), all of
 * whose calls Pagoda has are rows kernel/syscall.c shares with x86-64.
 * x86-64's file lists the older calls only it has; kernel/syscall.c
 * includes this one in the same place.
 */
