/* SPDX-License-Identifier: MIT */
/* What fs/'s files share and nobody else needs. */
#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H

#include <pagoda/fs.h>

struct ramfs_file;
struct chrdev;

/* fs/rootfs.c: an initramfs file's stat. */
void ramfs_stat(const struct ramfs_file *rf, struct kstat *k);
/* fs/devtmpfs.c: a memory device's stat (crw-rw-rw-, its numbers). */
void chrdev_stat(const struct chrdev *c, struct kstat *k);
/* The console's stat: /dev/console's numbers (5, 1). */
void console_stat(struct kstat *k);
/* fs/block_dev.c: open the block device name ("vda", "mapper/x") into f. */
int blkdev_file_open(const char *name, unsigned long flags, struct file *f);
/* The block device f is open on, or NULL. */
struct block_device;
struct block_device *file_bdev(const struct file *f);
/* fs/namespace.c: the mount points directly inside dir, as its entries. */
int mounts_emit_children(const char *dir, struct dir_context *ctx);
/*
 * fs/namei.c: the user's path upath as an absolute one in abs, the mount
 * it is in (a reference the caller drops with mntput()) and the name
 * inside that mount; an empty path is -ENOENT.
 */
int user_path_mnt(long dirfd, u64 upath, char *abs, struct vfsmount **m, const char **rest);
/* The mount's file system has no such operation: -EROFS, as a read-only one. */
static inline bool may_write_open(unsigned long flags)
{
	return (flags & O_ACCMODE) != 0 || (flags & (O_CREAT | O_TRUNC));
}

#endif
