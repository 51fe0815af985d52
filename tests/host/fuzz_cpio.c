// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the initramfs reader (lib/cpio.c) and its file table
 * (lib/ramfs.c): the input is a boot module. Whatever the bytes, loading
 * ends (with or without an error), every file the table holds lies inside
 * the input, and every lookup ends: of each name in the table, followed
 * and not, and of each symbolic link's target, however the links loop.
 * Half the inputs get a valid newc header in front, so the mutations
 * reach past the magic into names, links and hard links.
 * `make fuzz-cpio` runs it FUZZ_SECONDS.
 */
#include <pagoda/params.h>
#include <pagoda/ramfs.h>
#include <pagoda/string.h>

#include "fuzz.h"

static struct ramfs fs;

static bool inside(const void *p, u64 len, const u8 *buf, size_t size)
{
	return (const u8 *)p >= buf && len <= size && (const u8 *)p - buf <= (long)(size - len);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const char head[] = "070701" "00000001" "000081a4" "00000000" "00000000"
				   "00000002" "00000000" "00000000" "00000000" "00000000"
				   "00000000" "00000000" "00000002" "00000000" "a\0";
	static bool quiet;
	size_t hlen = sizeof(head) - 1; /* 110 + "a\0": 112, 4-aligned */
	u8 *buf;
	size_t n;

	if (!quiet) {
		parse_params("loglevel=0");
		quiet = true;
	}
	if (!size)
		return 0;
	/* the first byte picks: as it is, or behind a valid entry header */
	n = (data[0] & 1) ? size - 1 + hlen : size - 1;
	buf = malloc(n ? n : 1);
	if (data[0] & 1) {
		memcpy(buf, head, hlen);
		memcpy(buf + hlen, data + 1, size - 1);
	} else {
		memcpy(buf, data + 1, size - 1);
	}
	memset(&fs, 0, sizeof(fs));
	ramfs_load(&fs, buf, n, "fuzz");
	if (fs.nr > RAMFS_MAX_FILES)
		abort();
	for (unsigned int i = 0; i < fs.nr; i++) {
		const struct ramfs_file *f = &fs.files[i], *g;
		char target[RAMFS_PATH_MAX];

		if (!inside(f->path, strlen(f->path) + 1, buf, n) || !inside(f->data, f->size, buf, n))
			abort();
		if (!f->inode || f->inode < fs.files || f->inode >= fs.files + fs.nr)
			abort();
		/* a name of the table is found, as itself when not followed */
		g = ramfs_find(&fs, f->path, false);
		if (g && (g < fs.files || g >= fs.files + fs.nr))
			abort();
		ramfs_find(&fs, f->path, true);
		if (f->size < sizeof(target)) {
			memcpy(target, f->data, f->size);
			target[f->size] = '\0';
			ramfs_find(&fs, target, true);
		}
	}
	free(buf);
	return 0;
}
