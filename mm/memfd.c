// SPDX-License-Identifier: MIT
/*
 * memfd_create(2), as Linux's mm/memfd.c: a file in no directory, backed
 * by shared memory as a tmpfs file is (it is one, on the kernel's own
 * mount: fs/ramfs/inode.c), which a program sizes with ftruncate, reads,
 * writes and maps. The usual way to share memory through a descriptor:
 * with a child across fork, with another program over a socket, or with
 * itself at two addresses. Seals are not kept: MFD_ALLOW_SEALING is taken
 * and fcntl(F_ADD_SEALS) stays -EINVAL; there are no huge pages, so
 * MFD_HUGETLB is -EINVAL.
 */
#include <pagoda/err.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/process.h>
#include <pagoda/shmem.h>
#include <pagoda/string.h>
#include "../kernel/syscalls.h"

#define MFD_CLOEXEC 0x1U
#define MFD_ALLOW_SEALING 0x2U
/* A name longer than Linux's limit, NAME_MAX less "memfd:", is -EINVAL. */
#define MFD_NAME_MAX (NAME_MAX - 6)

/* memfd_create(name, flags): a descriptor, open for reading and writing, size 0. */
long sys_memfd_create(const unsigned long *args)
{
	unsigned int flags = (unsigned int)args[1];
	char name[MFD_NAME_MAX + 1];
	struct file *f;
	int err;

	if (flags & ~(MFD_CLOEXEC | MFD_ALLOW_SEALING))
		return -EINVAL;
	err = string_from_user(name, args[0], sizeof(name));
	if (err)
		return err == -ENAMETOOLONG ? -EINVAL : err;
	f = shmem_file_setup(name);
	if (IS_ERR(f))
		return PTR_ERR(f);
	return fd_install_new(f, flags & MFD_CLOEXEC);
}
