// SPDX-License-Identifier: MIT
/*
 * chmod, fchmod and fchmodat, after Linux's fs/open.c: a file's
 * permission bits (07777; the file type stays) changed by its file
 * system's chmod. Only the tmpfs keeps modes of its own; the initramfs
 * is read-only (-EROFS) and /proc and /dev have none to change (-EPERM).
 * A path is followed through symbolic links, as chmod(2) does; a name
 * that does not exist is -ENOENT first.
 */
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include "../kernel/syscalls.h"

#define AT_SYMLINK_NOFOLLOW 0x100

static int chmod_path(const char *path, u32 mode)
{
	char abs[PATH_MAX];
	struct vfsmount *m;
	const char *rest;
	struct kstat k;
	int err;

	strlcpy(abs, path, sizeof(abs));
	err = follow_link(abs);
	if (err)
		return err;
	m = lookup_mnt(abs, &rest);
	if (!m)
		return -ENOENT;
	err = m->type->getattr(m, rest, &k, true);
	if (!err)
		err = m->type->chmod ? m->type->chmod(m, rest, mode & 07777)
		      : m->type == &rootfs_fs_type ? -EROFS : -EPERM;
	mntput(m);
	return err;
}

static long do_fchmodat(long dirfd, u64 upath, u32 mode, unsigned long flags)
{
	char abs[PATH_MAX];
	int err;

	/* Linux 6.1's fchmodat has no flags argument; fchmodat2's NOFOLLOW came later. */
	(void)flags;
	err = user_path_at(dirfd, upath, abs);
	if (err)
		return err;
	if (!abs[0])
		return -ENOENT;
	return chmod_path(abs, mode);
}

long sys_fchmodat(const unsigned long *args)
{
	return do_fchmodat((long)args[0], args[1], (u32)args[2], 0);
}

/* fchmod(fd, mode): the open file's, by the name it was opened with. */
long sys_fchmod(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);

	if (!f)
		return -EBADF;
	if (f->kind == FILE_PIPE)
		return 0; /* a pipe's mode is nobody's concern here */
	if (f->kind == FILE_RAMFS)
		return -EROFS;
	if (!f->path)
		return -EPERM; /* the console as fds 0-2 */
	return chmod_path(f->path, (u32)args[1]);
}

long sys_chmod(const unsigned long *args)
{
	return do_fchmodat(AT_FDCWD, args[0], (u32)args[1], 0);
}
