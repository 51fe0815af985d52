// SPDX-License-Identifier: MIT
/*
 * Pipes, after Linux's fs/pipe.c: a ring buffer of 16 pages (64 KiB, Linux's
 * default capacity; each page made on first use) between a read end and a
 * write end, each an open file description that dup and fork share. A
 * reader waits while the pipe is empty and some write end is still open;
 * with none left it reads end-of-file. A writer waits while it is full
 * and some read end is open; with none left the write fails with -EPIPE
 * and, as on Linux, SIGPIPE ends the writer unless it ignores the signal.
 * Writes of up to PIPE_BUF bytes are atomic: they go in whole or wait.
 *
 * Readers and writers wait on queues of their own, and a side wakes the
 * other only when it may be waiting, as Linux's pipe_read() and
 * pipe_write() decide: a write wakes the readers when it found the pipe
 * empty, a read wakes the writers when it found less than PIPE_BUF bytes
 * of room. A waiter saw exactly that before it slept, and the next call
 * of the other side sees it too, so no wake-up is lost; every other call
 * takes no wait-queue lock and sends no reschedule interrupt. A stream of
 * small writes (Debian's stress-ng pipe stressor: 512 bytes a time,
 * writer and reader on two CPUs) otherwise woke its partner on every
 * call, and the two fought over one queue's lock.
 *
 * A pipe made by pipe2() with O_DIRECT carries packets (Linux's packet
 * mode, since 3.4): each write of up to a page is one packet, a longer
 * write is cut into pages, and a read returns one packet, the bytes past
 * the reader's buffer dropped. Linux keeps a packet in a pipe buffer of
 * its own, and a pipe has 16 of them, so at most 16 packets wait, however
 * small: a writer waits for a free one.
 *
 * A process signalled while it waits here wakes (the sender wakes it) and
 * leaves with -EINTR; the system call's way out then ends it or runs its
 * handler.
 */
#include <pagoda/file.h>
#include <pagoda/mm.h>
#include <pagoda/mutex.h>
#include <pagoda/pipe.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>
#include <pagoda/wait.h>
#include "syscalls.h"

/* Linux's default capacity: 16 pages, each made when a write first needs it. */
#define PIPE_PAGES 16
#define PIPE_SIZE (PIPE_PAGES * PAGE_SIZE)
#define PIPE_BUF 4096

struct pipe {
	struct mutex lock;
	wait_queue_head_t rd_wait;  /* readers waiting for bytes */
	wait_queue_head_t wr_wait;  /* writers waiting for room */
	void *pages[PIPE_PAGES];    /* the ring, a page at a time (NULL: not made yet) */
	size_t head, len;           /* data is ring[head .. head + len), wrapping */
	unsigned int readers, writers;
	bool packets;               /* packet mode (O_DIRECT) */
	unsigned int pkt_head, nr_pkts;
	u16 pkt_len[PIPE_PAGES];    /* the waiting packets' lengths, from pkt_head */
};

/* Room for a write of need bytes (up to PIPE_BUF) and, in packet mode, a free slot. */
static bool pipe_writable(const struct pipe *pipe, size_t need)
{
	return PIPE_SIZE - READ_ONCE(pipe->len) >= need &&
	       (!pipe->packets || READ_ONCE(pipe->nr_pkts) < PIPE_PAGES);
}

/*
 * Where ring position pos lies: the page's bytes from there, at most to
 * its end (*room); NULL when the page cannot be made.
 */
static u8 *ring_at(struct pipe *pipe, size_t pos, size_t *room)
{
	unsigned int i = (unsigned int)((pos % PIPE_SIZE) / PAGE_SIZE);

	if (!pipe->pages[i])
		pipe->pages[i] = (void *)__get_free_pages(GFP_KERNEL, 0);
	*room = PAGE_SIZE - pos % PAGE_SIZE;
	return pipe->pages[i] ? (u8 *)pipe->pages[i] + pos % PAGE_SIZE : NULL;
}

/*
 * Copy n bytes into the ring after its data (from the user), or out of it
 * from its head: the bytes moved, fewer when the user's buffer runs into
 * a hole (or, writing, a page cannot be made: *err says -ENOMEM).
 */
static size_t ring_copy_in(struct pipe *pipe, size_t n, struct iov_iter *from, int *err)
{
	size_t done = 0;

	while (done < n) {
		size_t room, part, copied;
		u8 *at = ring_at(pipe, pipe->head + pipe->len + done, &room);

		if (!at) {
			*err = -ENOMEM;
			break;
		}
		part = MIN(room, n - done);
		copied = copy_from_iter(at, part, from);
		done += copied;
		if (copied < part) {
			*err = -EFAULT;
			break;
		}
	}
	return done;
}

static size_t ring_copy_out(struct pipe *pipe, size_t n, struct iov_iter *to)
{
	size_t done = 0;

	while (done < n) {
		size_t room, part, copied;
		const u8 *at = ring_at(pipe, pipe->head + done, &room); /* made: it holds bytes */

		part = MIN(room, n - done);
		copied = copy_to_iter(at, part, to);
		done += copied;
		if (copied < part)
			break;
	}
	return done;
}

static void pipe_free(struct pipe *pipe)
{
	for (unsigned int i = 0; i < PIPE_PAGES; i++)
		if (pipe->pages[i])
			free_page((unsigned long)pipe->pages[i]);
	kfree(pipe);
}

int pipe_create(struct file **rp, struct file **wp, bool packets)
{
	struct pipe *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);
	struct file *r = file_alloc(FILE_PIPE), *w = file_alloc(FILE_PIPE);

	if (!pipe || !r || !w) {
		kfree(pipe);
		kfree(r);
		kfree(w);
		return -ENOMEM;
	}
	mutex_init(&pipe->lock);
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	pipe->readers = pipe->writers = 1;
	pipe->packets = packets;
	r->pipe = w->pipe = pipe;
	w->write_end = true;
	*rp = r;
	*wp = w;
	return 0;
}

/* The last descriptor of one end went: the other side must not wait for it. */
void pipe_release(struct file *f)
{
	struct pipe *pipe = f->pipe;
	bool last;

	mutex_lock(&pipe->lock);
	if (f->write_end)
		pipe->writers--;
	else
		pipe->readers--;
	last = !pipe->readers && !pipe->writers;
	mutex_unlock(&pipe->lock);
	if (last) {
		pipe_free(pipe);
		return;
	}
	wake_up_all(&pipe->rd_wait);
	wake_up_all(&pipe->wr_wait);
}

static bool killed(void)
{
	return signal_pending(current_process());
}

/*
 * Packet mode: the first packet, at most count bytes of it to the user and
 * the rest dropped; what went to the user, or -EFAULT with the packet left
 * in place. Under pipe->lock, with a packet waiting.
 */
static size_t packet_read(struct pipe *pipe, size_t count, struct iov_iter *to)
{
	size_t len = pipe->pkt_len[pipe->pkt_head], n = MIN(count, len);

	if (ring_copy_out(pipe, n, to) < n)
		return (size_t)-EFAULT;
	pipe->head = (pipe->head + len) % PIPE_SIZE;
	pipe->len -= len;
	pipe->pkt_head = (pipe->pkt_head + 1) % PIPE_PAGES;
	pipe->nr_pkts--;
	return n;
}

/* Whether f's pipe carries packets: F_GETFL shows it, and a checkpoint refuses it. */
bool pipe_is_packets(const struct file *f)
{
	return f->pipe->packets;
}

/*
 * Reads and writes move page-sized pieces, as Linux's pipe buffers are
 * pages, and a piece that does not copy whole (the user's buffer runs
 * into a hole) is not counted: the bytes stay in the pipe (a read) or
 * are not added (a write), and the call answers what went before it, or
 * -EFAULT when that is nothing.
 */
long pipe_read(struct file *f, struct iov_iter *to)
{
	struct pipe *pipe = f->pipe;
	size_t done = 0, count = iov_iter_count(to);
	bool was_full;

	if (!count)
		return 0;
	mutex_lock(&pipe->lock);
	while (!pipe->len) {
		bool writers = pipe->writers;

		mutex_unlock(&pipe->lock);
		if (!writers)
			return 0;
		if (f->nonblock)
			return -EAGAIN;
		wait_event(pipe->rd_wait, READ_ONCE(pipe->len) || !READ_ONCE(pipe->writers) ||
				       killed());
		if (killed())
			return -EINTR;
		mutex_lock(&pipe->lock);
	}
	/* A writer waits for room for up to PIPE_BUF bytes: it may be waiting now. */
	was_full = !pipe_writable(pipe, PIPE_BUF);
	if (pipe->packets) {
		done = packet_read(pipe, count, to);
		goto out;
	}
	while (done < count && pipe->len) {
		size_t n = MIN(count - done, MIN(pipe->len, (size_t)PAGE_SIZE));

		if (ring_copy_out(pipe, n, to) < n) {
			if (!done)
				done = (size_t)-EFAULT;
			break;
		}
		pipe->head = (pipe->head + n) % PIPE_SIZE;
		pipe->len -= n;
		done += n;
	}
out:
	mutex_unlock(&pipe->lock);
	if (was_full)
		wake_up_all(&pipe->wr_wait);
	return (long)done;
}

long pipe_write(struct file *f, struct iov_iter *from)
{
	struct pipe *pipe = f->pipe;
	size_t done = 0, count = iov_iter_count(from);

	while (done < count) {
		size_t room, n;
		bool was_empty;
		int err = 0;

		mutex_lock(&pipe->lock);
		if (!pipe->readers) {
			mutex_unlock(&pipe->lock);
			signal_pipe_broken();
			return done ? (long)done : -EPIPE;
		}
		room = PIPE_SIZE - pipe->len;
		/* Up to PIPE_BUF bytes go in whole: wait for room for all of them. */
		if (!room || (count - done <= PIPE_BUF && room < count - done) ||
		    !pipe_writable(pipe, 0)) {
			mutex_unlock(&pipe->lock);
			if (f->nonblock)
				return done ? (long)done : -EAGAIN;
			wait_event(pipe->wr_wait,
				   pipe_writable(pipe, MIN(count - done, (size_t)PIPE_BUF)) ||
				   !READ_ONCE(pipe->readers) || killed());
			if (killed())
				return done ? (long)done : -EINTR;
			continue;
		}
		n = MIN(count - done, MIN(room, (size_t)PAGE_SIZE));
		/* A reader waits only for an empty pipe to fill. */
		was_empty = !pipe->len;
		if (ring_copy_in(pipe, n, from, &err) < n) {
			mutex_unlock(&pipe->lock);
			return done ? (long)done : err;
		}
		pipe->len += n;
		done += n;
		if (pipe->packets)
			pipe->pkt_len[(pipe->pkt_head + pipe->nr_pkts++) % PIPE_PAGES] = (u16)n;
		mutex_unlock(&pipe->lock);
		if (was_empty)
			wake_up_all(&pipe->rd_wait);
	}
	return (long)done;
}

/*
 * For checkpoint/restore (kernel/cr/): copy out up to max of the bytes
 * waiting in f's pipe without taking them, and put bytes into a fresh
 * pipe, as the image had them.
 */
size_t pipe_peek(struct file *f, void *buf, size_t max)
{
	struct pipe *pipe = f->pipe;
	size_t n, done = 0;

	mutex_lock(&pipe->lock);
	n = MIN(max, pipe->len);
	while (done < n) {
		size_t room;
		const u8 *at = ring_at(pipe, pipe->head + done, &room);

		room = MIN(room, n - done);
		memcpy((u8 *)buf + done, at, room);
		done += room;
	}
	mutex_unlock(&pipe->lock);
	return n;
}

int pipe_fill(struct file *f, const void *buf, size_t n)
{
	struct pipe *pipe = f->pipe;
	size_t done = 0;
	int err = 0;

	if (n > PIPE_SIZE)
		return -EINVAL;
	mutex_lock(&pipe->lock);
	pipe->head = pipe->len = 0;
	while (done < n) {
		size_t room;
		u8 *at = ring_at(pipe, done, &room);

		if (!at) {
			err = -ENOMEM;
			break;
		}
		room = MIN(room, n - done);
		memcpy(at, (const u8 *)buf + done, room);
		done += room;
	}
	pipe->len = done;
	mutex_unlock(&pipe->lock);
	return err;
}

/*
 * What poll() sees on f (fs/select.c): the read end is readable with
 * bytes in it or no writer left (then also POLLHUP); the write end is
 * writable with room for PIPE_BUF bytes, and POLLERR with no reader.
 */
unsigned int pipe_poll(struct file *f)
{
	struct pipe *pipe = f->pipe;
	unsigned int mask = 0;

	mutex_lock(&pipe->lock);
	if (!f->write_end) {
		if (pipe->len)
			mask |= POLLIN | POLLRDNORM;
		if (!pipe->writers)
			mask |= POLLHUP;
	} else {
		if (pipe_writable(pipe, PIPE_BUF))
			mask |= POLLOUT | POLLWRNORM;
		if (!pipe->readers)
			mask |= POLLERR;
	}
	mutex_unlock(&pipe->lock);
	return mask;
}
