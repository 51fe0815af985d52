// SPDX-License-Identifier: MIT
/*
 * Files for user programs. A process's descriptors (p->fds[]) point at
 * open file descriptions (struct file), which dup() and fork() share and
 * count; the last close frees one. Each descriptor also has its own
 * flag, FD_CLOEXEC (exec closes it). The kinds: the console (fds 0-2 at
 * start: a terminal, drivers/tty/n_tty.c), a file of the read-only
 * initramfs, the ends of a pipe (kernel/pipe.c), a memory device, and a
 * file of a mounted file system with its own operations (fs/). openat()
 * asks fs/ for all but the pipes.
 */
#include <pagoda/atomic.h>
#include <pagoda/chrdev.h>
#include <pagoda/cpio.h>
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/initramfs.h>
#include <pagoda/pipe.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include "syscalls.h"

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* The one console description: every process's fds 0-2 until it closes them. */
static struct file console_file = { .kind = FILE_CONSOLE, .refs = 1 };

int string_from_user(char *buf, u64 ustr, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (copy_from_user(&buf[i], ustr + i, 1))
			return -EFAULT;
		if (!buf[i])
			return 0;
	}
	return -ENAMETOOLONG;
}

void file_get(struct file *f)
{
	__atomic_fetch_add(&f->refs, 1, __ATOMIC_RELAXED);
}

void file_put(struct file *f)
{
	if (__atomic_sub_fetch(&f->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (f == &console_file)
		return; /* never freed; its count only says who holds it */
	if (f->kind == FILE_PIPE)
		pipe_release(f);
	if (f->f_op && f->f_op->release)
		f->f_op->release(f);
	if (f->mnt)
		mntput(f->mnt);
	kfree(f->path);
	kfree(f);
}

struct file *file_console(void)
{
	file_get(&console_file);
	return &console_file;
}

struct file *file_alloc(enum file_kind kind)
{
	struct file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (f) {
		f->kind = kind;
		f->refs = 1;
	}
	return f;
}

/*
 * The lowest free descriptor from min up, holding f (our reference); or
 * -EMFILE. Threads share the table: a slot is taken with a compare-and-
 * swap, so two threads opening at once never get the same one.
 */
int fd_install(struct process *p, struct file *f, int min)
{
	for (int fd = min; fd < NR_OPEN; fd++)
		if (!READ_ONCE(p->fds[fd]) && !cmpxchg(&p->fds[fd], NULL, f)) {
			p->fd_flags[fd] = 0;
			return fd;
		}
	return -EMFILE;
}

struct file *fget(long fd)
{
	struct process *p = current_process();
	struct file *f;

	if (fd < 0 || fd >= NR_OPEN)
		return NULL;
	spin_lock(&p->files_lock);
	f = READ_ONCE(p->fds[fd]);
	if (f)
		file_get(f);
	spin_unlock(&p->files_lock);
	return f;
}

static bool fd_is_open(long fd)
{
	struct file *f __free(file_put) = fget(fd);

	return f != NULL;
}

void __free_file_put(struct file **fp)
{
	if (*fp)
		file_put(*fp);
}

/*
 * Slot fd holds replacement now (NULL: closed); what it held is returned,
 * for the caller to put. Under files_lock, so an fget() of the slot has
 * taken its reference before, or sees the new one; the exchange itself is
 * atomic against fd_install()'s lock-free claim of a free slot.
 */
static struct file *fd_replace(struct process *p, long fd, struct file *replacement)
{
	struct file *old;

	spin_lock(&p->files_lock);
	old = xchg(&p->fds[fd], replacement);
	spin_unlock(&p->files_lock);
	return old;
}

void process_files_init(struct process *p)
{
	spin_lock_init(&p->files_lock);
	for (int fd = 0; fd < 3; fd++) {
		file_get(&console_file);
		p->fds[fd] = &console_file;
	}
}

void process_files_copy(struct process *c, struct process *p)
{
	process_files_close(c); /* the console references process_create() gave it */
	/* Another of p's threads may be closing one: each taken as fget() takes it. */
	spin_lock(&p->files_lock);
	for (int fd = 0; fd < NR_OPEN; fd++) {
		c->fds[fd] = p->fds[fd];
		c->fd_flags[fd] = p->fd_flags[fd];
		if (c->fds[fd])
			file_get(c->fds[fd]);
	}
	spin_unlock(&p->files_lock);
	memcpy(c->cwd, p->cwd, sizeof(c->cwd));
	c->umask = p->umask;
}

void process_files_close(struct process *p)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		struct file *f = fd_replace(p, fd, NULL);

		if (f)
			file_put(f);
	}
}

/* The descriptors marked FD_CLOEXEC close once an exec has succeeded. */
void process_files_close_on_exec(struct process *p)
{
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (READ_ONCE(p->fds[fd]) && (p->fd_flags[fd] & FD_CLOEXEC)) {
			struct file *f = fd_replace(p, fd, NULL);

			p->fd_flags[fd] = 0;
			if (f)
				file_put(f);
		}
}

/*
 * openat(dirfd, path, flags, mode): the path made absolute (fs/namei.c)
 * and opened by the file system mounted there (fs/open.c).
 */
long sys_openat(const unsigned long *args)
{
	struct process *p = current_process();
	unsigned long flags = args[2];
	char path[PATH_MAX];
	struct file *f;
	int err = user_path_at((long)args[0], args[1], path);

	if (err)
		return err;
	if (!path[0])
		return -ENOENT;
	err = vfs_open(path, flags, (u32)args[3] & 07777 & ~p->umask, &f);
	if (err)
		return err;
	return fd_install_new(f, flags & O_CLOEXEC);
}

long sys_ioctl(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);

	if (!f)
		return -EBADF;
	if (f->kind == FILE_OPS)
		return f->f_op->ioctl ? f->f_op->ioctl(f, (unsigned int)args[1], args[2]) : -ENOTTY;
	return f->kind == FILE_CONSOLE ? tty_ioctl(args[1], args[2]) : -ENOTTY;
}

long sys_close(const unsigned long *args)
{
	struct process *p = current_process();
	long fd = (long)args[0];
	struct file *f;

	if (fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	/* Taken out in one step: of two threads closing it, one puts the file. */
	f = fd_replace(p, fd, NULL);
	if (!f)
		return -EBADF;
	file_put(f);
	return 0;
}

/* dup(fd): the lowest free descriptor, sharing fd's description. */
long sys_dup(const unsigned long *args)
{
	struct file *f = fget((long)args[0]);
	int fd;

	if (!f)
		return -EBADF;
	fd = fd_install(current_process(), f, 0); /* fget's reference is the new slot's */
	if (fd < 0)
		file_put(f);
	return fd;
}

static long do_dup3(long oldfd, long newfd, unsigned long flags)
{
	struct process *p = current_process();
	struct file *f = fget(oldfd), *old;

	if (!f)
		return -EBADF;
	if (newfd < 0 || newfd >= NR_OPEN || (flags & ~(unsigned long)O_CLOEXEC)) {
		file_put(f);
		return newfd < 0 || newfd >= NR_OPEN ? -EBADF : -EINVAL;
	}
	old = fd_replace(p, newfd, f); /* fget's reference is newfd's; the old one is put once */
	p->fd_flags[newfd] = (flags & O_CLOEXEC) ? FD_CLOEXEC : 0;
	if (old)
		file_put(old);
	return newfd;
}

/* dup3(old, new, flags): new made to share old's description (closed first if open). */
long sys_dup3(const unsigned long *args)
{
	if ((long)args[0] == (long)args[1])
		return -EINVAL;
	return do_dup3((long)args[0], (long)args[1], args[2]);
}

/* dup2(old, new): as dup3, but old == new is fine when old is open. */
long sys_dup2(const unsigned long *args)
{
	if ((long)args[0] == (long)args[1])
		return fd_is_open((long)args[0]) ? (long)args[1] : -EBADF;
	return do_dup3((long)args[0], (long)args[1], 0);
}

int fd_install_new(struct file *f, bool cloexec)
{
	struct process *p = current_process();
	int fd = fd_install(p, f, 0);

	if (fd < 0)
		file_put(f);
	else if (cloexec)
		p->fd_flags[fd] = FD_CLOEXEC;
	return fd;
}

int fd_install_pair(struct process *p, struct file *f[2], u64 ufds, bool cloexec)
{
	int fds[2], err = 0;

	fds[0] = fd_install(p, f[0], 0);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install(p, f[1], 0);
	if (fds[1] < 0)
		err = -EMFILE;
	else if (copy_to_user(ufds, fds, sizeof(fds)))
		err = -EFAULT;
	if (err) {
		for (int i = 0; i < 2; i++) {
			if (fds[i] >= 0)
				fd_replace(p, fds[i], NULL); /* f[i]: put below, once */
			file_put(f[i]);
		}
		return err;
	}
	if (cloexec)
		p->fd_flags[fds[0]] = p->fd_flags[fds[1]] = FD_CLOEXEC;
	return 0;
}

/* pipe2(fds, flags): fds[0] the read end, fds[1] the write end. */
long sys_pipe2(const unsigned long *args)
{
	unsigned long flags = args[1];
	struct file *f[2];
	int err;

	if (flags & ~(unsigned long)(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	err = pipe_create(&f[0], &f[1], flags & O_DIRECT);
	if (err)
		return err;
	f[0]->nonblock = f[1]->nonblock = flags & O_NONBLOCK;
	return fd_install_pair(current_process(), f, args[0], flags & O_CLOEXEC);
}

/* pipe(fds), x86-64's older call: pipe2 with no flags. */
long sys_pipe(const unsigned long *args)
{
	unsigned long a[2] = { args[0], 0 };

	return sys_pipe2(a);
}

/*
 * lseek: files with a position. The memory devices keep theirs at 0 (Linux's
 * null_lseek and noop_llseek); pipes and terminals have none (-ESPIPE).
 */
long sys_lseek(const unsigned long *args)
{
	struct file *f __free(file_put) = fget((long)args[0]);
	s64 off = (s64)args[1], base;
	struct kstat k;

	if (!f)
		return -EBADF;
	if (f->kind == FILE_CHR)
		return 0;
	if (f->kind == FILE_PIPE || f->kind == FILE_CONSOLE || (f->f_op && f->f_op->no_seek))
		return -ESPIPE;
	switch (args[2]) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (s64)f->pos;
		break;
	case SEEK_END:
		if (f->f_op && f->f_op->end) {
			base = (s64)f->f_op->end(f);
			break;
		}
		if (file_getattr(f, &k))
			return -EINVAL;
		base = (s64)k.size;
		break;
	default:
		return -EINVAL;
	}
	if ((off < 0 && base + off < 0) || (off > 0 && base > (s64)(U64_MAX >> 1) - off))
		return -EINVAL;
	f->pos = (u64)(base + off);
	return (long)f->pos;
}
