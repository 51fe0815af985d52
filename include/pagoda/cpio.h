/* SPDX-License-Identifier: MIT */
/*
 * Linux's initramfs format: a cpio archive in the "newc" format (magic
 * 070701), each entry a 110-byte ASCII header of thirteen 8-digit hex
 * fields, the NUL-terminated name, and the data, each padded to 4 bytes;
 * "TRAILER!!!" ends it. Pure code, tested on the host and in the kernel.
 */
#ifndef PAGODA_CPIO_H
#define PAGODA_CPIO_H

#include <pagoda/types.h>

#define CPIO_S_IFMT 0170000
#define CPIO_S_IFDIR 0040000
#define CPIO_S_IFREG 0100000
#define CPIO_S_IFLNK 0120000

struct cpio_entry {
	const char *name;   /* as stored: no leading "/" normally, NUL-terminated */
	const void *data;
	u64 size;
	u32 mode;           /* file type and permission bits */
	u32 mtime;
};

/*
 * The entry at *pos of the archive [buf, buf + size), and *pos moved past
 * it: 1, 0 at the trailer (or at the end of the buffer, which may hold
 * zero padding), or -EINVAL with *why saying what is malformed.
 */
int cpio_next(const void *buf, size_t size, size_t *pos, struct cpio_entry *e,
	      const char **why);

#endif
