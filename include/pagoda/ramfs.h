/* SPDX-License-Identifier: MIT */
/*
 * The initramfs's file table (lib/ramfs.c): the files the cpio archives
 * hold, read in place, with hard links and symbolic links as Linux's
 * unpacking would make them. kernel/initramfs.c keeps the kernel's one.
 */
#ifndef PAGODA_RAMFS_H
#define PAGODA_RAMFS_H

#include <pagoda/types.h>

/*
 * busybox's applet links alone are 270; Debian's python3 with its standard
 * library (tools/add-binary.sh, docs/userland.md) about 1,500. 56 bytes each.
 */
#define RAMFS_MAX_FILES 4096
#define RAMFS_PATH_MAX 256 /* the longest path a lookup takes or makes */

struct ramfs_file {
	const char *path; /* without the leading "/" */
	const void *data; /* a symbolic link's: its target, not NUL-terminated */
	u64 size;
	u32 mode;         /* CPIO_S_IF* type and permission bits */
	u32 nlink;        /* names of the file, as the archive says (1 if it says 0) */
	/* the first name of a hard-linked file, the same for all its names
	 * (stat's inode number); the file itself otherwise */
	const struct ramfs_file *inode;
	/* where it came from: which archive, its inode number and device */
	u32 archive, cpio_ino, dev_major, dev_minor;
};

struct ramfs {
	struct ramfs_file files[RAMFS_MAX_FILES];
	unsigned int nr;
	u32 archives; /* archives read so far */
};

/*
 * Read every archive in [buf, buf + size) into fs (what: the name for the
 * messages). 0, or -EINVAL after a message naming the fault and its byte,
 * with the entries before it kept.
 */
int ramfs_load(struct ramfs *fs, const void *buf, size_t size, const char *what);

/*
 * The file at path ("/bin/hello", "bin/hello", "lib/../bin/./hello"), or
 * NULL. Symbolic links on the way are followed, the last one too if
 * follow (stat) and not otherwise (lstat).
 */
const struct ramfs_file *ramfs_find(struct ramfs *fs, const char *path, bool follow);

#endif
