/* SPDX-License-Identifier: MIT */
/*
 * The file an exec runs (Linux's struct linux_binprm, the part Pagoda
 * needs): kernel/exec_file.c opens it, kernel/exec.c loads it.
 */
#ifndef PAGODA_BINFMTS_H
#define PAGODA_BINFMTS_H

#include <pagoda/types.h>

struct ramfs_file;
struct shmem_object;

/*
 * Its bytes, whole, to parse and to fill the partly-file pages from, and
 * where its whole pages map from: an initramfs file's page cache (rf), or
 * a tmpfs file's shared memory object, mapped privately (shm).
 */
struct exec_file {
	const void *data;
	u64 size;
	const struct ramfs_file *rf;
	struct shmem_object *shm;
	void *copy; /* a tmpfs file's bytes, read at open (vmalloc'ed) */
};

/*
 * Open path (absolute) to run it, as Linux's open_exec(): 0, or -ENOENT,
 * -EACCES (not a regular file, no execute bit, a file that cannot be
 * mapped) or -ENOMEM, with *why said. exec_file_put() gives it back.
 */
int open_exec(const char *path, struct exec_file *x, const char **why);
void exec_file_put(struct exec_file *x);

#endif
