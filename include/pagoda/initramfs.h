/* SPDX-License-Identifier: MIT */
/* The read-only initramfs (kernel/initramfs.c). */
#ifndef PAGODA_INITRAMFS_H
#define PAGODA_INITRAMFS_H

#include <pagoda/types.h>

struct ramfs_file {
	const char *path; /* without the leading "/" */
	const void *data;
	u64 size;
	u32 mode;         /* CPIO_S_IF* type and permission bits */
};

/* The file at path ("/bin/hello" or "bin/hello"), or NULL. */
const struct ramfs_file *ramfs_lookup(const char *path);

#endif
