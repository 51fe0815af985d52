// SPDX-License-Identifier: MIT
/*
 * Linux's native asynchronous I/O (fs/aio.c there): io_setup, io_destroy,
 * io_getevents, io_cancel, and the contexts' lives. What io_submit starts
 * is fs/aio_rw.c.
 *
 * A context belongs to the process that made it; its id is the address
 * of a ring io_setup maps into the process, as Linux's is, because libaio
 * reads the ring's head before it makes a system call. The events stay in
 * the kernel, though: a direct read's data reaches the program's buffers
 * only when its event is handed over (fs/aio.h), so the ring's magic is
 * left 0, which tells libaio (and fio's userspace_reap) to ask
 * io_getevents rather than read the ring themselves.
 *
 * Teardown (io_destroy, the process's exit or exec) waits for every
 * request a device still holds and gives back every page; the last user
 * of a context frees it, so a thread still in io_getevents or io_submit
 * when another destroys the context finishes first.
 */
#include <pagoda/fs.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>
#include <pagoda/uaccess.h>
#include "aio.h"
#include "../kernel/syscalls.h"

/* Linux's /proc/sys/fs/aio-max-nr default: events all contexts may ask for. */
#define AIO_MAX_NR 65536U

/* Every context, and the events they asked for (Linux's aio_nr). */
static DEFINE_SPINLOCK(aio_lock);
static LIST_HEAD(ioctx_list);
static unsigned int aio_nr;
static u32 aio_next_id;

struct kioctx *lookup_ioctx(u64 ctx_id)
{
	struct process *p = current_process();
	struct kioctx *ctx, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&aio_lock, flags);
	list_for_each_entry(ctx, &ioctx_list, list) {
		if (ctx->owner == p && ctx->user_id == ctx_id && !ctx->dead) {
			ctx->users++;
			found = ctx;
			break;
		}
	}
	spin_unlock_irqrestore(&aio_lock, flags);
	return found;
}

/* Everything still held: wait for the device's requests, then free the rest. */
static void free_ioctx(struct kioctx *ctx)
{
	struct aio_kiocb *req, *next;
	unsigned long flags;

	wait_event(ctx->wait, READ_ONCE(ctx->inflight) == 0);
	list_for_each_entry_safe(req, next, &ctx->done, ki_list) {
		list_del(&req->ki_list);
		req->copy_out = false; /* nobody is left to read it */
		aio_free_req(req);
	}
	spin_lock_irqsave(&aio_lock, flags);
	aio_nr -= ctx->max_reqs;
	spin_unlock_irqrestore(&aio_lock, flags);
	kfree(ctx);
}

void put_ioctx(struct kioctx *ctx)
{
	unsigned long flags;
	bool last;

	spin_lock_irqsave(&aio_lock, flags);
	last = --ctx->users == 0;
	spin_unlock_irqrestore(&aio_lock, flags);
	if (last)
		free_ioctx(ctx);
}

/* Off the list and dead: no lookup finds it again. False if someone was first. */
static bool kill_ioctx(struct kioctx *ctx)
{
	unsigned long flags;
	bool first;

	spin_lock_irqsave(&aio_lock, flags);
	first = !ctx->dead;
	if (first) {
		WRITE_ONCE(ctx->dead, true);
		list_del(&ctx->list);
	}
	spin_unlock_irqrestore(&aio_lock, flags);
	if (first)
		wake_up_all(&ctx->wait); /* io_getevents answers now */
	return first;
}

/* A process's exit or exec (its address space goes): every context it made. */
void exit_aio(struct process *p)
{
	struct kioctx *ctx;
	unsigned long flags;

	for (;;) {
		struct kioctx *found = NULL;

		spin_lock_irqsave(&aio_lock, flags);
		list_for_each_entry(ctx, &ioctx_list, list) {
			if (ctx->owner == p) {
				found = ctx;
				break;
			}
		}
		spin_unlock_irqrestore(&aio_lock, flags);
		if (!found)
			return;
		if (kill_ioctx(found))
			put_ioctx(found); /* the list's reference */
	}
}

/*
 * The pages direct requests hold in all contexts: Linux pins the
 * program's own pages, so what a program can tie up is what it has; here
 * they are the kernel's, so a program that submits much and reaps
 * nothing is held to a share of memory.
 */
static unsigned long aio_bounce_pages;

bool aio_bounce_reserve(unsigned int nr)
{
	unsigned long limit = totalram_pages() / 8;
	unsigned long old = __atomic_load_n(&aio_bounce_pages, __ATOMIC_RELAXED);

	do {
		if (old + nr > limit)
			return false;
	} while (!__atomic_compare_exchange_n(&aio_bounce_pages, &old, old + nr, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return true;
}

struct aio_kiocb *aio_get_req(struct kioctx *ctx)
{
	struct aio_kiocb *req;
	unsigned long flags;
	bool room;

	spin_lock_irqsave(&ctx->wait.lock, flags);
	room = ctx->reqs_active < ctx->nr_events;
	if (room)
		ctx->reqs_active++;
	spin_unlock_irqrestore(&ctx->wait.lock, flags);
	if (!room)
		return NULL;
	req = kzalloc(sizeof(*req), GFP_KERNEL);
	if (!req) {
		spin_lock_irqsave(&ctx->wait.lock, flags);
		ctx->reqs_active--;
		spin_unlock_irqrestore(&ctx->wait.lock, flags);
		return NULL;
	}
	req->ctx = ctx;
	INIT_LIST_HEAD(&req->ki_list);
	return req;
}

void aio_free_req(struct aio_kiocb *req)
{
	struct kioctx *ctx = req->ctx;
	unsigned long flags;

	for (unsigned int i = 0; i < req->nr_pages; i++)
		if (req->pages[i])
			__free_page(req->pages[i]);
	kfree(req->pages);
	__atomic_fetch_sub(&aio_bounce_pages, req->nr_pages, __ATOMIC_RELAXED);
	kfree(req->iov);
	kfree(req);
	spin_lock_irqsave(&ctx->wait.lock, flags);
	ctx->reqs_active--;
	spin_unlock_irqrestore(&ctx->wait.lock, flags);
}

void aio_inflight(struct aio_kiocb *req)
{
	unsigned long flags;

	spin_lock_irqsave(&req->ctx->wait.lock, flags);
	req->ctx->inflight++;
	req->in_device = true;
	spin_unlock_irqrestore(&req->ctx->wait.lock, flags);
}

/*
 * The event is ready: queued for io_getevents and its waiters woken in
 * one hold of the lock, so teardown, which waits for inflight to reach 0,
 * cannot free the context between the two.
 */
void aio_complete(struct aio_kiocb *req, long res)
{
	struct kioctx *ctx = req->ctx;
	unsigned long flags;

	req->ev.res = res;
	spin_lock_irqsave(&ctx->wait.lock, flags);
	list_add_tail(&req->ki_list, &ctx->done);
	if (req->in_device)
		ctx->inflight--;
	__wake_up_locked(&ctx->wait, 0);
	spin_unlock_irqrestore(&ctx->wait.lock, flags);
}

/* A direct read's data, from the kernel's pages to the program's buffers. */
static void aio_copy_out(struct aio_kiocb *req)
{
	struct iov_iter it = { .iov = req->iov, .nr_segs = req->nr_segs, .count = 0 };
	size_t left, done = 0;

	if (!req->copy_out || req->ev.res <= 0)
		return;
	req->copy_out = false;
	it.count = (size_t)req->ev.res;
	for (unsigned int i = 0; (left = (size_t)req->ev.res - done); i++) {
		size_t n = MIN(left, (size_t)PAGE_SIZE), c;

		c = copy_to_iter(page_address(req->pages[i]), n, &it);
		done += c;
		if (c < n)
			break;
	}
	/* The program unmapped its buffer meanwhile: what landed, or -EFAULT. */
	if (done < (size_t)req->ev.res)
		req->ev.res = done ? (s64)done : -EFAULT;
}

/*
 * Up to nr events out to uevents: how many, or -EFAULT when not even the
 * first could be written (it stays queued, as Linux leaves it in the ring).
 */
static long aio_read_events(struct kioctx *ctx, long nr, u64 uevents)
{
	unsigned long flags;
	long got = 0;

	while (got < nr) {
		struct aio_kiocb *req;

		spin_lock_irqsave(&ctx->wait.lock, flags);
		req = list_first_entry_or_null(&ctx->done, struct aio_kiocb, ki_list);
		if (req)
			list_del(&req->ki_list);
		spin_unlock_irqrestore(&ctx->wait.lock, flags);
		if (!req)
			break;
		aio_copy_out(req);
		if (copy_to_user(uevents + (u64)got * sizeof(struct io_event), &req->ev,
				 sizeof(req->ev))) {
			spin_lock_irqsave(&ctx->wait.lock, flags);
			list_add(&req->ki_list, &ctx->done);
			spin_unlock_irqrestore(&ctx->wait.lock, flags);
			return got ? got : -EFAULT;
		}
		aio_free_req(req);
		got++;
	}
	return got;
}

/*
 * Linux's read_events(): at least min_nr events, or whatever came by the
 * deadline (U64_MAX: none), or by a signal; a destroyed context ends the
 * wait with -EINVAL when nothing came. The sleep is a tick at most so a
 * signal is seen (as fs/select.c's); a completion wakes it at once.
 */
static long read_events(struct kioctx *ctx, long min_nr, long nr, u64 uevents, u64 deadline)
{
	long got = 0, ret;

	for (;;) {
		struct wait_queue_entry w = { .task = current };
		u64 now;

		ret = aio_read_events(ctx, nr - got, uevents + (u64)got * sizeof(struct io_event));
		if (ret < 0)
			break;
		got += ret;
		ret = READ_ONCE(ctx->dead) ? -EINVAL : 0;
		if (got >= min_nr || ret)
			break;
		now = ktime_get_ns();
		if (now >= deadline || signal_pending(current_process()))
			break;
		prepare_to_wait(&ctx->wait, &w, TASK_UNINTERRUPTIBLE);
		if (list_empty(&ctx->done) && !READ_ONCE(ctx->dead))
			schedule_timeout(MIN(deadline - now, 10 * NSEC_PER_MSEC));
		finish_wait(&ctx->wait, &w);
	}
	return got ? got : ret;
}

/*
 * io_setup(nr_events, ctxp): *ctxp must be 0 on entry. Linux's limits: the
 * ring is sized for twice the events (at least 4 a CPU) and refused
 * (-EINVAL) past 256 MiB of events, -EAGAIN past aio-max-nr, counting
 * every context's request.
 */
long sys_io_setup(const unsigned long *args)
{
	unsigned int asked = (unsigned int)args[0], ring_nr = asked;
	struct process *p = current_process();
	struct aio_ring head = { 0 };
	struct kioctx *ctx;
	unsigned long flags;
	u64 old, addr, len;
	int err;

	if (copy_from_user(&old, args[1], sizeof(old)))
		return -EFAULT;
	if (old || !asked)
		return -EINVAL;
	ring_nr = MAX(ring_nr, num_possible_cpus() * 4) * 2;
	if (ring_nr > 0x10000000U / sizeof(struct io_event))
		return -EINVAL;
	if (!ring_nr || asked > AIO_MAX_NR)
		return -EAGAIN;
	len = ALIGN_UP(sizeof(struct aio_ring) + (u64)ring_nr * sizeof(struct io_event), PAGE_SIZE);
	ring_nr = (unsigned int)((len - sizeof(struct aio_ring)) / sizeof(struct io_event));
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->owner = p;
	ctx->max_reqs = asked;
	ctx->nr_events = ring_nr - 1; /* the ring keeps one slot empty, as Linux's */
	ctx->users = 1;               /* the list's */
	INIT_LIST_HEAD(&ctx->done);
	init_waitqueue_head(&ctx->wait);

	down_write(&p->mmap_lock);
	addr = process_find_free(p, len);
	err = addr ? process_map_anon(p, addr, len, PROT_WRITE) : -ENOMEM;
	up_write(&p->mmap_lock);
	if (err) {
		kfree(ctx);
		return err;
	}
	ctx->user_id = addr;
	spin_lock_irqsave(&aio_lock, flags);
	if (aio_nr + asked > AIO_MAX_NR) {
		spin_unlock_irqrestore(&aio_lock, flags);
		err = -EAGAIN;
	} else {
		aio_nr += asked;
		head.id = aio_next_id++;
		list_add_tail(&ctx->list, &ioctx_list);
		spin_unlock_irqrestore(&aio_lock, flags);
	}
	if (!err) {
		head.nr = ring_nr;
		head.compat_features = 1;
		head.header_length = sizeof(head);
		/* magic stays 0: the events are not in the ring (see the top). */
		if (copy_to_user(addr, &head, sizeof(head)) ||
		    copy_to_user(args[1], &addr, sizeof(addr)))
			err = -EFAULT;
		if (err && kill_ioctx(ctx))
			put_ioctx(ctx);
		if (!err)
			return 0;
	} else {
		kfree(ctx);
	}
	down_write(&p->mmap_lock);
	process_unmap(p, addr, addr + len);
	up_write(&p->mmap_lock);
	return err;
}

/* The ring's length, as io_setup mapped it. */
static u64 ring_len(const struct kioctx *ctx)
{
	return ALIGN_UP(sizeof(struct aio_ring) + (u64)(ctx->nr_events + 1) * sizeof(struct io_event),
			PAGE_SIZE);
}

/*
 * io_destroy(ctx): no new requests, the ring unmapped, and, as Linux's,
 * the answer only once every request a device holds has completed.
 */
long sys_io_destroy(const unsigned long *args)
{
	struct process *p = current_process();
	struct kioctx *ctx = lookup_ioctx(args[0]);

	if (!ctx)
		return -EINVAL;
	if (!kill_ioctx(ctx)) {
		put_ioctx(ctx);
		return -EINVAL;
	}
	down_write(&p->mmap_lock);
	process_unmap(p, ctx->user_id, ctx->user_id + ring_len(ctx));
	up_write(&p->mmap_lock);
	wait_event(ctx->wait, READ_ONCE(ctx->inflight) == 0);
	put_ioctx(ctx); /* the lookup's */
	put_ioctx(ctx); /* the list's */
	return 0;
}

/*
 * io_getevents(ctx, min_nr, nr, events, timeout): timeout NULL waits for
 * ever; a zero or negative one only looks. Linux reads the timespec
 * before the context and checks nothing in it.
 */
long sys_io_getevents(const unsigned long *args)
{
	long min_nr = (long)args[1], nr = (long)args[2];
	u64 deadline = U64_MAX;
	struct kioctx *ctx;
	long ret = -EINVAL;

	if (args[4]) {
		s64 ts[2];

		if (copy_from_user(ts, args[4], sizeof(ts)))
			return -EFAULT;
		if (ts[0] < 0 || (ts[0] == 0 && ts[1] <= 0))
			deadline = 0;
		else if (ts[0] < 1000000000LL) /* beyond 31 years: for ever */
			deadline = ktime_get_ns() + (u64)MAX(ts[0] * (s64)NSEC_PER_SEC + ts[1], 0LL);
	}
	ctx = lookup_ioctx(args[0]);
	if (!ctx)
		return -EINVAL;
	if (min_nr >= 0 && min_nr <= nr)
		ret = read_events(ctx, min_nr, nr, args[3], deadline);
	put_ioctx(ctx);
	if (!ret && signal_pending(current_process()))
		ret = -EINTR;
	return ret;
}

/*
 * io_cancel(ctx, iocb, result): Linux cancels only requests that said how
 * (USB gadgets, IOCB_CMD_POLL); a read or write is never among them, so,
 * once the key and the context check out, the answer is -EINVAL as there.
 */
long sys_io_cancel(const unsigned long *args)
{
	struct kioctx *ctx;
	u32 key;

	if (copy_from_user(&key, args[1] + __builtin_offsetof(struct iocb, aio_key), sizeof(key)))
		return -EFAULT;
	if (key != KIOCB_KEY)
		return -EINVAL;
	ctx = lookup_ioctx(args[0]);
	if (!ctx)
		return -EINVAL;
	put_ioctx(ctx);
	return -EINVAL;
}
