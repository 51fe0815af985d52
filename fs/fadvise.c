// SPDX-License-Identifier: MIT
/*
 * fadvise64(fd, offset, len, advice): how a program means to read a file
 * (sequentially, soon, not again), after Linux's mm/fadvise.c. A hint
 * only: Pagoda's files are the initramfs's, already in memory, and tmpfs's,
 * so there is nothing to read ahead or drop, and a valid call changes
 * nothing. md5sum and sort ask POSIX_FADV_SEQUENTIAL before reading. The
 * errors are Linux's, in its order.
 */
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/process.h>
#include "../kernel/syscalls.h"

#define POSIX_FADV_NOREUSE 5

long sys_fadvise64(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);

	if (!f)
		return -EBADF;
	if (f->kind == FILE_PIPE)
		return -ESPIPE;
	if ((long)args[2] < 0 || args[3] > POSIX_FADV_NOREUSE)
		return -EINVAL;
	return 0;
}
