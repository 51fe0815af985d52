// SPDX-License-Identifier: MIT
/*
 * Files for user programs. A process's descriptors (p->fds[]) point at
 * open file descriptions (struct file), which dup() and fork() share and
 * count; the last close frees one. There are three kinds: the console
 * (fds 0-2 at start: a read is end-of-file, a write prints), a file of the
 * read-only initramfs (openat() resolves a path, relative ones from "/",
 * the only working directory there is; anything that would write is
 * -EROFS), and the ends of a pipe (kernel/pipe.c).
 */
#include <pagoda/atomic.h>
#include <pagoda/chrdev.h>
#include <pagoda/cpio.h>
#include <pagoda/initramfs.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include "syscalls.h"

#define AT_FDCWD -100
#define O_ACCMODE 3
#define O_CREAT 0100
#define O_TRUNC 01000
#define O_NONBLOCK 04000
#define O_CLOEXEC 02000000
#define PATH_MAX 256
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

/* A NUL-terminated path from user memory, at most PATH_MAX with its NUL. */
static int path_from_user(char *buf, u64 upath)
{
	return string_from_user(buf, upath, PATH_MAX);
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

/* The lowest free descriptor from min up, holding f (our reference); or -EMFILE. */
int fd_install(struct process *p, struct file *f, int min)
{
	for (int fd = min; fd < NR_OPEN; fd++)
		if (!p->fds[fd]) {
			p->fds[fd] = f;
			return fd;
		}
	return -EMFILE;
}

struct file *fd_file(long fd)
{
	struct process *p = current_process();

	if (fd < 0 || fd >= NR_OPEN)
		return NULL;
	return p->fds[fd];
}

void process_files_init(struct process *p)
{
	for (int fd = 0; fd < 3; fd++) {
		file_get(&console_file);
		p->fds[fd] = &console_file;
	}
}

void process_files_copy(struct process *c, struct process *p)
{
	for (int fd = 0; fd < NR_OPEN; fd++) {
		c->fds[fd] = p->fds[fd];
		if (c->fds[fd])
			file_get(c->fds[fd]);
	}
}

void process_files_close(struct process *p)
{
	for (int fd = 0; fd < NR_OPEN; fd++)
		if (p->fds[fd]) {
			file_put(p->fds[fd]);
			p->fds[fd] = NULL;
		}
}

long sys_openat(const unsigned long *args)
{
	struct process *p = current_process();
	long dirfd = (long)args[0];
	unsigned long flags = args[2];
	const struct ramfs_file *rf;
	const struct chrdev *chr;
	char path[PATH_MAX];
	struct file *f;
	int err = path_from_user(path, args[1]), fd;

	if (err)
		return err;
	if (path[0] != '/' && dirfd != AT_FDCWD && (int)dirfd != AT_FDCWD)
		return -ENOENT; /* no directories to be relative to, yet */
	chr = chrdev_lookup(path);
	if (chr) {
		/* A device: writable whatever the file system; O_CREAT finds it, O_TRUNC is ignored. */
		f = file_alloc(FILE_CHR);
		if (!f)
			return -ENOMEM;
		f->chr = chr;
		f->can_read = (flags & O_ACCMODE) == 0 || (flags & O_ACCMODE) == 2;
		f->can_write = (flags & O_ACCMODE) == 1 || (flags & O_ACCMODE) == 2;
		goto install;
	}
	if ((flags & O_ACCMODE) != 0 || (flags & (O_CREAT | O_TRUNC)))
		return -EROFS;
	rf = ramfs_lookup(path);
	if (!rf)
		return -ENOENT;
	f = file_alloc(FILE_RAMFS);
	if (!f)
		return -ENOMEM;
	f->rf = rf;
install:
	fd = fd_install(p, f, 0);
	if (fd < 0)
		file_put(f);
	return fd;
}

#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414

/*
 * The console is a terminal to programs, as Linux's serial console is:
 * TCGETS gives a termios for 115200 8N1 with the usual line discipline
 * flags (so isatty() says yes and stdio line-buffers), TIOCGWINSZ the
 * shell's width (shell.columns) by 24 rows. Settings are accepted and not
 * applied: programs get no console input yet, so there is no line
 * discipline to change.
 */
static long console_ioctl(unsigned long cmd, u64 arg)
{
	switch (cmd) {
	case TCGETS: {
		/* struct termios (the kernel's): four flag words, c_line, 19 c_cc. */
		u8 t[36] = { 0 };
		u32 iflag = 0x0500 /* ICRNL | IXON */, oflag = 0x0005 /* OPOST | ONLCR */;
		u32 cflag = 0x14b2 /* B115200 | CS8 | CREAD | HUPCL */, lflag = 0x8a3b; /* ISIG ICANON ECHO... */
		static const u8 cc[] = { 3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22 };

		memcpy(t, &iflag, 4);
		memcpy(t + 4, &oflag, 4);
		memcpy(t + 8, &cflag, 4);
		memcpy(t + 12, &lflag, 4);
		memcpy(t + 17, cc, sizeof(cc));
		return copy_to_user(arg, t, sizeof(t)) ? -EFAULT : 0;
	}
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
	case TIOCSWINSZ:
		return 0;
	case TIOCGWINSZ: {
		u16 ws[4] = { 24, (u16)shell_width(), 0, 0 };

		return copy_to_user(arg, ws, sizeof(ws)) ? -EFAULT : 0;
	}
	default:
		return -ENOTTY;
	}
}

long sys_ioctl(const unsigned long *args)
{
	struct file *f = fd_file((long)args[0]);

	if (!f)
		return -EBADF;
	return f->kind == FILE_CONSOLE ? console_ioctl(args[1], args[2]) : -ENOTTY;
}

long sys_close(const unsigned long *args)
{
	struct process *p = current_process();
	long fd = (long)args[0];
	struct file *f = fd_file(fd);

	if (!f)
		return -EBADF;
	p->fds[fd] = NULL;
	file_put(f);
	return 0;
}

/* dup(fd): the lowest free descriptor, sharing fd's description. */
long sys_dup(const unsigned long *args)
{
	struct file *f = fd_file((long)args[0]);
	int fd;

	if (!f)
		return -EBADF;
	file_get(f);
	fd = fd_install(current_process(), f, 0);
	if (fd < 0)
		file_put(f);
	return fd;
}

static long do_dup3(long oldfd, long newfd, unsigned long flags)
{
	struct process *p = current_process();
	struct file *f = fd_file(oldfd), *old;

	if (!f)
		return -EBADF;
	if (newfd < 0 || newfd >= NR_OPEN)
		return -EBADF;
	if (flags & ~(unsigned long)O_CLOEXEC)
		return -EINVAL; /* close-on-exec is accepted and not kept: exec keeps every fd */
	old = p->fds[newfd];
	file_get(f);
	p->fds[newfd] = f;
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
		return fd_file((long)args[0]) ? (long)args[1] : -EBADF;
	return do_dup3((long)args[0], (long)args[1], 0);
}

/* pipe2(fds, flags): fds[0] the read end, fds[1] the write end. */
long sys_pipe2(const unsigned long *args)
{
	struct process *p = current_process();
	unsigned long flags = args[1];
	struct file *r, *w;
	int fds[2], err;

	if (flags & ~(unsigned long)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = pipe_create(&r, &w);
	if (err)
		return err;
	r->nonblock = w->nonblock = flags & O_NONBLOCK;
	fds[0] = fd_install(p, r, 0);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install(p, w, 0);
	if (fds[1] < 0) {
		if (fds[0] >= 0)
			p->fds[fds[0]] = NULL;
		file_put(r);
		file_put(w);
		return -EMFILE;
	}
	if (copy_to_user(args[0], fds, sizeof(fds))) {
		p->fds[fds[0]] = p->fds[fds[1]] = NULL;
		file_put(r);
		file_put(w);
		return -EFAULT;
	}
	return 0;
}

/* pipe(fds), x86-64's older call: pipe2 with no flags. */
long sys_pipe(const unsigned long *args)
{
	unsigned long a[2] = { args[0], 0 };

	return sys_pipe2(a);
}

long sys_lseek(const unsigned long *args)
{
	struct file *f = fd_file((long)args[0]);
	s64 off = (s64)args[1], base;

	if (!f)
		return -EBADF;
	if (f->kind == FILE_CHR)
		return 0; /* Linux's null_lseek and noop_llseek: the position stays 0 */
	if (f->kind != FILE_RAMFS)
		return -ESPIPE;
	switch (args[2]) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (s64)f->pos;
		break;
	case SEEK_END:
		base = (s64)f->rf->size;
		break;
	default:
		return -EINVAL;
	}
	if ((off < 0 && base + off < 0) || (off > 0 && base > (s64)(U64_MAX >> 1) - off))
		return -EINVAL;
	f->pos = (u64)(base + off);
	return (long)f->pos;
}

#define AT_EMPTY_PATH 0x1000
#define AT_SYMLINK_NOFOLLOW 0x100
#define S_IFCHR 0020000
#define S_IFIFO 0010000

/*
 * struct stat as each arch's Linux lays it out: x86-64 has its own (144
 * bytes, st_nlink before st_mode, 64-bit), arm64 the generic one (128
 * bytes, st_mode before a 32-bit st_nlink).
 */
struct kstat {
	u64 ino, nlink, size, blocks, rdev;
	u32 mode, blksize;
};

static long put_stat(u64 ubuf, const struct kstat *k)
{
	u8 buf[144];

	memset(buf, 0, sizeof(buf));
#ifdef __x86_64__
	u64 bs = k->blksize;

	memcpy(buf + 8, &k->ino, 8);
	memcpy(buf + 16, &k->nlink, 8);
	memcpy(buf + 24, &k->mode, 4);
	memcpy(buf + 40, &k->rdev, 8);
	memcpy(buf + 48, &k->size, 8);
	memcpy(buf + 56, &bs, 8);
	memcpy(buf + 64, &k->blocks, 8);
	return copy_to_user(ubuf, buf, 144) ? -EFAULT : 0;
#else
	u32 nlink = (u32)k->nlink;

	memcpy(buf + 8, &k->ino, 8);
	memcpy(buf + 16, &k->mode, 4);
	memcpy(buf + 20, &nlink, 4);
	memcpy(buf + 32, &k->rdev, 8);
	memcpy(buf + 48, &k->size, 8);
	memcpy(buf + 56, &k->blksize, 4);
	memcpy(buf + 64, &k->blocks, 8);
	return copy_to_user(ubuf, buf, 128) ? -EFAULT : 0;
#endif
}

static void stat_ramfs(const struct ramfs_file *rf, struct kstat *k)
{
	*k = (struct kstat){
		/* The file's first entry's address: unique and stable, and the
		 * same for every name of a hard-linked file. */
		.ino = ((u64)(uintptr_t)rf->inode >> 4) & 0xffffffff,
		.nlink = rf->nlink,
		.size = rf->size,
		.blocks = (rf->size + 511) / 512,
		.mode = rf->mode,
		.blksize = PAGE_SIZE,
	};
}

/* A memory device: crw-rw-rw-, its numbers as rdev (Linux's new_encode_dev for small ones). */
static void stat_chrdev(const struct chrdev *c, struct kstat *k)
{
	*k = (struct kstat){ .ino = 0x100 + c->minor, .nlink = 1, .mode = S_IFCHR | 0666,
			     .rdev = (c->major << 8) | c->minor, .blksize = PAGE_SIZE };
}

static long stat_fd(long fd, u64 ubuf)
{
	struct file *f = fd_file(fd);
	struct kstat k;

	if (!f)
		return -EBADF;
	if (f->kind == FILE_CONSOLE) {
		/* A character device, /dev/console's numbers (5, 1). */
		k = (struct kstat){ .ino = 1, .nlink = 1, .mode = S_IFCHR | 0620,
				    .rdev = (5 << 8) | 1, .blksize = 1024 };
	} else if (f->kind == FILE_PIPE) {
		k = (struct kstat){ .ino = ((u64)(uintptr_t)f->pipe >> 4) & 0xffffffff,
				    .nlink = 1, .mode = S_IFIFO | 0600, .blksize = PAGE_SIZE };
	} else if (f->kind == FILE_CHR) {
		stat_chrdev(f->chr, &k);
	} else {
		stat_ramfs(f->rf, &k);
	}
	return put_stat(ubuf, &k);
}

long sys_fstat(const unsigned long *args)
{
	return stat_fd((long)args[0], args[1]);
}

/* A path a *at() call may take: absolute, or relative to the cwd ("/"). */
static int at_path(long dirfd, u64 upath, char *path)
{
	int err = path_from_user(path, upath);

	if (err)
		return err;
	if (path[0] && path[0] != '/' && dirfd != AT_FDCWD && (int)dirfd != AT_FDCWD)
		return -ENOENT; /* no directories to be relative to, yet */
	return 0;
}

static long stat_path(long dirfd, u64 upath, u64 ubuf, unsigned long flags)
{
	const struct ramfs_file *rf;
	char path[PATH_MAX];
	struct kstat k;
	int err = at_path(dirfd, upath, path);

	if (err)
		return err;
	if (!path[0])
		return (flags & AT_EMPTY_PATH) ? stat_fd(dirfd, ubuf) : -ENOENT;
	if (chrdev_lookup(path)) {
		stat_chrdev(chrdev_lookup(path), &k);
		return put_stat(ubuf, &k);
	}
	/* lstat: a symbolic link at the end is described, not followed */
	rf = (flags & AT_SYMLINK_NOFOLLOW) ? ramfs_lookup_nofollow(path) : ramfs_lookup(path);
	if (!rf)
		return -ENOENT;
	stat_ramfs(rf, &k);
	return put_stat(ubuf, &k);
}

/* newfstatat(dirfd, path, buf, flags); x86-64 calls it fstatat too. */
long sys_newfstatat(const unsigned long *args)
{
	return stat_path((long)args[0], args[1], args[2], args[3]);
}

/*
 * readlinkat(dirfd, path, buf, size): a symbolic link's target, not
 * NUL-terminated, cut at size; -EINVAL if path is not a link.
 */
long sys_readlinkat(const unsigned long *args)
{
	const struct ramfs_file *rf;
	char path[PATH_MAX];
	size_t n;
	int err = at_path((long)args[0], args[1], path);

	if (err)
		return err;
	if ((long)args[3] <= 0)
		return -EINVAL;
	rf = ramfs_lookup_nofollow(path);
	if (!rf)
		return -ENOENT;
	if ((rf->mode & CPIO_S_IFMT) != CPIO_S_IFLNK)
		return -EINVAL;
	n = MIN((size_t)rf->size, (size_t)args[3]);
	return copy_to_user(args[2], rf->data, n) ? -EFAULT : (long)n;
}

#ifdef __x86_64__
/* x86-64's older calls: the same, relative to the current directory. */
long sys_stat(const unsigned long *args)
{
	return stat_path(AT_FDCWD, args[0], args[1], 0);
}

long sys_lstat(const unsigned long *args)
{
	return stat_path(AT_FDCWD, args[0], args[1], AT_SYMLINK_NOFOLLOW);
}

long sys_readlink(const unsigned long *args)
{
	const unsigned long at[4] = { (unsigned long)AT_FDCWD, args[0], args[1], args[2] };

	return sys_readlinkat(at);
}
#endif

#define AT_EACCESS 0x200
#define R_OK 4
#define W_OK 2
#define X_OK 1

/*
 * May the caller (root, always) do mode to rf? Root reads anything and
 * runs anything with an execute bit (or searches a directory); writing
 * is -EROFS on this read-only file system for files, directories and
 * links, as Linux's inode_permission() answers.
 */
static int ramfs_access(const struct ramfs_file *rf, unsigned long mode)
{
	unsigned int type = rf->mode & CPIO_S_IFMT;

	if ((mode & W_OK) && (type == CPIO_S_IFREG || type == CPIO_S_IFDIR || type == CPIO_S_IFLNK))
		return -EROFS;
	if ((mode & X_OK) && type != CPIO_S_IFDIR && !(rf->mode & 0111))
		return -EACCES;
	return 0;
}

static long do_faccessat(long dirfd, u64 upath, unsigned long mode, unsigned long flags)
{
	const struct ramfs_file *rf;
	char path[PATH_MAX];
	int err;

	if (mode & ~7UL)
		return -EINVAL;
	if (flags & ~(unsigned long)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = at_path(dirfd, upath, path);
	if (err)
		return err;
	if (!path[0]) {
		struct file *f = (flags & AT_EMPTY_PATH) ? fd_file(dirfd) : NULL;

		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		if (!f)
			return -EBADF;
		if (f->kind == FILE_RAMFS)
			return ramfs_access(f->rf, mode);
		/* the console, a pipe, a device: no execute bits, writable */
		return (mode & X_OK) ? -EACCES : 0;
	}
	if (chrdev_lookup(path))
		return (mode & X_OK) ? -EACCES : 0; /* crw-rw-rw- */
	rf = (flags & AT_SYMLINK_NOFOLLOW) ? ramfs_lookup_nofollow(path) : ramfs_lookup(path);
	if (!rf)
		return -ENOENT;
	return ramfs_access(rf, mode);
}

/* faccessat(dirfd, path, mode): the system call has no flags argument (libc's does). */
long sys_faccessat(const unsigned long *args)
{
	return do_faccessat((long)args[0], args[1], args[2], 0);
}

/* faccessat2(dirfd, path, mode, flags): AT_EACCESS changes nothing for a lone root. */
long sys_faccessat2(const unsigned long *args)
{
	return do_faccessat((long)args[0], args[1], args[2], args[3]);
}

#ifdef __x86_64__
/* x86-64's open(path, flags, mode), which musl's open() and fopen() call. */
long sys_open(const unsigned long *args)
{
	const unsigned long at[4] = { (unsigned long)AT_FDCWD, args[0], args[1], args[2] };

	return sys_openat(at);
}

/* creat(path, mode): open(path, O_CREAT | O_WRONLY | O_TRUNC, mode). */
long sys_creat(const unsigned long *args)
{
	const unsigned long at[4] = { (unsigned long)AT_FDCWD, args[0], O_CREAT | 1 | O_TRUNC,
				      args[1] };

	return sys_openat(at);
}

/* access(path, mode): faccessat from the current directory. */
long sys_access(const unsigned long *args)
{
	return do_faccessat(AT_FDCWD, args[0], args[1], 0);
}
#endif
