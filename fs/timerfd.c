// SPDX-License-Identifier: MIT
/*
 * timerfd_create(2), timerfd_settime(2), timerfd_gettime(2), after
 * Linux's fs/timerfd.c: a timer read as a file. read() answers, as a u64,
 * how many times it expired since the last read (waiting for the first,
 * or -EAGAIN with O_NONBLOCK); poll() says POLLIN when that is not 0.
 * fio's helper thread ticks on one.
 *
 * Linux arms an hrtimer that counts expirations as they fire. Here the
 * count is worked out when someone looks: the timer is its clock, the
 * next expiry in that clock's time and the interval, and at time t it has
 * expired 1 + (t - next) / interval times (once, for a one-shot). A read
 * takes them and moves next on past t. The answers are Linux's; no
 * interrupt is spent on a timer nobody reads, and nothing is left armed
 * when the file goes. TFD_TIMER_CANCEL_ON_SET is accepted and has no
 * effect: nothing here sets the realtime clock.
 */
#include <pagoda/file.h>
#include <pagoda/fs.h>
#include <pagoda/pipe.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>
#include <pagoda/uaccess.h>
#include <pagoda/uio.h>
#include "../kernel/syscalls.h"

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_BOOTTIME 7
#define TFD_TIMER_ABSTIME 1
#define TFD_TIMER_CANCEL_ON_SET 2
#define TFD_CREATE_FLAGS (O_CLOEXEC | O_NONBLOCK)

struct timerfd_ctx {
	spinlock_t lock;
	int clockid;
	u64 next;     /* the next expiry, in clockid's time; 0: disarmed */
	u64 interval; /* 0: one-shot */
};

static const struct file_operations timerfd_fops;

/* What a read would take now: expirations since the last (lock held). */
static u64 expirations(const struct timerfd_ctx *ctx, u64 now)
{
	if (!ctx->next || now < ctx->next)
		return 0;
	return ctx->interval ? 1 + (now - ctx->next) / ctx->interval : 1;
}

static u64 clock_now(int clockid)
{
	u64 ns = 0;

	posix_clock_read(clockid, &ns);
	return ns;
}

/* Take the count: a one-shot disarms, a periodic timer moves on past now. */
static u64 take(struct timerfd_ctx *ctx, u64 now)
{
	u64 n = expirations(ctx, now);

	if (n)
		ctx->next = ctx->interval ? ctx->next + n * ctx->interval : 0;
	return n;
}

static long timerfd_read(struct file *f, struct iov_iter *to, u64 *pos)
{
	struct timerfd_ctx *ctx = f->private_data;
	u64 n, now, wait;

	(void)pos;
	if (iov_iter_count(to) < sizeof(u64))
		return -EINVAL;
	for (;;) {
		spin_lock(&ctx->lock);
		now = clock_now(ctx->clockid);
		n = take(ctx, now);
		wait = ctx->next && ctx->next > now ? ctx->next - now : 0;
		spin_unlock(&ctx->lock);
		if (n)
			break;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current_process()))
			return -EINTR;
		/* Disarmed, or re-armed meanwhile: look again now and then. */
		schedule_timeout(wait ? MIN(wait, 50 * NSEC_PER_MSEC) : 50 * NSEC_PER_MSEC);
	}
	return copy_to_iter(&n, sizeof(n), to) == sizeof(n) ? (long)sizeof(n) : -EFAULT;
}

static unsigned int timerfd_poll(struct file *f)
{
	struct timerfd_ctx *ctx = f->private_data;
	u64 n;

	spin_lock(&ctx->lock);
	n = expirations(ctx, clock_now(ctx->clockid));
	spin_unlock(&ctx->lock);
	return n ? POLLIN | POLLRDNORM : 0;
}

/* As Linux's anonymous inode: no type bits, owner read and write. */
static int timerfd_getattr(struct file *f, struct kstat *k)
{
	(void)f;
	*k = (struct kstat){ .ino = 0x7ffe0000, .nlink = 1, .mode = 0600, .blksize = 4096 };
	return 0;
}

static void timerfd_release(struct file *f)
{
	kfree(f->private_data);
}

static const struct file_operations timerfd_fops = {
	.read = timerfd_read,
	.poll = timerfd_poll,
	.getattr = timerfd_getattr,
	.release = timerfd_release,
	.no_seek = true,
};

/* timerfd_create(clockid, flags): a descriptor, disarmed. */
long sys_timerfd_create(const unsigned long *args)
{
	int clockid = (int)args[0];
	unsigned long flags = args[1];
	struct timerfd_ctx *ctx;
	struct file *f;

	if (flags & ~(unsigned long)TFD_CREATE_FLAGS)
		return -EINVAL;
	/* The alarm clocks need an RTC that wakes the machine: not here. */
	if (clockid != CLOCK_REALTIME && clockid != CLOCK_MONOTONIC && clockid != CLOCK_BOOTTIME)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	f = ctx ? file_alloc(FILE_OPS) : NULL;
	if (!f) {
		kfree(ctx);
		return -ENOMEM;
	}
	spin_lock_init(&ctx->lock);
	ctx->clockid = clockid;
	f->f_op = &timerfd_fops;
	f->private_data = ctx;
	f->can_read = true;
	f->f_flags = flags & O_NONBLOCK;
	return fd_install_new(f, flags & O_CLOEXEC);
}

/* The timer's setting as itimerspec: time to the next expiry, and the interval. */
static void current_setting(struct timerfd_ctx *ctx, s64 its[4])
{
	u64 now = clock_now(ctx->clockid), left;

	/* Expirations not read yet stay counted; what is left is to the one after. */
	left = !ctx->next ? 0 : ctx->next > now ? ctx->next - now :
	       ctx->interval ? ctx->interval - (now - ctx->next) % ctx->interval : 0;
	its[0] = (s64)(ctx->interval / NSEC_PER_SEC);
	its[1] = (s64)(ctx->interval % NSEC_PER_SEC);
	its[2] = (s64)(left / NSEC_PER_SEC);
	its[3] = (s64)(left % NSEC_PER_SEC);
}

/* The descriptor's timer, with a reference: -EBADF, or -EINVAL for another file. */
static struct file *timerfd_fget(long fd, int *err)
{
	struct file *f = fget(fd);

	*err = !f ? -EBADF : f->kind != FILE_OPS || f->f_op != &timerfd_fops ? -EINVAL : 0;
	if (*err && f) {
		file_put(f);
		f = NULL;
	}
	return f;
}

static bool timespec_ok(const s64 ts[2])
{
	return ts[0] >= 0 && ts[1] >= 0 && ts[1] < (s64)NSEC_PER_SEC;
}

/* timerfd_settime(fd, flags, new, old): armed (or disarmed by a zero value). */
long sys_timerfd_settime(const unsigned long *args)
{
	unsigned long flags = args[1];
	struct file *f __free(file_put) = NULL;
	struct timerfd_ctx *ctx;
	s64 its[4], old[4];
	u64 value, now;
	int err;

	/* Linux's order: the value is read first, then the flags and it are checked. */
	if (copy_from_user(its, args[2], sizeof(its)))
		return -EFAULT;
	if ((flags & ~(unsigned long)(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)) ||
	    !timespec_ok(its) || !timespec_ok(its + 2))
		return -EINVAL;
	f = timerfd_fget((long)args[0], &err);
	if (!f)
		return err;
	ctx = f->private_data;
	value = (u64)its[2] * NSEC_PER_SEC + (u64)its[3];
	spin_lock(&ctx->lock);
	current_setting(ctx, old);
	now = clock_now(ctx->clockid);
	ctx->interval = (u64)its[0] * NSEC_PER_SEC + (u64)its[1];
	/* An absolute time already past expires at once, as Linux's. */
	ctx->next = !value ? 0 : (flags & TFD_TIMER_ABSTIME) ? MAX(value, 1ULL) : now + value;
	if (!ctx->next)
		ctx->interval = 0;
	spin_unlock(&ctx->lock);
	if (args[3] && copy_to_user(args[3], old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* timerfd_gettime(fd, cur): time to the next expiry and the interval. */
long sys_timerfd_gettime(const unsigned long *args)
{
	struct file *f __free(file_put) = NULL;
	struct timerfd_ctx *ctx;
	s64 its[4];
	int err;

	f = timerfd_fget((long)args[0], &err);
	if (!f)
		return err;
	ctx = f->private_data;
	spin_lock(&ctx->lock);
	current_setting(ctx, its);
	spin_unlock(&ctx->lock);
	return copy_to_user(args[1], its, sizeof(its)) ? -EFAULT : 0;
}
