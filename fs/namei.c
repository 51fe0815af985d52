// SPDX-License-Identifier: MIT
/*
 * From what a program wrote to a path the mounts understand (Linux's
 * fs/namei.c, much reduced): a relative path starts at the working
 * directory or at the directory dirfd is open on; "." and empty
 * components are dropped and ".." takes one away, by name (Linux walks
 * ".." through the directories themselves; with symbolic links only
 * inside the initramfs, where lib/ramfs.c follows them, the two agree).
 * Also the working directory's calls: chdir, fchdir, getcwd.
 */
#include <pagoda/file.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include "../kernel/syscalls.h"
#include "internal.h"

int path_normalize(const char *base, const char *path, char *abs)
{
	size_t len = 0;
	int pass;

	abs[0] = '\0';
	/* Two passes over the same rules: the base (when path is relative), then path. */
	for (pass = 0; pass < 2; pass++) {
		const char *s = pass ? path : (path[0] == '/' ? "" : base);

		while (*s) {
			const char *e;
			size_t n;

			while (*s == '/')
				s++;
			e = s;
			while (*e && *e != '/')
				e++;
			n = (size_t)(e - s);
			if (n == 0 || (n == 1 && s[0] == '.')) {
				/* nothing */
			} else if (n == 2 && s[0] == '.' && s[1] == '.') {
				while (len && abs[len - 1] != '/')
					len--;
				if (len)
					len--; /* the slash before it: "/a/b" -> "/a" */
			} else {
				if (n > NAME_MAX)
					return -ENAMETOOLONG;
				if (len + 1 + n + 1 > PATH_MAX)
					return -ENAMETOOLONG;
				abs[len++] = '/';
				memcpy(abs + len, s, n);
				len += n;
			}
			abs[len] = '\0';
			s = e;
		}
	}
	if (!len) {
		abs[0] = '/';
		abs[1] = '\0';
	}
	return 0;
}

int user_path_at(long dirfd, u64 upath, char *abs)
{
	struct process *p = current_process();
	char path[PATH_MAX];
	const char *base = p->cwd;
	int err = string_from_user(path, upath, sizeof(path));

	if (err)
		return err;
	if (!path[0]) {
		abs[0] = '\0'; /* the caller decides: AT_EMPTY_PATH, or -ENOENT */
		return 0;
	}
	if (path[0] != '/' && (int)dirfd != AT_FDCWD) {
		struct file *f __free(file_put) = fget(dirfd);

		if (!f)
			return -EBADF;
		if (!f->is_dir || !f->path)
			return -ENOTDIR;
		return path_normalize(f->path, path, abs); /* while f, so its path, is held */
	}
	return path_normalize(base, path, abs);
}

int user_path_mnt(long dirfd, u64 upath, char *abs, struct vfsmount **m, const char **rest)
{
	int err = user_path_at(dirfd, upath, abs);

	*m = NULL;
	if (err)
		return err;
	if (!abs[0])
		return -ENOENT;
	*m = lookup_mnt(abs, rest);
	return *m ? 0 : -ENOENT;
}

static long set_cwd(const char *abs)
{
	struct kstat k;
	int err = vfs_getattr(abs, &k, true);

	if (err)
		return err;
	if (!S_ISDIR(k.mode))
		return -ENOTDIR;
	strlcpy(current_process()->cwd, abs, sizeof(current_process()->cwd));
	return 0;
}

long sys_chdir(const unsigned long *args)
{
	char abs[PATH_MAX];
	int err = user_path_at(AT_FDCWD, args[0], abs);

	if (err)
		return err;
	return abs[0] ? set_cwd(abs) : -ENOENT;
}

long sys_fchdir(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);

	if (!f)
		return -EBADF;
	if (!f->is_dir || !f->path)
		return -ENOTDIR;
	return set_cwd(f->path);
}

/* getcwd(buf, size): the length with its NUL, or -ERANGE when it does not fit. */
long sys_getcwd(const unsigned long *args)
{
	const char *cwd = current_process()->cwd;
	size_t n = strlen(cwd) + 1;

	if (args[1] < n)
		return -ERANGE;
	return copy_to_user(args[0], cwd, n) ? -EFAULT : (long)n;
}
