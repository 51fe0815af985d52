// SPDX-License-Identifier: MIT
/*
 * Opening, making and removing names (Linux's fs/open.c and the rest of
 * fs/namei.c): each call finds the mount the path is in and asks its
 * file system, with Linux's checks first and Linux's errno when they
 * fail: O_EXCL on a name that exists is -EEXIST, a directory opened for
 * writing -EISDIR, O_DIRECTORY on a file -ENOTDIR, a rename across
 * mounts -EXDEV, a file system with no such operation (the initramfs)
 * -EROFS.
 */
#include <pagoda/file.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/timer.h>
#include <pagoda/uaccess.h>
#include "../kernel/syscalls.h"
#include "internal.h"

#define MAXSYMLINKS 40

/*
 * Follow abs while its last component is a symbolic link, into whatever
 * mount the target is in (a tmpfs link to /bin/busybox, say): abs becomes
 * what it names, relative targets taken from the link's directory; a
 * name that does not exist is left as it is (for O_CREAT). -ELOOP after
 * Linux's 40 links. Links in the middle of a path are the file system's
 * own (the initramfs's); a tmpfs does not follow those.
 */
int follow_link(char *abs)
{
	char target[PATH_MAX], dir[PATH_MAX];

	for (int i = 0; i <= MAXSYMLINKS; i++) {
		const char *rest;
		struct vfsmount *m = lookup_mnt(abs, &rest);
		struct kstat k;
		int n, err;
		char *slash;

		if (!m)
			return 0;
		err = m->type->getattr(m, rest, &k, false);
		n = !err && S_ISLNK(k.mode) && m->type->readlink
			    ? m->type->readlink(m, rest, target, sizeof(target) - 1) : 0;
		mntput(m);
		if (n <= 0)
			return n < 0 ? n : 0;
		if (i == MAXSYMLINKS)
			break;
		target[n] = '\0';
		strlcpy(dir, abs, sizeof(dir));
		slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
		err = path_normalize(dir, target, abs);
		if (err)
			return err;
	}
	return -ELOOP;
}

int vfs_getattr(const char *path, struct kstat *k, bool follow)
{
	char abs[PATH_MAX];
	const char *rest;
	struct vfsmount *m;
	int err;

	strlcpy(abs, path, sizeof(abs));
	err = follow ? follow_link(abs) : 0;
	if (err)
		return err;
	m = lookup_mnt(abs, &rest);
	if (!m)
		return -ENOENT;
	err = m->type->getattr(m, rest, k, follow);
	mntput(m);
	return err;
}

int vfs_readlink(const char *abs, char *buf, size_t size)
{
	const char *rest;
	struct vfsmount *m = lookup_mnt(abs, &rest);

	int err;

	if (!m)
		return -ENOENT;
	err = m->type->readlink ? m->type->readlink(m, rest, buf, size) : -EINVAL;
	mntput(m);
	return err;
}

/*
 * open(dir, O_TMPFILE | O_RDWR, mode): a new file with no name in dir's
 * file system (glibc's tmpfile() tries it first), with Linux's checks:
 * O_TMPFILE must come whole and without O_CREAT, and with a mode that
 * writes (-EINVAL); dir must be a directory; a read-only file system is
 * -EROFS, one that makes no such files -EOPNOTSUPP. On success the file
 * takes the caller's reference to m.
 */
static int open_tmpfile(struct vfsmount *m, const char *rest, unsigned long flags, u32 mode,
			struct file **fp)
{
	struct kstat k;
	struct file *f;
	int err;

	if ((flags & (__O_TMPFILE | O_DIRECTORY | O_CREAT)) != (__O_TMPFILE | O_DIRECTORY) ||
	    !(flags & O_ACCMODE))
		return -EINVAL;
	err = m->type->getattr(m, rest, &k, true);
	if (!err && !S_ISDIR(k.mode))
		err = -ENOTDIR;
	if (!err && m->type == &rootfs_fs_type)
		err = -EROFS;
	if (!err && !m->type->tmpfile)
		err = -EOPNOTSUPP;
	if (err)
		return err;
	f = file_alloc(FILE_OPS);
	if (!f)
		return -ENOMEM;
	f->f_flags = flags & ~(unsigned long)(__O_TMPFILE | O_DIRECTORY | O_EXCL | O_CLOEXEC);
	f->can_read = (flags & O_ACCMODE) != O_WRONLY;
	f->can_write = true;
	err = m->type->tmpfile(m, rest, mode, f);
	if (err) {
		f->f_op = NULL;
		file_put(f);
		return err;
	}
	f->mnt = m;
	*fp = f;
	return 0;
}

int vfs_open(const char *path, unsigned long flags, u32 mode, struct file **fp)
{
	char abs[PATH_MAX];
	const char *rest;
	struct vfsmount *m;
	struct kstat k;
	struct file *f;
	int err;

	strlcpy(abs, path, sizeof(abs));
	err = flags & O_NOFOLLOW ? 0 : follow_link(abs);
	if (err)
		return err;
	m = lookup_mnt(abs, &rest);
	if (!m)
		return -ENOENT;
	if (flags & __O_TMPFILE) {
		err = open_tmpfile(m, rest, flags, mode, fp);
		if (!err)
			return 0; /* the look-up's reference to m is the file's */
		goto out;
	}
	err = m->type->getattr(m, rest, &k, !(flags & O_NOFOLLOW));
	if (err && (err != -ENOENT || !(flags & O_CREAT)))
		goto out;
	if (!err && (flags & O_CREAT) && (flags & O_EXCL))
		err = -EEXIST;
	else if (!err && S_ISLNK(k.mode) && (flags & O_NOFOLLOW))
		err = -ELOOP;
	else if (!err && S_ISDIR(k.mode) && ((flags & O_ACCMODE) || (flags & O_CREAT)))
		err = -EISDIR;
	else if (!err && !S_ISDIR(k.mode) && (flags & O_DIRECTORY))
		err = -ENOTDIR;
	if (err && err != -ENOENT)
		goto out;
	f = file_alloc(FILE_OPS);
	if (f)
		f->path = kmalloc(strlen(abs) + 1, GFP_KERNEL);
	if (!f || !f->path) {
		if (f)
			file_put(f);
		err = -ENOMEM;
		goto out;
	}
	memcpy(f->path, abs, strlen(abs) + 1);
	f->f_flags = flags & ~(unsigned long)(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC);
	f->can_read = (flags & O_ACCMODE) != O_WRONLY;
	f->can_write = (flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR;
	if (!err && S_ISDIR(k.mode))
		err = dir_open(m, rest, abs, f);
	else if (m->type->open)
		err = m->type->open(m, rest, flags, mode, f);
	else
		err = may_write_open(flags) ? -EROFS : -EACCES;
	if (err) {
		f->f_op = NULL; /* nothing was set up for release to undo */
		file_put(f);
		goto out;
	}
	f->mnt = m; /* the look-up's reference is the file's now: file_put() drops it */
	*fp = f;
	return 0;
out:
	mntput(m);
	return err;
}

/* x86-64's open(path, flags, mode), which musl's open() and fopen() call. */
long sys_open(const unsigned long *args)
{
	const unsigned long at[4] = { (unsigned long)AT_FDCWD, args[0], args[1], args[2] };

	return sys_openat(at);
}

/* creat(path, mode): open(path, O_CREAT | O_WRONLY | O_TRUNC, mode). */
long sys_creat(const unsigned long *args)
{
	const unsigned long at[4] = { (unsigned long)AT_FDCWD, args[0], O_CREAT | O_WRONLY | O_TRUNC,
				      args[1] };

	return sys_openat(at);
}

/*
 * The mount a new or removed name is in (a reference the caller drops with
 * mntput()), and the name inside it; a mount point itself is -EBUSY.
 */
static int name_at(long dirfd, u64 upath, char *abs, struct vfsmount **m, const char **rest)
{
	int err = user_path_mnt(dirfd, upath, abs, m, rest);

	if (err)
		return err;
	if (!**rest) {
		mntput(*m);
		*m = NULL;
		return -EBUSY; /* the root of what is mounted there */
	}
	return 0;
}

static long do_mkdirat(long dirfd, u64 upath, u32 mode)
{
	char abs[PATH_MAX];
	struct vfsmount *m;
	const char *rest;
	struct kstat k;
	int err = user_path_at(dirfd, upath, abs);

	if (err)
		return err;
	if (!abs[0])
		return -ENOENT;
	if (!vfs_getattr(abs, &k, false))
		return -EEXIST; /* before anything else, as Linux's: even "/" */
	err = name_at(dirfd, upath, abs, &m, &rest);
	if (err)
		return err;
	err = m->type->mkdir ? m->type->mkdir(m, rest, mode & 07777 & ~current_process()->umask)
			     : -EROFS;
	mntput(m);
	return err;
}

long sys_mkdirat(const unsigned long *args)
{
	return do_mkdirat((long)args[0], args[1], (u32)args[2]);
}

#define AT_REMOVEDIR 0x200

static long do_unlinkat(long dirfd, u64 upath, unsigned long flags)
{
	char abs[PATH_MAX];
	struct vfsmount *m;
	const char *rest;
	struct kstat k;
	int err;

	if (flags & ~(unsigned long)AT_REMOVEDIR)
		return -EINVAL;
	err = name_at(dirfd, upath, abs, &m, &rest);
	if (err)
		return err;
	err = m->type->getattr(m, rest, &k, false);
	if (!err && (flags & AT_REMOVEDIR) && !S_ISDIR(k.mode))
		err = -ENOTDIR;
	else if (!err && !(flags & AT_REMOVEDIR) && S_ISDIR(k.mode))
		err = -EISDIR;
	else if (!err)
		err = m->type->unlink ? m->type->unlink(m, rest, flags & AT_REMOVEDIR) : -EROFS;
	mntput(m);
	return err;
}

long sys_unlinkat(const unsigned long *args)
{
	return do_unlinkat((long)args[0], args[1], args[2]);
}

/* symlinkat(target, newdirfd, linkpath): -EEXIST over any name, even a dangling link. */
static long do_symlinkat(u64 utarget, long dirfd, u64 upath)
{
	char target[PATH_MAX], abs[PATH_MAX];
	struct vfsmount *m;
	const char *rest;
	struct kstat k;
	int err = string_from_user(target, utarget, sizeof(target));

	if (err)
		return err;
	if (!target[0])
		return -ENOENT;
	err = name_at(dirfd, upath, abs, &m, &rest);
	if (err)
		return err == -EBUSY ? -EEXIST : err;
	if (!m->type->getattr(m, rest, &k, false))
		err = -EEXIST;
	else
		err = m->type->symlink ? m->type->symlink(m, target, rest)
		      : m->type == &rootfs_fs_type ? -EROFS : -EPERM;
	mntput(m);
	return err;
}

long sys_symlinkat(const unsigned long *args)
{
	return do_symlinkat(args[0], (long)args[1], args[2]);
}

#define RENAME_NOREPLACE 1

static long do_renameat2(long olddfd, u64 oldpath, long newdfd, u64 newpath, unsigned long flags)
{
	char from[PATH_MAX], to[PATH_MAX];
	struct vfsmount *m, *m2;
	const char *r1, *r2;
	struct kstat k;
	int err;

	if (flags & ~(unsigned long)RENAME_NOREPLACE)
		return -EINVAL;
	m2 = NULL;
	err = name_at(olddfd, oldpath, from, &m, &r1);
	if (!err)
		err = name_at(newdfd, newpath, to, &m2, &r2);
	if (!err)
		err = m->type->getattr(m, r1, &k, false);
	if (!err && m != m2)
		err = -EXDEV;
	if (!err && (flags & RENAME_NOREPLACE) && !m->type->getattr(m, r2, &k, false))
		err = -EEXIST;
	if (!err)
		err = m->type->rename ? m->type->rename(m, r1, r2) : -EROFS;
	if (m)
		mntput(m);
	if (m2)
		mntput(m2);
	return err;
}

long sys_renameat2(const unsigned long *args)
{
	return do_renameat2((long)args[0], args[1], (long)args[2], args[3], args[4]);
}

long sys_renameat(const unsigned long *args)
{
	return do_renameat2((long)args[0], args[1], (long)args[2], args[3], 0);
}

long sys_mkdir(const unsigned long *args)
{
	return do_mkdirat(AT_FDCWD, args[0], (u32)args[1]);
}

long sys_rmdir(const unsigned long *args)
{
	return do_unlinkat(AT_FDCWD, args[0], AT_REMOVEDIR);
}

long sys_unlink(const unsigned long *args)
{
	return do_unlinkat(AT_FDCWD, args[0], 0);
}

long sys_symlink(const unsigned long *args)
{
	return do_symlinkat(args[0], AT_FDCWD, args[1]);
}

long sys_rename(const unsigned long *args)
{
	return do_renameat2(AT_FDCWD, args[0], AT_FDCWD, args[1], 0);
}

/* truncate(path, length) */
long sys_truncate(const unsigned long *args)
{
	char abs[PATH_MAX];
	struct vfsmount *m;
	const char *rest;
	struct kstat k;
	int err;

	if ((s64)args[1] < 0)
		return -EINVAL;
	err = user_path_mnt(AT_FDCWD, args[0], abs, &m, &rest);
	if (err)
		return err;
	err = m->type->getattr(m, rest, &k, true);
	if (!err && S_ISDIR(k.mode))
		err = -EISDIR;
	else if (!err && !m->type->truncate)
		err = m->type == &rootfs_fs_type ? -EROFS : -EINVAL;
	else if (!err)
		err = m->type->truncate(m, rest, args[1]);
	mntput(m);
	return err;
}

/* ftruncate(fd, length): a file open for writing. */
long sys_ftruncate(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);

	if (!f)
		return -EBADF;
	if ((s64)args[1] < 0)
		return -EINVAL;
	if (f->kind != FILE_OPS || !f->f_op->truncate || f->is_dir)
		return -EINVAL;
	if (!f->can_write)
		return -EINVAL; /* Linux: -EINVAL when not open for writing, as well */
	return f->f_op->truncate(f, args[1]);
}

/*
 * fallocate(fd, mode, offset, len), with Linux's vfs_fallocate() checks in
 * its order: the range, the mode, the open's access, the file's type, the
 * size; then the file system's own (tmpfs: fs/ramfs/file.c).
 */
long sys_fallocate(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);
	int mode = (int)args[1];
	s64 offset = (s64)args[2], len = (s64)args[3];
	struct kstat k = { 0 };

	if (!f)
		return -EBADF;
	if (offset < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~FALLOC_FL_MASK)
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	if (!file_writable(f))
		return -EBADF;
	if (f->kind == FILE_PIPE)
		return -ESPIPE;
	if (f->kind == FILE_OPS && f->f_op->getattr)
		f->f_op->getattr(f, &k);
	if (f->kind == FILE_OPS && f->is_dir)
		return -EISDIR;
	if (f->kind != FILE_OPS || (!S_ISREG(k.mode) && (k.mode & S_IFMT) != S_IFBLK))
		return -ENODEV;
	if (offset + len < offset || (u64)(offset + len) > (u64)TASK_SIZE)
		return -EFBIG;
	if (!f->f_op->fallocate)
		return -EOPNOTSUPP;
	return f->f_op->fallocate(f, mode, (u64)offset, (u64)len);
}

/* fsync(fd), fdatasync(fd): what the file system has to make durable. */
long sys_fsync(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);

	if (!f)
		return -EBADF;
	if (f->kind == FILE_OPS && f->f_op->fsync)
		return f->f_op->fsync(f);
	return f->kind == FILE_PIPE ? -EINVAL : 0;
}

/* umask(mask): the old one. */
long sys_umask(const unsigned long *args)
{
	struct process *p = current_process();
	unsigned int old = p->umask;

	p->umask = (unsigned int)args[0] & 0777;
	return old;
}

#define UTIME_NOW ((1L << 30) - 1)
#define UTIME_OMIT ((1L << 30) - 2)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EMPTY_PATH 0x1000

/*
 * utimensat(dirfd, path, times, flags): a file's modification time (the
 * only time Pagoda keeps): now, or times[1], or left alone (UTIME_OMIT).
 * With no path, the file dirfd is open on (futimens). The initramfs
 * answers -EROFS; /proc and /dev accept and keep nothing.
 */
long sys_utimensat(const unsigned long *args)
{
	char abs[PATH_MAX];
	struct vfsmount *m;
	const char *rest;
	struct kstat k;
	s64 ts[4], mtime = (s64)(ktime_get_real_ns() / 1000000000ULL);
	int err;

	if (args[3] & ~(unsigned long)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (args[2]) {
		if (copy_from_user(ts, args[2], sizeof(ts)))
			return -EFAULT;
		for (int i = 0; i < 2; i++)
			if (ts[2 * i + 1] != UTIME_NOW && ts[2 * i + 1] != UTIME_OMIT &&
			    (ts[2 * i + 1] < 0 || ts[2 * i + 1] >= 1000000000))
				return -EINVAL;
		if (ts[3] == UTIME_OMIT)
			return 0;
		if (ts[3] != UTIME_NOW)
			mtime = ts[2];
	}
	if (!args[1]) {
		struct file *f __free(file_put) = fget((long)args[0]);

		if (!f)
			return -EBADF;
		if (!f->path)
			return 0; /* the console, a pipe: no time kept */
		memcpy(abs, f->path, strlen(f->path) + 1);
		m = lookup_mnt(abs, &rest);
		if (!m)
			return -ENOENT;
	} else {
		err = user_path_mnt((long)args[0], args[1], abs, &m, &rest);
		if (err)
			return err;
	}
	err = m->type->getattr(m, rest, &k, !(args[3] & AT_SYMLINK_NOFOLLOW));
	if (!err && m->type == &rootfs_fs_type)
		err = -EROFS;
	else if (!err && m->type->set_mtime)
		err = m->type->set_mtime(m, rest, mtime);
	mntput(m);
	return err;
}
