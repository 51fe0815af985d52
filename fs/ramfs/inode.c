// SPDX-License-Identifier: MIT
/*
 * tmpfs: files and directories in memory, gone when unmounted (Linux's
 * mm/shmem.c without swap, or fs/ramfs with a size limit). Each mount is
 * a tree of inodes under one mutex; a path is walked name by name from
 * the root. Removing a name drops the tree's reference; the inode and
 * its pages go when the last open file of it closes too. Unmounting
 * (only possible with nothing open) frees the whole tree.
 */
#include <pagoda/err.h>
#include <pagoda/file.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/shmem.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/timer.h>
#include "../internal.h"
#include "internal.h"

static s64 now(void)
{
	return (s64)(ktime_get_real_ns() / 1000000000ULL);
}

static struct tmpfs_inode *new_inode(struct tmpfs_sb *sb, u32 mode)
{
	struct tmpfs_inode *inode = kzalloc(sizeof(*inode), GFP_KERNEL);

	if (!inode)
		return NULL;
	inode->mode = mode;
	inode->nlink = S_ISDIR(mode) ? 2 : 1;
	inode->ino = sb->next_ino++;
	inode->mtime = now();
	inode->refs = 1;
	inode->sb = sb;
	INIT_LIST_HEAD(&inode->children);
	INIT_LIST_HEAD(&inode->sibling);
	if (S_ISREG(mode) && tmpfs_new_data(inode)) {
		kfree(inode);
		return NULL;
	}
	return inode;
}

void tmpfs_iput(struct tmpfs_inode *inode)
{
	if (--inode->refs)
		return;
	tmpfs_free_data(inode);
	kfree(inode->link);
	kfree(inode);
}

static struct tmpfs_inode *child(struct tmpfs_inode *dir, const char *name, size_t len)
{
	struct tmpfs_inode *c;

	list_for_each_entry(c, &dir->children, sibling)
		if (!strncmp(c->name, name, len) && !c->name[len])
			return c;
	return NULL;
}

/*
 * Walk path from the root. With want_parent, stop at the last component:
 * *inode is its directory and *last the name (which may not exist).
 */
static int walk(struct tmpfs_sb *sb, const char *path, bool want_parent,
		struct tmpfs_inode **inode, const char **last)
{
	struct tmpfs_inode *cur = sb->root;

	while (*path) {
		const char *e = strchr(path, '/');
		size_t n = e ? (size_t)(e - path) : strlen(path);

		if (!S_ISDIR(cur->mode))
			return -ENOTDIR;
		if (!e && want_parent) {
			if (n > NAME_MAX)
				return -ENAMETOOLONG;
			*inode = cur;
			*last = path;
			return 0;
		}
		cur = child(cur, path, n);
		if (!cur)
			return -ENOENT;
		path += n;
		while (*path == '/')
			path++;
	}
	if (want_parent)
		return -EBUSY; /* the root has no name to make or remove */
	*inode = cur;
	return 0;
}

void tmpfs_fill_kstat(struct tmpfs_inode *inode, struct kstat *k)
{
	*k = (struct kstat){ .ino = inode->ino, .nlink = inode->nlink, .size = inode->size,
			     .mode = inode->mode, .blksize = PAGE_SIZE, .mtime = inode->mtime,
			     .blocks = tmpfs_blocks(inode) };
}

/*
 * Finds path's inode with sb->lock taken, for the calls that look at one
 * inode by its path and do not change the tree's names (getattr, setattr,
 * readlink, O_TMPFILE's directory). On success the lock stays held: the
 * caller drops it.
 */
static int walk_and_lock(struct vfsmount *m, const char *path, struct tmpfs_inode **inode)
{
	struct tmpfs_sb *sb = m->fs_info;
	int err;

	mutex_lock(&sb->lock);
	err = walk(sb, path, false, inode, NULL);
	if (err)
		mutex_unlock(&sb->lock);
	return err;
}

static int tmpfs_getattr(struct vfsmount *m, const char *path, struct kstat *k, bool follow)
{
	struct tmpfs_inode *inode;
	int err;

	(void)follow; /* the VFS followed a last component's link already (follow_link()) */
	err = walk_and_lock(m, path, &inode);
	if (err)
		return err;
	tmpfs_fill_kstat(inode, k);
	mutex_unlock(&inode->sb->lock);
	return 0;
}

/* A new entry name in dir. */
static struct tmpfs_inode *link_new(struct tmpfs_inode *dir, const char *name, u32 mode)
{
	struct tmpfs_inode *inode = new_inode(dir->sb, mode);

	if (!inode)
		return NULL;
	strlcpy(inode->name, name, sizeof(inode->name));
	inode->parent = dir;
	list_add_tail(&inode->sibling, &dir->children);
	if (S_ISDIR(mode))
		dir->nlink++;
	dir->mtime = now();
	return inode;
}

static int tmpfs_open(struct vfsmount *m, const char *path, unsigned long flags, u32 mode,
		      struct file *f)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *inode, *dir;
	const char *name;
	int err;

	mutex_lock(&sb->lock);
	err = walk(sb, path, false, &inode, NULL);
	if (err == -ENOENT && (flags & O_CREAT)) {
		err = walk(sb, path, true, &dir, &name);
		if (!err && !S_ISDIR(dir->mode))
			err = -ENOTDIR;
		if (!err) {
			inode = link_new(dir, name, S_IFREG | (mode & 07777));
			err = inode ? 0 : -ENOSPC;
		}
	} else if (!err && (flags & O_TRUNC) && (flags & O_ACCMODE)) {
		err = tmpfs_setsize(inode, 0);
	}
	if (!err) {
		inode->refs++;
		f->f_op = &tmpfs_file_operations;
		f->private_data = inode;
	}
	mutex_unlock(&sb->lock);
	return err;
}

/*
 * A file in no directory (memfd_create's, O_TMPFILE's), open in f, which
 * holds its one reference: fstat's link count is 0, as on Linux. sb's
 * lock held.
 */
static struct tmpfs_inode *new_unlinked(struct tmpfs_sb *sb, u32 mode, struct file *f)
{
	struct tmpfs_inode *inode = new_inode(sb, mode);

	if (!inode)
		return NULL;
	inode->nlink = 0;
	f->f_op = &tmpfs_file_operations;
	f->private_data = inode;
	return inode;
}

/*
 * memfd_create's files live here (Linux's shm_mnt): a tree never walked,
 * whose inodes only open files hold, so each goes with its last close.
 */
static struct tmpfs_sb shm_sb = { .lock = __MUTEX_INITIALIZER(shm_sb.lock), .next_ino = 1 };

struct file *shmem_file_setup(const char *name)
{
	struct file *f = file_alloc(FILE_OPS);
	struct tmpfs_inode *inode = NULL;

	if (f) {
		mutex_lock(&shm_sb.lock);
		inode = new_unlinked(&shm_sb, S_IFREG | 0777, f);
		mutex_unlock(&shm_sb.lock);
	}
	if (!inode) {
		if (f)
			file_put(f);
		return ERR_PTR(-ENOMEM);
	}
	snprintf(inode->name, sizeof(inode->name), "memfd:%s", name);
	f->can_read = f->can_write = true;
	f->f_flags = O_RDWR;
	return f;
}

/* open(dir, O_TMPFILE): a file of this mount with no name, gone at its last close. */
static int tmpfs_tmpfile(struct vfsmount *m, const char *path, u32 mode, struct file *f)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *dir;
	int err = walk_and_lock(m, path, &dir);

	if (err)
		return err;
	if (!S_ISDIR(dir->mode))
		err = -ENOTDIR;
	else if (!new_unlinked(sb, S_IFREG | (mode & 07777), f))
		err = -ENOSPC;
	mutex_unlock(&sb->lock);
	return err;
}

static int tmpfs_readdir(struct vfsmount *m, const char *path, struct dir_context *ctx)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *dir, *c;
	int err;

	mutex_lock(&sb->lock);
	err = walk(sb, path, false, &dir, NULL);
	if (!err)
		list_for_each_entry(c, &dir->children, sibling) {
			err = dir_emit(ctx, c->name, strlen(c->name), c->ino,
				       S_ISDIR(c->mode) ? DT_DIR : S_ISLNK(c->mode) ? DT_LNK : DT_REG);
			if (err)
				break;
		}
	mutex_unlock(&sb->lock);
	return err;
}

/*
 * Under sb->lock, for mkdir and symlink: a new inode of mode at path. Its
 * parent must be a directory (-ENOTDIR) without that name (-EEXIST).
 */
static int link_new_at(struct tmpfs_sb *sb, const char *path, u32 mode,
		       struct tmpfs_inode **inode)
{
	struct tmpfs_inode *dir;
	const char *name;
	int err = walk(sb, path, true, &dir, &name);

	if (!err && !S_ISDIR(dir->mode))
		err = -ENOTDIR;
	if (!err && child(dir, name, strlen(name)))
		err = -EEXIST;
	if (!err) {
		*inode = link_new(dir, name, mode);
		if (!*inode)
			err = -ENOSPC;
	}
	return err;
}

static int tmpfs_mkdir(struct vfsmount *m, const char *path, u32 mode)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *inode;
	int err;

	mutex_lock(&sb->lock);
	err = link_new_at(sb, path, S_IFDIR | (mode & 07777), &inode);
	mutex_unlock(&sb->lock);
	return err;
}

/* Take inode's name away (lock held); the tree's reference goes with it. */
static void unlink_inode(struct tmpfs_inode *inode)
{
	struct tmpfs_inode *dir = inode->parent;

	list_del_init(&inode->sibling);
	inode->parent = NULL;
	if (S_ISDIR(inode->mode)) {
		dir->nlink--;
		inode->nlink = 0;
	} else {
		inode->nlink--;
	}
	dir->mtime = now();
	tmpfs_iput(inode);
}

static int tmpfs_unlink(struct vfsmount *m, const char *path, bool is_dir)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *inode;
	int err;

	mutex_lock(&sb->lock);
	err = walk(sb, path, false, &inode, NULL);
	if (!err && inode == sb->root)
		err = -EBUSY;
	if (!err && is_dir && !list_empty(&inode->children))
		err = -ENOTEMPTY;
	if (!err)
		unlink_inode(inode);
	mutex_unlock(&sb->lock);
	return err;
}

static int tmpfs_rename(struct vfsmount *m, const char *from, const char *to)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *src, *dir, *target, *a;
	const char *name;
	int err;

	mutex_lock(&sb->lock);
	err = walk(sb, from, false, &src, NULL);
	if (!err)
		err = walk(sb, to, true, &dir, &name);
	if (!err && !S_ISDIR(dir->mode))
		err = -ENOTDIR;
	if (err)
		goto out;
	/* A directory cannot go inside itself. */
	for (a = dir; a; a = a->parent)
		if (a == src) {
			err = -EINVAL;
			goto out;
		}
	target = child(dir, name, strlen(name));
	if (target == src)
		goto out; /* the same name: nothing to do */
	if (target) {
		if (S_ISDIR(src->mode) && !S_ISDIR(target->mode))
			err = -ENOTDIR;
		else if (!S_ISDIR(src->mode) && S_ISDIR(target->mode))
			err = -EISDIR;
		else if (!list_empty(&target->children))
			err = -ENOTEMPTY;
		if (err)
			goto out;
		unlink_inode(target);
	}
	list_del(&src->sibling);
	if (S_ISDIR(src->mode)) {
		src->parent->nlink--;
		dir->nlink++;
	}
	src->parent->mtime = now();
	src->parent = dir;
	strlcpy(src->name, name, sizeof(src->name));
	list_add_tail(&src->sibling, &dir->children);
	dir->mtime = now();
out:
	mutex_unlock(&sb->lock);
	return err;
}

/* Linux's struct iattr, with the fields tmpfs keeps: ia_valid says which to set. */
#define ATTR_MODE (1 << 0)
#define ATTR_SIZE (1 << 3)
#define ATTR_MTIME (1 << 5)

struct iattr {
	unsigned int ia_valid;
	u32 ia_mode;
	u64 ia_size;
	s64 ia_mtime;
};

/* As Linux's simple_setattr(): truncate, utimensat and chmod all end here. */
static int tmpfs_setattr(struct vfsmount *m, const char *path, const struct iattr *attr)
{
	struct tmpfs_inode *inode;
	int err = walk_and_lock(m, path, &inode);

	if (err)
		return err;
	if (attr->ia_valid & ATTR_SIZE)
		err = tmpfs_setsize(inode, attr->ia_size);
	if (!err && (attr->ia_valid & ATTR_MTIME))
		inode->mtime = attr->ia_mtime;
	if (!err && (attr->ia_valid & ATTR_MODE))
		inode->mode = (inode->mode & S_IFMT) | attr->ia_mode;
	mutex_unlock(&inode->sb->lock);
	return err;
}

static int tmpfs_truncate(struct vfsmount *m, const char *path, u64 size)
{
	struct iattr attr = { .ia_valid = ATTR_SIZE, .ia_size = size };

	return tmpfs_setattr(m, path, &attr);
}

static int tmpfs_set_mtime(struct vfsmount *m, const char *path, s64 mtime)
{
	struct iattr attr = { .ia_valid = ATTR_MTIME, .ia_mtime = mtime };

	return tmpfs_setattr(m, path, &attr);
}

static int tmpfs_chmod(struct vfsmount *m, const char *path, u32 mode)
{
	struct iattr attr = { .ia_valid = ATTR_MODE, .ia_mode = mode };

	return tmpfs_setattr(m, path, &attr);
}

/* symlink(target, path): a new name holding target, which is not looked at now. */
static int tmpfs_symlink(struct vfsmount *m, const char *target, const char *path)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *inode;
	size_t n = strlen(target);
	char *copy;
	int err;

	copy = kmalloc(n + 1, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, target, n + 1);
	mutex_lock(&sb->lock);
	err = link_new_at(sb, path, S_IFLNK | 0777, &inode);
	if (!err) {
		inode->link = copy;
		inode->size = n;
		copy = NULL;
	}
	mutex_unlock(&sb->lock);
	kfree(copy);
	return err;
}

static int tmpfs_readlink(struct vfsmount *m, const char *path, char *buf, size_t size)
{
	struct tmpfs_sb *sb = m->fs_info;
	struct tmpfs_inode *inode;
	int err = walk_and_lock(m, path, &inode);

	if (err)
		return err;
	if (!S_ISLNK(inode->mode)) {
		err = -EINVAL;
	} else {
		err = (int)MIN(size, (size_t)inode->size);
		memcpy(buf, inode->link, (size_t)err);
	}
	mutex_unlock(&sb->lock);
	return err;
}

static int tmpfs_fill_super(struct vfsmount *m)
{
	struct tmpfs_sb *sb = kzalloc(sizeof(*sb), GFP_KERNEL);

	if (!sb)
		return -ENOMEM;
	mutex_init(&sb->lock);
	sb->next_ino = 1;
	sb->root = new_inode(sb, S_IFDIR | 01777); /* /tmp's mode: sticky, all may write */
	if (!sb->root) {
		kfree(sb);
		return -ENOMEM;
	}
	m->fs_info = sb;
	return 0;
}

/* Everything under inode, deepest first (lock held, nothing open). */
static void free_tree(struct tmpfs_inode *inode)
{
	struct tmpfs_inode *c, *n;

	list_for_each_entry_safe(c, n, &inode->children, sibling)
		free_tree(c);
	list_del_init(&inode->sibling);
	tmpfs_iput(inode);
}

static void tmpfs_kill_sb(struct vfsmount *m)
{
	struct tmpfs_sb *sb = m->fs_info;

	mutex_lock(&sb->lock);
	free_tree(sb->root);
	mutex_unlock(&sb->lock);
	kfree(sb);
}

const struct file_system_type tmpfs_fs_type = {
	.name = "tmpfs",
	.nodev = true,
	.fill_super = tmpfs_fill_super,
	.kill_sb = tmpfs_kill_sb,
	.tmpfile = tmpfs_tmpfile,
	.getattr = tmpfs_getattr,
	.open = tmpfs_open,
	.readdir = tmpfs_readdir,
	.mkdir = tmpfs_mkdir,
	.unlink = tmpfs_unlink,
	.rename = tmpfs_rename,
	.truncate = tmpfs_truncate,
	.set_mtime = tmpfs_set_mtime,
	.chmod = tmpfs_chmod,
	.symlink = tmpfs_symlink,
	.readlink = tmpfs_readlink,
};
