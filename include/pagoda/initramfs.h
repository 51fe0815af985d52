/* SPDX-License-Identifier: MIT */
/* The kernel's read-only initramfs (kernel/initramfs.c). */
#ifndef PAGODA_INITRAMFS_H
#define PAGODA_INITRAMFS_H

#include <pagoda/ramfs.h>

/* The file at path ("/bin/hello" or "bin/hello"), symbolic links followed, or NULL. */
const struct ramfs_file *ramfs_lookup(const char *path);
/* The same, a symbolic link at the end not followed (lstat). */
const struct ramfs_file *ramfs_lookup_nofollow(const char *path);

/* Every file of the initramfs, in the order the archives hold them (a directory listing). */
void ramfs_for_each(void (*fn)(const struct ramfs_file *f, void *arg), void *arg);

#endif
