/* SPDX-License-Identifier: MIT */
/*
 * The memory character devices programs open by path, after Linux's
 * drivers/char/mem.c and random.c: /dev/null, /dev/zero, /dev/full,
 * /dev/random and /dev/urandom (major 1, Linux's minors), which
 * fs/devtmpfs.c lists in /dev and opens.
 */
#ifndef PAGODA_CHRDEV_H
#define PAGODA_CHRDEV_H

#include <pagoda/types.h>

struct iov_iter;

struct chrdev {
	const char *path;             /* "dev/null": its path from the root, without the slash */
	unsigned int major, minor;
	/* Bytes moved, or -errno; count is what the caller asked (a null write takes it all). */
	long (*read)(struct iov_iter *it);
	long (*write)(struct iov_iter *it, size_t count);
};

/* The i-th device, or NULL past the last (devtmpfs lists them). */
const struct chrdev *chrdev_get(unsigned int i);

#endif
