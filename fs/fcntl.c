// SPDX-License-Identifier: MIT
/*
 * fcntl(2), after Linux's fs/fcntl.c: duplicating a descriptor at or
 * above a number (F_DUPFD, F_DUPFD_CLOEXEC), a descriptor's own flag
 * (F_GETFD, F_SETFD: FD_CLOEXEC, which exec honours), and the open
 * file's status flags (F_GETFL: the access mode and O_APPEND,
 * O_NONBLOCK...; F_SETFL changes O_APPEND and O_NONBLOCK only, as
 * Linux's SETFL_MASK less the flags Pagoda has no use for).
 */
#include <pagoda/file.h>
#include <pagoda/pipe.h>
#include <pagoda/process.h>
#include "../kernel/syscalls.h"
#include "internal.h"

#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define SETFL_MASK (O_APPEND | O_NONBLOCK)

/* The flags F_GETFL answers for f. */
static unsigned long status_flags(const struct file *f)
{
	unsigned long fl = f->f_flags;

	if (f->kind == FILE_CONSOLE && !f->path)
		fl |= O_RDWR; /* fds 0-2 as the kernel opened the console for init */
	if (f->kind == FILE_PIPE) {
		fl = f->write_end ? O_WRONLY : 0;
		if (f->nonblock)
			fl |= O_NONBLOCK;
		/* Linux gives O_DIRECT to the write end only, which makes the packets. */
		if (f->write_end && pipe_is_packets(f))
			fl |= O_DIRECT;
	}
	return fl;
}

long sys_fcntl(const unsigned long *args)
{
	struct process *p = current_process();
	long fd = (long)args[0];
	struct file *f __free(file_put) = fget(fd);
	unsigned long arg = args[2];
	int nfd;

	if (!f)
		return -EBADF;
	switch (args[1]) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg >= NR_OPEN)
			return -EINVAL;
		file_get(f);
		nfd = fd_install(p, f, (int)arg);
		if (nfd < 0)
			file_put(f);
		else if (args[1] == F_DUPFD_CLOEXEC)
			p->fd_flags[nfd] = FD_CLOEXEC;
		return nfd;
	case F_GETFD:
		return p->fd_flags[fd];
	case F_SETFD:
		p->fd_flags[fd] = (arg & FD_CLOEXEC) ? FD_CLOEXEC : 0;
		return 0;
	case F_GETFL:
		return (long)status_flags(f);
	case F_SETFL:
		f->f_flags = (f->f_flags & ~(unsigned long)SETFL_MASK) | (arg & SETFL_MASK);
		if (f->kind == FILE_PIPE)
			f->nonblock = arg & O_NONBLOCK;
		return 0;
	default:
		return -EINVAL;
	}
}
