// SPDX-License-Identifier: MIT
/*
 * /dev as Linux's devtmpfs fills it: a node for every device the kernel
 * has, named as the kernel names it, with Linux's numbers. Here the
 * listing is made from the devices themselves each time (nothing to
 * create or remove by hand):
 *
 *   console, tty           the serial console (5:1, 5:0)
 *   null zero full random urandom   drivers/char/mem.c
 *   vda, vda1, mmcblk0p1, dm-0, ...  every block device (block/genhd.c)
 *   mapper/NAME            a mapped device by its name (dm-N), as udev links it
 *   mapper/control         device-mapper's ioctls (10:236, block/dm/dm-ioctl.c)
 *
 * A program that makes these nodes itself (libdevmapper without udev
 * mknods /dev/mapper/NAME) finds them there already, with the numbers it
 * would have given them, and leaves them be.
 */
#include <pagoda/blkdev.h>
#include <pagoda/chrdev.h>
#include <pagoda/dm-ioctl.h>
#include <pagoda/file.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include "internal.h"

void chrdev_stat(const struct chrdev *c, struct kstat *k)
{
	*k = (struct kstat){ .ino = 0x100 + c->minor, .nlink = 1, .mode = S_IFCHR | 0666,
			     .rdev = (c->major << 8) | c->minor, .blksize = PAGE_SIZE };
}

static const struct chrdev *find_chrdev(const char *name)
{
	const struct chrdev *c;

	for (unsigned int i = 0; (c = chrdev_get(i)); i++)
		if (!strcmp(c->path + 4, name)) /* "dev/null" */
			return c;
	return NULL;
}

/* The block device at path ("vda", "mapper/NAME"), or NULL. */
static struct block_device *find_bdev(const char *path)
{
	char name[64];

	if (!strncmp(path, "mapper/", 7)) {
		if (!path[7] || strchr(path + 7, '/'))
			return NULL;
		snprintf(name, sizeof(name), "/dev/mapper/%s", path + 7);
		return bdev_lookup(name);
	}
	if (!path[0] || strchr(path, '/') || strchr(path, ':'))
		return NULL; /* "254:0" is a device number to the registry, not a name here */
	return bdev_lookup(path);
}

/* Linux's new_encode_dev(): what st_rdev holds. */
static u64 encode_dev(dev_t dev)
{
	u64 ma = MAJOR(dev), mi = MINOR(dev);

	return (mi & 0xff) | (ma << 8) | ((mi & ~0xffULL) << 12);
}

static int devtmpfs_getattr(struct vfsmount *m, const char *path, struct kstat *k, bool follow)
{
	const struct chrdev *c;
	struct block_device *bdev;

	(void)m;
	(void)follow;
	if (!path[0] || !strcmp(path, "mapper")) {
		*k = (struct kstat){ .ino = path[0] ? 3 : 2, .nlink = 2, .mode = S_IFDIR | 0755,
				     .blksize = PAGE_SIZE };
		return 0;
	}
	if (!strcmp(path, "console") || !strcmp(path, "tty")) {
		console_stat(k);
		if (path[0] == 't')
			k->rdev = 5 << 8; /* /dev/tty: 5:0 */
		return 0;
	}
	c = find_chrdev(path);
	if (c) {
		chrdev_stat(c, k);
		return 0;
	}
	if (!strcmp(path, "mapper/control")) {
		*k = (struct kstat){ .ino = 4, .nlink = 1, .mode = S_IFCHR | 0600,
				     .rdev = (MISC_MAJOR << 8) | DM_CONTROL_MINOR,
				     .blksize = PAGE_SIZE };
		return 0;
	}
	bdev = find_bdev(path);
	if (!bdev)
		return -ENOENT;
	*k = (struct kstat){ .ino = 0x1000 + bdev->bd_dev, .nlink = 1, .mode = S_IFBLK | 0660,
			     .rdev = encode_dev(bdev->bd_dev), .blksize = PAGE_SIZE };
	return 0;
}

static int devtmpfs_open(struct vfsmount *m, const char *path, unsigned long flags, u32 mode,
			 struct file *f)
{
	const struct chrdev *c;
	struct block_device *bdev;

	(void)m;
	(void)mode;
	if (!strcmp(path, "console") || !strcmp(path, "tty")) {
		f->kind = FILE_CONSOLE; /* the same terminal as fds 0-2 */
		return 0;
	}
	c = find_chrdev(path);
	if (c) {
		/* A device: O_CREAT finds it, O_TRUNC is ignored, as Linux's. */
		f->kind = FILE_CHR;
		f->chr = c;
		return 0;
	}
	if (!strcmp(path, "mapper/control")) {
		return dm_ctl_open(f);
	}
	bdev = find_bdev(path);
	if (bdev) {
		if (!strncmp(path, "mapper/", 7))
			path = bdev->bd_name;
		return blkdev_file_open(path, flags, f);
	}
	return (flags & O_CREAT) ? -EROFS : -ENOENT; /* no mknod here */
}

/*
 * The nodes are the kernel's devices themselves, and go when the device
 * goes; nobody removes one by hand. -EPERM, what Linux's devfs answered:
 * libdevmapper, renaming /dev/mapper/OLD itself, takes it to mean the
 * kernel has moved the node already, which it has.
 */
static int devtmpfs_unlink(struct vfsmount *m, const char *path, bool dir)
{
	struct kstat k;
	int err = devtmpfs_getattr(m, path, &k, false);

	(void)dir;
	return err ? err : -EPERM;
}

struct bdev_walk {
	struct dir_context *ctx;
	bool mapper;
	int err;
};

static void emit_bdev(struct block_device *bdev, void *arg)
{
	struct bdev_walk *w = arg;
	const char *name = bdev->bd_name;

	if (w->mapper) {
		if (bdev->bd_partno || !bdev->bd_disk->alias[0])
			return;
		name = bdev->bd_disk->alias;
	}
	if (!w->err)
		w->err = dir_emit(w->ctx, name, strlen(name), 0x1000 + bdev->bd_dev, DT_BLK);
}

static int devtmpfs_readdir(struct vfsmount *m, const char *path, struct dir_context *ctx)
{
	struct bdev_walk w = { .ctx = ctx, .mapper = path[0] != '\0' };
	const struct chrdev *c;
	int err = 0;

	(void)m;
	if (!w.mapper) {
		err = dir_emit(ctx, "console", 7, 1, DT_CHR);
		if (!err)
			err = dir_emit(ctx, "tty", 3, 1, DT_CHR);
		if (!err)
			err = dir_emit(ctx, "mapper", 6, 3, DT_DIR);
		for (unsigned int i = 0; !err && (c = chrdev_get(i)); i++)
			err = dir_emit(ctx, c->path + 4, strlen(c->path + 4), 0x100 + c->minor, DT_CHR);
	} else {
		err = dir_emit(ctx, "control", 7, 4, DT_CHR);
	}
	if (!err)
		bdev_for_each(emit_bdev, &w);
	return err ? err : w.err;
}

const struct file_system_type devtmpfs_fs_type = {
	.name = "devtmpfs",
	.nodev = true,
	.getattr = devtmpfs_getattr,
	.open = devtmpfs_open,
	.readdir = devtmpfs_readdir,
	.unlink = devtmpfs_unlink,
};
