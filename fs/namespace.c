// SPDX-License-Identifier: MIT
/*
 * The mount table (Linux's fs/namespace.c, one namespace): the initramfs
 * at "/", then whatever is mounted on its directories. A path belongs to
 * the mount with the longest mount point that is a whole-component
 * prefix of it, the latest one where two are on the same point (a second
 * mount hides the first, as on Linux).
 *
 * At the first look-up the table gets what a Linux init script would
 * mount at boot (and CONFIG_DEVTMPFS_MOUNT mounts /dev): devtmpfs on
 * /dev, proc on /proc, a tmpfs on /tmp. mount(2) adds more, umount2(2)
 * takes one away when nothing inside it is open or being looked at
 * (-EBUSY otherwise): lookup_mnt() counts its caller in the mount's users
 * until mntput(), and an open file stays counted until its last close.
 */
#include <pagoda/mutex.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include "../kernel/syscalls.h"
#include "internal.h"

static LIST_HEAD(mounts);
static DEFINE_MUTEX(namespace_lock);
static bool mounted_at_boot;

static const struct file_system_type *const fs_types[] = {
	&rootfs_fs_type, &tmpfs_fs_type, &proc_fs_type, &devtmpfs_fs_type,
};

static const struct file_system_type *get_fs_type(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_types); i++)
		if (!strcmp(fs_types[i]->name, name))
			return fs_types[i];
	return NULL;
}

/* A new mount of type on path (absolute, clean), under namespace_lock. */
static int add_mount(const struct file_system_type *type, const char *source, const char *path)
{
	struct vfsmount *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int err;

	if (!m)
		return -ENOMEM;
	m->type = type;
	strlcpy(m->mountpoint, path, sizeof(m->mountpoint));
	strlcpy(m->source, source, sizeof(m->source));
	err = type->fill_super ? type->fill_super(m) : 0;
	if (err) {
		kfree(m);
		return err;
	}
	list_add_tail(&m->list, &mounts);
	return 0;
}

static void mount_at_boot(void)
{
	static const struct { const char *type, *path; } boot[] = {
		{ "rootfs", "/" }, { "devtmpfs", "/dev" }, { "proc", "/proc" }, { "tmpfs", "/tmp" },
	};

	if (mounted_at_boot)
		return;
	mounted_at_boot = true;
	for (size_t i = 0; i < ARRAY_SIZE(boot); i++)
		if (add_mount(get_fs_type(boot[i].type), boot[i].type, boot[i].path))
			pr_err("vfs: cannot mount %s on %s\n", boot[i].type, boot[i].path);
}

void vfs_init(void)
{
	mutex_lock(&namespace_lock);
	mount_at_boot();
	mutex_unlock(&namespace_lock);
}

/* Does mount point mp hold path (a whole-component prefix)? The length matched. */
static size_t covers(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (n == 1)
		return 1; /* "/" holds everything */
	if (strncmp(mp, path, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

static struct vfsmount *__lookup_mnt(const char *path, const char **rest)
{
	struct vfsmount *m, *best = NULL;
	size_t best_len = 0;

	list_for_each_entry(m, &mounts, list) {
		size_t n = covers(m->mountpoint, path);

		if (n && n >= best_len) {
			best = m;
			best_len = n;
		}
	}
	if (best && rest) {
		const char *r = path + best_len;

		while (*r == '/')
			r++;
		*rest = r;
	}
	return best;
}

struct vfsmount *lookup_mnt(const char *path, const char **rest)
{
	struct vfsmount *m;

	mutex_lock(&namespace_lock);
	mount_at_boot();
	m = __lookup_mnt(path, rest);
	/* Taken under the lock umount checks it under: a mount in use stays. */
	if (m)
		__atomic_add_fetch(&m->users, 1, __ATOMIC_ACQ_REL);
	mutex_unlock(&namespace_lock);
	return m;
}

void mntput(struct vfsmount *m)
{
	__atomic_sub_fetch(&m->users, 1, __ATOMIC_RELEASE);
}

void mounts_for_each(void (*fn)(struct vfsmount *m, void *arg), void *arg)
{
	struct vfsmount *m;

	mutex_lock(&namespace_lock);
	mount_at_boot();
	list_for_each_entry(m, &mounts, list)
		fn(m, arg);
	mutex_unlock(&namespace_lock);
}

/* Mount points directly inside directory dir: their names for its listing. */
int mounts_emit_children(const char *dir, struct dir_context *ctx)
{
	struct vfsmount *m;
	size_t n = strlen(dir);
	int err = 0;

	mutex_lock(&namespace_lock);
	list_for_each_entry(m, &mounts, list) {
		const char *mp = m->mountpoint, *name;

		if (!strcmp(mp, "/") || strncmp(mp, dir, n))
			continue;
		name = mp + n;
		if (n > 1) {
			if (*name != '/')
				continue;
			name++;
		} else {
			name = mp + 1;
		}
		if (*name && !strchr(name, '/') && !err)
			err = dir_emit(ctx, name, strlen(name), 2, DT_DIR);
	}
	mutex_unlock(&namespace_lock);
	return err;
}

int do_mount(const char *source, const char *path, const char *typename)
{
	const struct file_system_type *type = get_fs_type(typename);
	struct kstat k;
	int err;

	if (!type || type == &rootfs_fs_type)
		return -ENODEV;
	err = vfs_getattr(path, &k, true);
	if (err)
		return err;
	if (!S_ISDIR(k.mode))
		return -ENOTDIR;
	mutex_lock(&namespace_lock);
	err = add_mount(type, source, path);
	mutex_unlock(&namespace_lock);
	return err;
}

#define MS_REMOUNT 32

/*
 * mount(source, target, type, flags, data): tmpfs, proc and devtmpfs,
 * whose options Pagoda does not take (data is not read). A remount
 * changes nothing here and succeeds, as a remount with the same options.
 */
long sys_mount(const unsigned long *args)
{
	char source[32] = "none", path[PATH_MAX], type[16];
	int err;

	if (args[0]) {
		err = string_from_user(source, args[0], sizeof(source));
		if (err)
			return err == -ENAMETOOLONG ? -EINVAL : err;
	}
	err = user_path_at(AT_FDCWD, args[1], path);
	if (err)
		return err;
	if (!path[0])
		return -ENOENT;
	if (args[3] & MS_REMOUNT) {
		struct vfsmount *m = lookup_mnt(path, NULL);

		if (m)
			mntput(m);
		return m ? 0 : -EINVAL;
	}
	err = args[2] ? string_from_user(type, args[2], sizeof(type)) : -EFAULT;
	if (err)
		return err == -ENAMETOOLONG ? -ENODEV : err;
	return do_mount(source, path, type);
}

/* umount2(target, flags): the latest mount on target, if nothing in it is open. */
long sys_umount2(const unsigned long *args)
{
	char path[PATH_MAX];
	struct vfsmount *m, *found = NULL;
	int err = user_path_at(AT_FDCWD, args[0], path);

	if (err)
		return err;
	if (!path[0])
		return -ENOENT;
	mutex_lock(&namespace_lock);
	list_for_each_entry(m, &mounts, list)
		if (!strcmp(m->mountpoint, path))
			found = m;
	if (!found || found->type == &rootfs_fs_type) {
		err = found ? -EBUSY : -EINVAL;
	} else if (__atomic_load_n(&found->users, __ATOMIC_ACQUIRE)) {
		err = -EBUSY;
	} else {
		/* a mount inside it keeps it: that one goes first */
		list_for_each_entry(m, &mounts, list)
			if (strcmp(m->mountpoint, path) && covers(path, m->mountpoint) > 1)
				err = -EBUSY;
	}
	if (!err) {
		list_del(&found->list);
		if (found->type->kill_sb)
			found->type->kill_sb(found);
		kfree(found);
	}
	mutex_unlock(&namespace_lock);
	return err;
}
