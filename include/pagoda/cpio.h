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
	u32 ino, nlink;     /* hard links: the same ino (and dev) within one archive */
	u32 dev_major, dev_minor;
};

/*
 * A walk over a buffer that may hold several archives one after the other
 * (Linux unpacks them in turn: an early microcode archive, then the main
 * one), with zero bytes between and after them.
 */
struct cpio_iter {
	const char *buf;
	size_t size, pos;   /* pos: where the next header is, or the error was */
	bool between;       /* at the start or past a trailer: zeros may follow */
};

static inline void cpio_iter_init(struct cpio_iter *it, const void *buf, size_t size)
{
	*it = (struct cpio_iter){ .buf = buf, .size = size, .pos = 0, .between = true };
}

enum { CPIO_END = 0, CPIO_ENTRY = 1, CPIO_TRAILER = 2 };

/*
 * The next entry: CPIO_ENTRY; CPIO_TRAILER at the end of one archive
 * (another may follow); CPIO_END at the end of the buffer; or -EINVAL with
 * *why saying what is malformed (it->pos then is where). As Linux: an
 * archive starts at a multiple of 4 bytes, only zeros may stand between
 * archives, "070702" archives carry a checksum of each regular file's data
 * that must match, and a buffer may end without a trailer but not in the
 * middle of an entry.
 */
int cpio_next(struct cpio_iter *it, struct cpio_entry *e, const char **why);

/* The name of a compression format whose magic starts buf, or NULL. */
const char *cpio_compression(const void *buf, size_t size);

#endif
