/* SPDX-License-Identifier: MIT */
/*
 * The file systems user programs see (fs/): one tree of absolute paths,
 * made of mounts. The initramfs is the root (fs/rootfs.c, read-only); a
 * tmpfs (fs/ramfs/), the process file system (fs/proc/) and a devtmpfs
 * (fs/devtmpfs.c) are mounted on directories of it, /tmp, /proc and
 * /dev at boot, as a Linux init script would mount them.
 *
 * Unlike Linux's dentry cache, a file system here is asked by path: each
 * operation gets the path inside the mount ("" for its root, no leading
 * slash, already free of "." and ".."), as a FUSE file system is. That
 * keeps each file system to a few functions, and one place (fs/namei.c)
 * turns what a program wrote into a mount and such a path.
 */
#ifndef PAGODA_FS_H
#define PAGODA_FS_H

#include <asm/fcntl.h>
#include <pagoda/list.h>
#include <pagoda/types.h>

struct file;
struct shmem_object;
struct iov_iter;
struct vfsmount;

#define PATH_MAX 256
#define NAME_MAX 255

/* Linux's mode bits (S_IF* as in <sys/stat.h>). */
#define S_IFMT 0170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)

/* fallocate's modes (Linux's values). */
#define FALLOC_FL_KEEP_SIZE 0x01
#define FALLOC_FL_PUNCH_HOLE 0x02
#define FALLOC_FL_MASK 0x7f /* every mode bit Linux knows */

/* Open flags: Linux's values, the same on both arches but for <asm/fcntl.h>'s. */
#define O_ACCMODE 3
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_CREAT 0100
#define O_EXCL 0200
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000
#define O_CLOEXEC 02000000
#define __O_TMPFILE 020000000 /* O_TMPFILE is it with O_DIRECTORY */

#define AT_FDCWD -100

/* getdents64's d_type */
#define DT_UNKNOWN 0
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10

/* What stat() tells; put_stat() lays it out as each arch's struct stat. */
struct kstat {
	u64 ino, nlink, size, blocks, rdev;
	u32 mode, blksize;
	s64 mtime; /* seconds since the epoch */
};

/* A directory's entries, gathered when it is opened (fs/readdir.c). */
struct dir_context;
/* Add one entry (a name of len bytes): 0, or -ENOMEM. */
int dir_emit(struct dir_context *ctx, const char *name, size_t len, u64 ino, unsigned int type);

/*
 * What an open file of a mounted file system does (struct file's f_op).
 * pos: where a pread/pwrite goes, or the file's own position (moved by
 * the call). Every one may be NULL: no reading (-EINVAL), no writing
 * (-EINVAL), ioctl -ENOTTY, stat from the path at open.
 */
struct file_operations {
	long (*read)(struct file *f, struct iov_iter *to, u64 *pos);
	long (*write)(struct file *f, struct iov_iter *from, u64 *pos);
	long (*ioctl)(struct file *f, unsigned int cmd, u64 arg);
	int (*getattr)(struct file *f, struct kstat *k);
	int (*truncate)(struct file *f, u64 size);
	/* fallocate's modes 0, FALLOC_FL_KEEP_SIZE and (with it) FALLOC_FL_PUNCH_HOLE */
	int (*fallocate)(struct file *f, int mode, u64 offset, u64 len);
	int (*fsync)(struct file *f);
	void (*release)(struct file *f);
	u64 (*end)(struct file *f); /* where SEEK_END counts from, when not stat's size */
	unsigned int (*poll)(struct file *f); /* poll()'s events ready now; NULL: always ready */
	/*
	 * What mmap maps of the file: its shared memory object (mm/shmem.c),
	 * with a reference for the caller. NULL: the file cannot be mapped.
	 */
	struct shmem_object *(*mmap)(struct file *f);
	bool no_seek; /* a stream (a terminal): lseek is -ESPIPE */
};

/*
 * A file system type: the operations on paths inside one mount. open
 * fills f (f_op, private_data; kind FILE_OPS, or the initramfs's own);
 * a directory is opened by asking readdir for its entries. Missing
 * operations answer -EROFS (a read-only file system) or -EPERM.
 */
struct file_system_type {
	const char *name;      /* "tmpfs", "proc", "devtmpfs", "rootfs" */
	bool nodev;            /* /proc/filesystems's "nodev": no block device behind it */
	int (*fill_super)(struct vfsmount *m); /* a new mount's own state (m->fs_info) */
	void (*kill_sb)(struct vfsmount *m);   /* and its end: everything given back */
	int (*getattr)(struct vfsmount *m, const char *path, struct kstat *k, bool follow);
	int (*open)(struct vfsmount *m, const char *path, unsigned long flags, u32 mode,
		    struct file *f);
	/* O_TMPFILE: a new file with no name, in the directory at path, open in f. */
	int (*tmpfile)(struct vfsmount *m, const char *path, u32 mode, struct file *f);
	int (*readdir)(struct vfsmount *m, const char *path, struct dir_context *ctx);
	int (*readlink)(struct vfsmount *m, const char *path, char *buf, size_t size);
	int (*mkdir)(struct vfsmount *m, const char *path, u32 mode);
	int (*unlink)(struct vfsmount *m, const char *path, bool dir);
	int (*rename)(struct vfsmount *m, const char *from, const char *to);
	int (*truncate)(struct vfsmount *m, const char *path, u64 size);
	int (*set_mtime)(struct vfsmount *m, const char *path, s64 mtime);
	int (*chmod)(struct vfsmount *m, const char *path, u32 mode); /* mode: 07777 bits */
	int (*symlink)(struct vfsmount *m, const char *target, const char *path);
};

struct vfsmount {
	const struct file_system_type *type;
	char mountpoint[PATH_MAX]; /* absolute: "/", "/tmp" */
	char source[32];           /* what /proc/mounts shows first: "tmpfs", "proc" */
	void *fs_info;             /* the file system's own (the tmpfs tree) */
	unsigned int users;        /* open files and look-ups inside: umount is -EBUSY while any */
	struct list_head list;
};

/* fs/ramfs/file.c: pages holding tmpfs files' data, all mounts together. */
extern unsigned long shmem_pages;

/* fs/namespace.c: the mount table. */
extern const struct file_system_type rootfs_fs_type, tmpfs_fs_type, proc_fs_type,
	devtmpfs_fs_type;
/* Mount a file system of type name on the directory path: 0 or -errno. */
int do_mount(const char *source, const char *path, const char *type);
/*
 * The mount path is in, and path inside it (points into path), counted in
 * the mount's users: give it back with mntput() (an open file keeps it).
 */
struct vfsmount *lookup_mnt(const char *path, const char **rest);
void mntput(struct vfsmount *m);
/* Each mount in mount order, as /proc/mounts lists them. */
void mounts_for_each(void (*fn)(struct vfsmount *m, void *arg), void *arg);
/* The mounts at boot: /dev, /proc, /tmp. */
void vfs_init(void);

/* fs/namei.c: a program's path (dirfd, upath) as an absolute, clean one in abs. */
int user_path_at(long dirfd, u64 upath, char *abs);
/* Clean path (relative to base when it is): "." and ".." and "//" gone. */
int path_normalize(const char *base, const char *path, char *abs);
/* Stat, open, and so on, on an absolute path: the mount's file system asked. */
int vfs_getattr(const char *abs, struct kstat *k, bool follow);
int vfs_open(const char *abs, unsigned long flags, u32 mode, struct file **fp);
int vfs_readlink(const char *abs, char *buf, size_t size);
/* fs/open.c: abs made what its last component's symbolic links name (in place): 0, -ELOOP. */
int follow_link(char *abs);

/* fs/readdir.c: the directory files every file system's readdir backs. */
int dir_open(struct vfsmount *m, const char *path, const char *abs, struct file *f);

/* fs/stat.c: what fstat() tells of an open file, and its layout for the program. */
/*
 * fs/aio.c: the process's asynchronous I/O contexts end (exit, exec): waits
 * for the requests a device still holds, then gives everything back.
 */
struct process;
void exit_aio(struct process *p);
int file_getattr(struct file *f, struct kstat *k);
long put_stat(u64 ubuf, const struct kstat *k);

#endif
