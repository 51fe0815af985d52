/* SPDX-License-Identifier: MIT */
/*
 * Open file descriptions and the descriptors that point at them
 * (kernel/file.c; Linux's <linux/fs.h> struct file and <linux/file.h>).
 */
#ifndef PAGODA_FILE_H
#define PAGODA_FILE_H

#include <pagoda/compiler.h>
#include <pagoda/types.h>

struct process;
struct ramfs_file;

/*
 * An open file description (kernel/file.c): what a descriptor points at,
 * shared by the descriptors dup and fork make (refs counts them all). The
 * console (fds 0-2 at start: reads end-of-file, writes print), a file of
 * the read-only initramfs, one end of a pipe (kernel/pipe.c), or a
 * memory device such as /dev/null (drivers/char/mem.c).
 */
enum file_kind { FILE_CONSOLE, FILE_RAMFS, FILE_PIPE, FILE_CHR, FILE_OPS };
struct pipe;
struct chrdev;
struct file_operations;
struct vfsmount;

struct file {
	enum file_kind kind;
	unsigned int refs;
	bool write_end;              /* a pipe's write end */
	bool nonblock;               /* O_NONBLOCK: a pipe answers -EAGAIN, not waits */
	const struct ramfs_file *rf;
	u64 pos;
	struct pipe *pipe;
	const struct chrdev *chr;    /* FILE_CHR: /dev/null and the like (drivers/char/mem.c) */
	bool can_read, can_write;    /* FILE_CHR, FILE_OPS: what the open's access mode allows */
	/* FILE_OPS: a file of a mounted file system (fs/): its operations and state. */
	const struct file_operations *f_op;
	void *private_data;
	struct vfsmount *mnt;        /* whose users count includes this file */
	char *path;                  /* absolute (kmalloc'ed): fchdir, *at() relative to it */
	unsigned long f_flags;       /* the open's flags, as F_GETFL answers (O_APPEND...) */
	bool is_dir;
};

/* kernel/file.c */
struct file *file_alloc(enum file_kind kind);
void file_get(struct file *f);
void file_put(struct file *f);
/* The lowest free descriptor from min up, holding f: the fd, or -EMFILE. */
int fd_install(struct process *p, struct file *f, int min);
/*
 * A new file into the current process's lowest free descriptor, marked
 * FD_CLOEXEC if asked (open, memfd_create, timerfd_create): the fd, or
 * -EMFILE with f put.
 */
int fd_install_new(struct file *f, bool cloexec);
/*
 * Two new files into the two lowest free descriptors, their numbers
 * copied to the user's int[2] at ufds (pipe2, socketpair): 0, or -EMFILE
 * or -EFAULT with both files put and no descriptor left taken.
 */
int fd_install_pair(struct process *p, struct file *f[2], u64 ufds, bool cloexec);
/*
 * The current process's file at descriptor fd with a reference of the
 * caller's own (Linux's fget()), or NULL: another thread's close() cannot
 * free it under the caller. file_put() gives it back; a pointer declared
 * `struct file *f __free(file_put) = fget(fd)` is put on every return.
 */
struct file *fget(long fd);
/* Linux's FMODE_READ / FMODE_WRITE, from what each kind of file allows (kernel/read_write.c). */
bool file_readable(const struct file *f);
bool file_writable(const struct file *f);
void __free_file_put(struct file **fp);
/* The console's description, with a reference for the caller. */
struct file *file_console(void);

#endif
