// SPDX-License-Identifier: MIT
/*
 * poll(2), ppoll(2), select(2) and pselect6, after Linux's
 * fs/select.c: which descriptors are ready to read or write now, waiting
 * up to a timeout for one to become so. A terminal is readable when a key is waiting (a line editor polls
 * for the rest of an escape sequence), a pipe by what it holds (pipe_poll),
 * and files and devices are always ready, as Linux's regular files are.
 * The wait looks again every tick rather than sleeping on every file's
 * queue: simpler, and a tick is a keystroke's worth of delay. A signal
 * ends it with -EINTR. ppoll's and pselect6's signal masks are not
 * applied (Pagoda's shells and tools pass none that matters here).
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

/*
 * After a look that found `ready` descriptors: 0 to stop (some are ready,
 * the timeout is zero, or the deadline has passed), -EINTR for a signal,
 * else 1 after sleeping a tick (or what is left, if less): look again.
 */
static int wait_a_tick(long ready, u64 timeout_ns, u64 deadline)
{
	u64 now;

	if (ready || !timeout_ns)
		return 0;
	if (signal_pending(current_process()))
		return -EINTR;
	now = ktime_get_ns();
	if (now >= deadline)
		return 0;
	schedule_timeout(MIN(deadline - now, 10 * NSEC_PER_MSEC));
	return 1;
}

/* timeout_ns: how long to wait; U64_MAX for ever. */
static long do_poll(u64 ufds, unsigned long nfds, u64 timeout_ns)
{
	struct pollfd fds[POLL_MAX];
	u64 deadline = timeout_ns == U64_MAX ? U64_MAX : ktime_get_ns() + timeout_ns;
	long ready;
	int err;

	if (nfds > POLL_MAX)
		return -EINVAL;
	if (nfds && copy_from_user(fds, ufds, nfds * sizeof(fds[0])))
		return -EFAULT;
	do {
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
		err = wait_a_tick(ready, timeout_ns, deadline);
	} while (err > 0);
	if (err < 0)
		return err;
	if (nfds && copy_to_user(ufds, fds, nfds * sizeof(fds[0])))
		return -EFAULT;
	return ready;
}

/* poll(fds, nfds, timeout): milliseconds, negative for ever. */
long sys_poll(const unsigned long *args)
{
	long ms = (int)args[2];

	return do_poll(args[0], args[1], ms < 0 ? U64_MAX : (u64)ms * NSEC_PER_MSEC);
}

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

/*
 * select's three sets, bits of descriptors below nfds, in and out. The
 * table has NR_OPEN slots, so one 64-bit word holds every descriptor that
 * can be open; past it the bits are read as 0 and written back 0 (Linux
 * clears what is not ready, up to nfds).
 */
#define SELECT_MAX_BYTES 128 /* FD_SETSIZE, 1024 bits */
#define POLLIN_SET (POLLIN | POLLRDNORM | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLOUT | POLLWRNORM | POLLERR)
#define POLLEX_SET POLLPRI

static long do_select(long nfds, const u64 uset[3], u64 timeout_ns, u64 *left_ns)
{
	static const u8 zeros[SELECT_MAX_BYTES];
	u64 in[3] = { 0, 0, 0 }, out[3], any, now;
	u64 deadline = timeout_ns == U64_MAX ? U64_MAX : ktime_get_ns() + timeout_ns;
	size_t bytes, mine;
	long ready;
	int err;

	if (nfds < 0)
		return -EINVAL;
	bytes = MIN((size_t)(nfds + 7) / 8, (size_t)SELECT_MAX_BYTES);
	mine = MIN(bytes, sizeof(u64));
	nfds = MIN(nfds, (long)NR_OPEN);
	for (int s = 0; s < 3; s++)
		if (uset[s] && mine && copy_from_user(&in[s], uset[s], mine))
			return -EFAULT;
	any = (in[0] | in[1] | in[2]) & (nfds < 64 ? (1ULL << nfds) - 1 : ~0ULL);
	for (long fd = 0; fd < nfds; fd++)
		if ((any >> fd & 1) && file_poll(fd) == POLLNVAL)
			return -EBADF;
	do {
		ready = 0;
		out[0] = out[1] = out[2] = 0;
		for (long fd = 0; fd < nfds; fd++) {
			u64 bit = 1ULL << fd;
			unsigned int mask;

			if (!(any & bit))
				continue;
			mask = file_poll(fd);
			if ((in[0] & bit) && (mask & POLLIN_SET))
				out[0] |= bit, ready++;
			if ((in[1] & bit) && (mask & POLLOUT_SET))
				out[1] |= bit, ready++;
			if ((in[2] & bit) && (mask & POLLEX_SET))
				out[2] |= bit, ready++;
		}
		err = wait_a_tick(ready, timeout_ns, deadline);
	} while (err > 0);
	if (err < 0)
		return err;
	now = ktime_get_ns();
	*left_ns = deadline == U64_MAX ? U64_MAX : deadline > now ? deadline - now : 0;
	for (int s = 0; s < 3; s++)
		if (uset[s] && bytes && (copy_to_user(uset[s], &out[s], mine) ||
					 (bytes > mine &&
					  copy_to_user(uset[s] + mine, zeros, bytes - mine))))
			return -EFAULT;
	return ready;
}

/*
 * select's timeout: a {seconds, unit} pair at args[4] (NULL: for ever),
 * unit 1 for pselect6's timespec, 1000 for select's timeval. What is left
 * of it is written back, as Linux does.
 */
static long select_timed(const unsigned long *args, u64 unit)
{
	u64 sets[3] = { args[1], args[2], args[3] }, left;
	s64 t[2];
	long r;

	if (!args[4])
		return do_select((long)(int)args[0], sets, U64_MAX, &left);
	if (copy_from_user(t, args[4], sizeof(t)))
		return -EFAULT;
	/* Linux folds a timeval's microseconds of a second or more into it; not a timespec's. */
	if (t[0] < 0 || t[1] < 0 || (unit == 1 && t[1] >= (s64)NSEC_PER_SEC))
		return -EINVAL;
	r = do_select((long)(int)args[0], sets, (u64)t[0] * NSEC_PER_SEC + (u64)t[1] * unit,
		      &left);
	if (r < 0)
		return r;
	t[0] = (s64)(left / NSEC_PER_SEC);
	t[1] = (s64)(left % NSEC_PER_SEC / unit);
	return copy_to_user(args[4], t, sizeof(t)) ? -EFAULT : r;
}

/* pselect6(nfds, in, out, ex, timespec, sigmask): the mask is not applied (as ppoll's). */
long sys_pselect6(const unsigned long *args)
{
	return select_timed(args, 1);
}

/* select(nfds, in, out, ex, timeval): x86-64's older call, microseconds. */
long sys_select(const unsigned long *args)
{
	return select_timed(args, 1000);
}

/* sync(): nothing here holds written data back from its device. */
long sys_sync(const unsigned long *args)
{
	(void)args;
	return 0;
}
