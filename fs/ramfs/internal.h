/* SPDX-License-Identifier: MIT */
/* The tmpfs's inodes (fs/ramfs/inode.c) and their data pages (fs/ramfs/file.c). */
#ifndef FS_RAMFS_INTERNAL_H
#define FS_RAMFS_INTERNAL_H

#include <pagoda/fs.h>
#include <pagoda/list.h>
#include <pagoda/mutex.h>

struct tmpfs_sb;

/*
 * A file or directory. It lives while it has a name (the tree holds one
 * reference) or is open (each open file one more): a file removed while
 * open keeps its pages until the last close, as on Linux.
 */
struct tmpfs_inode {
	u32 mode;
	u32 nlink;            /* a file 1 (0 once removed); a directory 2 + subdirectories */
	u64 ino;
	u64 size;
	s64 mtime;
	unsigned int refs;
	struct tmpfs_sb *sb;
	struct tmpfs_inode *parent; /* NULL for the root and once removed */
	struct list_head children;  /* a directory's entries */
	struct list_head sibling;   /* in the parent's children */
	char name[NAME_MAX + 1];
	char *link;           /* a symbolic link's target (kmalloc'ed), its size its length */
	/* A regular file's data (mm/shmem.c), which MAP_SHARED maps too; NULL otherwise. */
	struct shmem_object *data;
};

/* One mount's tree. Every operation holds lock, whole: a tmpfs is small and simple. */
struct tmpfs_sb {
	struct mutex lock;
	struct tmpfs_inode *root;
	u64 next_ino;
};

extern const struct file_operations tmpfs_file_operations;
/* Drop a reference; the last one frees the inode and its pages (lock held). */
void tmpfs_iput(struct tmpfs_inode *inode);
/* A regular file's data object: 0 or -ENOMEM. */
int tmpfs_new_data(struct tmpfs_inode *inode);
/* The inode's hold on its data given back (the inode is going). */
void tmpfs_free_data(struct tmpfs_inode *inode);
/* st_blocks: 512-byte units of the pages the file holds. */
u64 tmpfs_blocks(struct tmpfs_inode *inode);
/* What stat answers for inode (lock held). */
void tmpfs_fill_kstat(struct tmpfs_inode *inode, struct kstat *k);
/* Cut or extend the data to size (lock held): 0. */
int tmpfs_setsize(struct tmpfs_inode *inode, u64 size);

#endif
