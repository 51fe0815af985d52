// SPDX-License-Identifier: MIT
/*
 * poll(2) and ppoll(2), after Linux's fs/select.c: which descriptors are
 * ready to read or write now, waiting up to a timeout for one to become
 * so. A terminal is readable when a key is waiting (a line editor polls
 * for the rest of an escape sequence), a pipe by what it holds (pipe_poll),
 * and files and devices are always ready, as Linux's regular files are.
 * The wait looks again every tick rather than sleeping on every file's
 * queue: simpler, and a tick is a keystroke's worth of delay. A signal
 * ends it with -EINTR. ppoll's signal mask is not applied (Pagoda's
 * shells and tools pass none that matters here).
 */
#include <pagoda/file.h>
#include <pagoda/pipe.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/time.h>
#include <pagoda/uaccess.h>
#include "../kernel/syscalls.h"
#include "internal.h"

#define POLL_MAX (3 + NR_OPEN) /* RLIMIT_NOFILE, as prlimit64 answers it */

struct pollfd {
	s32 fd;
	s16 events, revents;
};

static unsigned int file_poll(long fd)
{
	struct file *f __free(file_put) = fget(fd);

	if (!f)
		return POLLNVAL;
	if (f->kind == FILE_CONSOLE)
		return tty_poll();
	if (f->kind == FILE_PIPE)
		return pipe_poll(f);
	if (f->kind == FILE_OPS && f->f_op->poll)
		return f->f_op->poll(f);
	return POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM;
}

/* timeout_ns: how long to wait; U64_MAX for ever. */
static long do_poll(u64 ufds, unsigned long nfds, u64 timeout_ns)
{
	struct pollfd fds[POLL_MAX];
	u64 deadline = timeout_ns == U64_MAX ? U64_MAX : ktime_get_ns() + timeout_ns;
	long ready;

	if (nfds > POLL_MAX)
		return -EINVAL;
	if (nfds && copy_from_user(fds, ufds, nfds * sizeof(fds[0])))
		return -EFAULT;
	for (;;) {
		u64 now;

		ready = 0;
		for (unsigned long i = 0; i < nfds; i++) {
			unsigned int mask = 0;

			if (fds[i].fd >= 0)
				mask = file_poll(fds[i].fd) &
				       ((u16)fds[i].events | POLLERR | POLLHUP | POLLNVAL);
			fds[i].revents = (s16)mask;
			if (mask)
				ready++;
		}
		if (ready || !timeout_ns)
			break;
		if (signal_pending(current_process()))
			return -EINTR;
		now = ktime_get_ns();
		if (now >= deadline)
			break;
		schedule_timeout(MIN(deadline - now, 10 * NSEC_PER_MSEC));
	}
	if (nfds && copy_to_user(ufds, fds, nfds * sizeof(fds[0])))
		return -EFAULT;
	return ready;
}

#ifdef __x86_64__
/* poll(fds, nfds, timeout): milliseconds, negative for ever. */
long sys_poll(const unsigned long *args)
{
	long ms = (int)args[2];

	return do_poll(args[0], args[1], ms < 0 ? U64_MAX : (u64)ms * NSEC_PER_MSEC);
}
#endif

/* ppoll(fds, nfds, timeout, sigmask, sigsetsize): a timespec, NULL for ever. */
long sys_ppoll(const unsigned long *args)
{
	s64 ts[2];

	if (!args[2])
		return do_poll(args[0], args[1], U64_MAX);
	if (copy_from_user(ts, args[2], sizeof(ts)))
		return -EFAULT;
	if (ts[0] < 0 || ts[1] < 0 || ts[1] >= (s64)NSEC_PER_SEC)
		return -EINVAL;
	return do_poll(args[0], args[1], (u64)ts[0] * NSEC_PER_SEC + (u64)ts[1]);
}

/* sync(): nothing here holds written data back from its device. */
long sys_sync(const unsigned long *args)
{
	(void)args;
	return 0;
}
