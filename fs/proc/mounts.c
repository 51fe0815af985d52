// SPDX-License-Identifier: MIT
/*
 * /proc/mounts ("source mountpoint type options 0 0", the initramfs "ro"
 * here, every other file system "rw") and /proc/filesystems (each type,
 * "nodev" before those with no block device behind them, a tab between),
 * as Linux's fs/proc_namespace.c and fs/filesystems.c print them.
 */
#include "internal.h"

static void show_mount(struct vfsmount *mnt, void *arg)
{
	struct seq_file *m = arg;

	seq_printf(m, "%s %s %s %s 0 0\n", mnt->source, mnt->mountpoint, mnt->type->name,
		   mnt->type == &rootfs_fs_type ? "ro" : "rw,relatime");
}

void proc_mounts_show(struct seq_file *m, struct process *p)
{
	(void)p;
	mounts_for_each(show_mount, m);
}

void proc_filesystems_show(struct seq_file *m, struct process *p)
{
	static const struct file_system_type *const types[] = {
		&rootfs_fs_type, &tmpfs_fs_type, &proc_fs_type, &devtmpfs_fs_type,
	};

	(void)p;
	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++)
		seq_printf(m, "%s\t%s\n", types[i]->nodev ? "nodev" : "", types[i]->name);
}
