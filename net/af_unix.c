// SPDX-License-Identifier: MIT
/*
 * Unix domain sockets made by socketpair(2), after Linux's
 * net/unix/af_unix.c: two connected ends, each with a queue of what the
 * other sent it. The part of Linux's that a pair needs and no more: no
 * names (bind, connect, listen), no passing of descriptors (SCM_RIGHTS).
 *
 * A message is one write (sendto): a stream socket (SOCK_STREAM) reads
 * across messages as a pipe does; a SOCK_SEQPACKET or SOCK_DGRAM socket
 * reads one message a call, and a buffer too small for it loses the rest
 * of it, as on Linux. A queue holds at most UNIX_QUEUE_MAX bytes: a
 * writer waits for room (a whole message for the record types; one
 * bigger than the queue can ever hold is -EMSGSIZE). When one end's last
 * descriptor goes, or it shuts down writing, the other reads end-of-file
 * once its queue is empty; writing to an end whose peer is gone fails
 * with -EPIPE and SIGPIPE (SOCK_DGRAM: -ECONNREFUSED, no signal).
 */
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/list.h>
#include <pagoda/mutex.h>
#include <pagoda/pipe.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>
#include <pagoda/wait.h>
#include "../kernel/syscalls.h"

#define AF_UNIX 1
#define AF_INET 2
#define AF_INET6 10
#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3
#define SOCK_SEQPACKET 5
#define SOCK_MAX 11
#define SOCK_TYPE_MASK 0xf
#define MSG_DONTWAIT 0x40
#define MSG_NOSIGNAL 0x4000
#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2

/* Linux's default socket buffer size (net.core.wmem_default), per direction. */
#define UNIX_QUEUE_MAX (208 * 1024)

struct unix_msg {
	struct list_head list;
	size_t len, off; /* data[off, len) not read yet */
	u8 data[];
};

/* The pair: both ends' queues under one lock, woken together. */
struct unix_pair {
	struct mutex lock;
	wait_queue_head_t wait;
	int type;
	struct list_head queue[2]; /* what end i will read */
	size_t queued[2];
	bool no_more[2];           /* end i will get nothing more: the peer closed or shut down */
	bool no_read[2];           /* end i shut down reading */
	int ends;                  /* ends still open */
};

/* One end: which of the pair's two it is. */
struct unix_sock {
	struct unix_pair *pair;
	int me;
};

static bool killed(void)
{
	return signal_pending(current_process());
}

static bool is_stream(const struct unix_pair *u)
{
	return u->type == SOCK_STREAM;
}

/* Under u->lock: move what fits of the queue's head to the reader (one message, or bytes). */
static long unix_recv(struct unix_pair *u, int me, struct iov_iter *to)
{
	struct list_head *q = &u->queue[me];
	size_t done = 0;

	while (!list_empty(q) && (iov_iter_count(to) || !done)) {
		struct unix_msg *m = list_first_entry(q, struct unix_msg, list);
		size_t n = MIN(iov_iter_count(to), m->len - m->off);
		size_t copied = copy_to_iter(m->data + m->off, n, to);

		if (copied < n)
			return done ? (long)done : -EFAULT;
		done += n;
		m->off += n;
		u->queued[me] -= n;
		if (!is_stream(u) || m->off == m->len) {
			/* A record read is gone, whole, whatever did not fit. */
			u->queued[me] -= m->len - m->off;
			list_del(&m->list);
			kfree(m);
		}
		if (!is_stream(u))
			break;
	}
	return (long)done;
}

static long unix_read_common(struct file *f, struct iov_iter *to, bool nonblock)
{
	struct unix_sock *s = f->private_data;
	struct unix_pair *u = s->pair;
	long r;

	if (!iov_iter_count(to) && is_stream(u))
		return 0;
	mutex_lock(&u->lock);
	while (list_empty(&u->queue[s->me])) {
		/* A datagram pair has no end-of-file: its peer may be gone for good. */
		bool eof = (u->no_more[s->me] && u->type != SOCK_DGRAM) || u->no_read[s->me];

		mutex_unlock(&u->lock);
		if (eof)
			return 0;
		if (nonblock)
			return -EAGAIN;
		wait_event(u->wait, !list_empty(&u->queue[s->me]) ||
				    READ_ONCE(u->no_more[s->me]) || READ_ONCE(u->no_read[s->me]) ||
				    killed());
		if (killed())
			return -EINTR;
		mutex_lock(&u->lock);
	}
	r = unix_recv(u, s->me, to);
	mutex_unlock(&u->lock);
	wake_up_all(&u->wait);
	return r;
}

/* The peer is gone (or shut down reading): what a write answers. */
static long unix_broken(struct unix_pair *u, bool nosignal)
{
	if (u->type == SOCK_DGRAM)
		return -ECONNREFUSED;
	if (!nosignal)
		signal_pipe_broken();
	return -EPIPE;
}

static long unix_write_common(struct file *f, struct iov_iter *from, bool nonblock,
			      bool nosignal)
{
	struct unix_sock *s = f->private_data;
	struct unix_pair *u = s->pair;
	int peer = !s->me;
	size_t count = iov_iter_count(from), done = 0;

	if (!is_stream(u) && count > UNIX_QUEUE_MAX)
		return -EMSGSIZE;
	do {
		size_t room, n;
		struct unix_msg *m;

		mutex_lock(&u->lock);
		if (u->no_more[peer] || u->no_read[peer]) {
			mutex_unlock(&u->lock);
			return done ? (long)done : unix_broken(u, nosignal);
		}
		if (!count && is_stream(u)) {
			mutex_unlock(&u->lock);
			return 0; /* no bytes, no message: a stream's reader must not see end-of-file */
		}
		room = UNIX_QUEUE_MAX - u->queued[peer];
		/* A record goes in whole; a stream's bytes as room allows. */
		if (!room || (!is_stream(u) && room < count - done)) {
			mutex_unlock(&u->lock);
			if (nonblock)
				return done ? (long)done : -EAGAIN;
			wait_event(u->wait, UNIX_QUEUE_MAX - READ_ONCE(u->queued[peer]) >=
						    (is_stream(u) ? 1 : count) ||
					    READ_ONCE(u->no_more[peer]) || killed());
			if (killed())
				return done ? (long)done : -EINTR;
			continue;
		}
		n = MIN(count - done, room);
		m = kmalloc(sizeof(*m) + n, GFP_KERNEL);
		if (!m) {
			mutex_unlock(&u->lock);
			return done ? (long)done : -ENOBUFS;
		}
		if (copy_from_iter(m->data, n, from) != n) {
			mutex_unlock(&u->lock);
			kfree(m);
			return done ? (long)done : -EFAULT;
		}
		m->len = n;
		m->off = 0;
		list_add_tail(&m->list, &u->queue[peer]);
		u->queued[peer] += n;
		done += n;
		mutex_unlock(&u->lock);
		wake_up_all(&u->wait);
	} while (done < count);
	return (long)done;
}

static long unix_read(struct file *f, struct iov_iter *to, u64 *pos)
{
	(void)pos;
	return unix_read_common(f, to, f->f_flags & O_NONBLOCK);
}

static long unix_write(struct file *f, struct iov_iter *from, u64 *pos)
{
	(void)pos;
	return unix_write_common(f, from, f->f_flags & O_NONBLOCK, false);
}

static unsigned int unix_poll(struct file *f)
{
	struct unix_sock *s = f->private_data;
	struct unix_pair *u = s->pair;
	int peer = !s->me;
	unsigned int mask = 0;

	mutex_lock(&u->lock);
	if (!list_empty(&u->queue[s->me]) || u->no_more[s->me] || u->no_read[s->me])
		mask |= POLLIN | POLLRDNORM;
	if (u->no_more[s->me] && (u->no_more[peer] || u->no_read[peer]))
		mask |= POLLHUP;
	if (!u->no_more[peer] && UNIX_QUEUE_MAX - u->queued[peer] >= PAGE_SIZE)
		mask |= POLLOUT | POLLWRNORM;
	mutex_unlock(&u->lock);
	return mask;
}

static int unix_getattr(struct file *f, struct kstat *k)
{
	(void)f;
	*k = (struct kstat){ .mode = S_IFSOCK | 0777, .nlink = 1, .blksize = PAGE_SIZE };
	return 0;
}

/* An end's last descriptor went: its peer reads end-of-file; the last end frees the pair. */
static void unix_release(struct file *f)
{
	struct unix_sock *s = f->private_data;
	struct unix_pair *u = s->pair;
	bool last;

	mutex_lock(&u->lock);
	u->no_more[!s->me] = true;
	u->no_read[s->me] = true;
	last = !--u->ends;
	mutex_unlock(&u->lock);
	kfree(s);
	if (!last) {
		wake_up_all(&u->wait);
		return;
	}
	for (int i = 0; i < 2; i++)
		while (!list_empty(&u->queue[i])) {
			struct unix_msg *m = list_first_entry(&u->queue[i], struct unix_msg, list);

			list_del(&m->list);
			kfree(m);
		}
	kfree(u);
}

static const struct file_operations unix_fops = {
	.read = unix_read,
	.write = unix_write,
	.poll = unix_poll,
	.getattr = unix_getattr,
	.release = unix_release,
	.no_seek = true,
};

/* The socket at fd, with a reference, or NULL with *err: -EBADF, or -ENOTSOCK. */
static struct file *sockfd_lookup(long fd, long *err)
{
	struct file *f = fget(fd);

	*err = f ? 0 : -EBADF;
	if (f && (f->kind != FILE_OPS || f->f_op != &unix_fops)) {
		file_put(f);
		f = NULL;
		*err = -ENOTSOCK;
	}
	return f;
}

static struct file *unix_end(struct unix_pair *u, int me, unsigned long flags)
{
	struct unix_sock *s = kzalloc(sizeof(*s), GFP_KERNEL);
	struct file *f = s ? file_alloc(FILE_OPS) : NULL;

	if (!f) {
		kfree(s);
		return NULL;
	}
	s->pair = u;
	s->me = me;
	f->f_op = &unix_fops;
	f->private_data = s;
	f->can_read = f->can_write = true;
	f->f_flags = O_RDWR | (flags & O_NONBLOCK);
	return f;
}

/* socketpair(domain, type, protocol, sv): two connected ends, in sv[0] and sv[1]. */
long sys_socketpair(const unsigned long *args)
{
	int domain = (int)args[0], type = (int)args[1] & SOCK_TYPE_MASK;
	unsigned long flags = args[1] & ~(unsigned long)SOCK_TYPE_MASK;
	struct unix_pair *u;
	struct file *f[2];

	/* Linux's order: the flags, the type's range, the family, the protocol, the type. */
	if ((flags & ~(unsigned long)(O_NONBLOCK | O_CLOEXEC)) || (int)args[1] < 0 ||
	    type >= SOCK_MAX)
		return -EINVAL;
	if (domain == AF_INET || domain == AF_INET6)
		return -EOPNOTSUPP; /* Linux has these families; they make no pairs */
	if (domain != AF_UNIX)
		return -EAFNOSUPPORT;
	if (args[2] && args[2] != AF_UNIX)
		return -EPROTONOSUPPORT;
	if (type == SOCK_RAW)
		type = SOCK_DGRAM; /* as Linux's unix_create() */
	if (type != SOCK_STREAM && type != SOCK_DGRAM && type != SOCK_SEQPACKET)
		return -ESOCKTNOSUPPORT;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	mutex_init(&u->lock);
	init_waitqueue_head(&u->wait);
	INIT_LIST_HEAD(&u->queue[0]);
	INIT_LIST_HEAD(&u->queue[1]);
	u->type = type;
	u->ends = 2;
	f[0] = unix_end(u, 0, flags);
	f[1] = f[0] ? unix_end(u, 1, flags) : NULL;
	if (!f[1]) {
		if (f[0]) {
			kfree(f[0]->private_data);
			f[0]->f_op = NULL; /* nothing for release to undo: the pair goes here */
			file_put(f[0]);
		}
		kfree(u);
		return -ENOMEM;
	}
	return fd_install_pair(current_process(), f, args[3], flags & O_CLOEXEC);
}

/*
 * sendto(fd, buf, len, flags, addr, addrlen) and recvfrom(fd, buf, len,
 * flags, addr, addrlen) on a connected end: send() and recv() of the
 * libcs. An address is -EISCONN to send to (Linux's for a connected
 * stream) and none comes back; flags beyond MSG_DONTWAIT and
 * MSG_NOSIGNAL are -EOPNOTSUPP.
 */
static long unix_sendrecv(const unsigned long *args, bool send)
{
	unsigned long flags = args[3];
	struct iov_iter it;
	struct iovec iov;
	long err;
	struct file *f = sockfd_lookup((long)args[0], &err);

	if (!f)
		return err;
	if (flags & ~(unsigned long)(MSG_DONTWAIT | MSG_NOSIGNAL))
		err = -EOPNOTSUPP;
	else if (send && args[4])
		err = -EISCONN;
	else
		err = import_single_range(args[1], args[2], &iov, &it);
	if (!err && send)
		err = unix_write_common(f, &it, (flags & MSG_DONTWAIT) || (f->f_flags & O_NONBLOCK),
					flags & MSG_NOSIGNAL);
	else if (!err)
		err = unix_read_common(f, &it, (flags & MSG_DONTWAIT) || (f->f_flags & O_NONBLOCK));
	if (err >= 0 && !send && args[4] && args[5]) {
		u32 len = 0; /* no address: the peer has no name */

		if (copy_to_user(args[5], &len, sizeof(len)))
			err = -EFAULT;
	}
	file_put(f);
	return err;
}

long sys_sendto(const unsigned long *args)
{
	return unix_sendrecv(args, true);
}

long sys_recvfrom(const unsigned long *args)
{
	return unix_sendrecv(args, false);
}

/* shutdown(fd, how): stop reading (SHUT_RD), writing (SHUT_WR, the peer reads end-of-file), or both. */
long sys_shutdown(const unsigned long *args)
{
	long err;
	struct file *f = sockfd_lookup((long)args[0], &err);
	struct unix_sock *s;
	int how = (int)args[1];

	if (!f)
		return err;
	if (how < SHUT_RD || how > SHUT_RDWR) {
		file_put(f);
		return -EINVAL;
	}
	s = f->private_data;
	mutex_lock(&s->pair->lock);
	if (how != SHUT_WR)
		s->pair->no_read[s->me] = true;
	if (how != SHUT_RD)
		s->pair->no_more[!s->me] = true;
	mutex_unlock(&s->pair->lock);
	wake_up_all(&s->pair->wait);
	file_put(f);
	return 0;
}
