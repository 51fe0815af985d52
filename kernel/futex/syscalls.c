// SPDX-License-Identifier: MIT
/*
 * The futex system calls, after Linux's kernel/futex/syscalls.c:
 * futex(uaddr, op, val, timeout or val2, uaddr2, val3), and the robust
 * list's set_robust_list and get_robust_list.
 *
 * futex_waitv(waiters, nr, flags, timeout, clockid), Linux 5.16's wait
 * on several words at once, is here too. The priority-inheritance
 * operations (LOCK_PI, UNLOCK_PI, TRYLOCK_PI, WAIT_REQUEUE_PI, LOCK_PI2)
 * are not: -ENOSYS, as a kernel built without them answers. CMP_REQUEUE_PI answers what Linux
 * does when no waiter is a WAIT_REQUEUE_PI one (requeue.c).
 */
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/sched.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/uaccess.h>
#include "futex.h"
#include "../syscalls.h"

/*
 * The deadline on the monotonic clock (ns) for a wait's timespec: FUTEX_WAIT's
 * is relative (to CLOCK_MONOTONIC, even with FUTEX_CLOCK_REALTIME, as
 * Linux); WAIT_BITSET's absolute, on CLOCK_REALTIME with that flag. 0 for
 * none, or -errno.
 */
static long futex_deadline(u64 utime, int cmd, bool realtime, u64 *deadline)
{
	u64 ns, now = ktime_get_ns();
	s64 off;
	int err;

	*deadline = 0;
	if (!utime)
		return 0;
	err = get_timespec_ns(utime, &ns);
	if (err)
		return err;
	if (cmd == FUTEX_WAIT) {
		ns = ns > ~0ULL / 2 - now ? ~0ULL / 2 : now + ns;
	} else if (realtime) {
		off = realtime_offset_ns();
		ns = off > 0 && ns < (u64)off ? 1 : ns - (u64)off; /* before boot: already past */
	}
	*deadline = ns ? ns : 1; /* the epoch itself: past, but still a timeout */
	return 0;
}

long sys_futex(const unsigned long *args)
{
	u64 uaddr = args[0], utime = args[3], uaddr2 = args[4];
	int op = (int)args[1], cmd = op & FUTEX_CMD_MASK;
	u32 val = (u32)args[2], val3 = (u32)args[5];
	bool shared = !(op & FUTEX_PRIVATE_FLAG), realtime = op & FUTEX_CLOCK_REALTIME;
	u64 deadline;
	long err;

	if (realtime && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET &&
	    cmd != FUTEX_WAIT_REQUEUE_PI && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		err = futex_deadline(utime, cmd, realtime, &deadline);
		if (err)
			return err;
		return futex_wait(uaddr, shared, val, deadline, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET:
		return futex_wake_key(uaddr, shared, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, (int)utime, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, shared, uaddr2, (int)val, (int)utime, &val3);
	case FUTEX_CMP_REQUEUE_PI:
		return futex_cmp_requeue_pi(uaddr, shared, uaddr2, (int)val, (int)utime, val3);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, shared, uaddr2, (int)val, (int)utime, val3);
	default:
		return -ENOSYS;
	}
}

/* sizeof(struct robust_list_head): the only length Linux accepts. */
#define ROBUST_HEAD_SIZE 24

/* set_robust_list(head, len): the caller's list, walked when it exits. */
long sys_set_robust_list(const unsigned long *args)
{
	struct thread *t = current_thread();

	if (args[1] != ROBUST_HEAD_SIZE)
		return -EINVAL;
	if (t)
		t->robust_list = args[0];
	return 0;
}

/* The live thread with id tid, in any process (everyone is root here), or NULL. */
static struct thread *find_thread(int tid)
{
	struct process *p;
	struct thread *t, *found = NULL;

	list_for_each_entry(p, &process_list, all) {
		unsigned long flags;

		spin_lock_irqsave(&p->thread_lock, flags);
		list_for_each_entry(t, &p->threads, node)
			if (t->tid == tid && !t->dead)
				found = t;
		spin_unlock_irqrestore(&p->thread_lock, flags);
		if (found)
			break;
	}
	return found;
}

/* get_robust_list(pid, head_ptr, len_ptr): pid 0 is the caller. */
long sys_get_robust_list(const unsigned long *args)
{
	int tid = (int)args[0];
	u64 head, len = ROBUST_HEAD_SIZE;
	struct thread *t;

	if (tid < 0)
		return -ESRCH;
	if (!tid) {
		head = current_thread() ? current_thread()->robust_list : 0;
	} else {
		mutex_lock(&process_lock);
		t = find_thread(tid);
		head = t ? t->robust_list : 0;
		mutex_unlock(&process_lock);
		if (!t)
			return -ESRCH;
	}
	if (copy_to_user(args[2], &len, sizeof(len)))
		return -EFAULT;
	return copy_to_user(args[1], &head, sizeof(head)) ? -EFAULT : 0;
}

/* struct futex_waitv: the value, the word's address, FUTEX2_* flags, a reserved zero. */
struct futex_waitv {
	u64 val;
	u64 uaddr;
	u32 flags;
	u32 reserved;
};

#define FUTEX2_SIZE_U32 0x02
#define FUTEX2_SIZE_MASK 0x03
#define FUTEX2_PRIVATE FUTEX_PRIVATE_FLAG
#define FUTEX_WAITV_MAX 128
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1

/* futex_waitv(waiters, nr_futexes, flags, timeout, clockid): Linux's checks, in its order. */
long sys_futex_waitv(const unsigned long *args)
{
	u64 uwaiters = args[0], utime = args[3];
	unsigned int n = (unsigned int)args[1];
	int clockid = (int)args[4];
	struct futex_q *qs;
	u64 deadline = 0, *uaddrs;
	u32 *vals;
	long ret;

	if (args[2])
		return -EINVAL;
	if (!uwaiters || !n || n > FUTEX_WAITV_MAX)
		return -EINVAL;
	if (utime) {
		if (clockid != CLOCK_REALTIME && clockid != CLOCK_MONOTONIC)
			return -EINVAL;
		/* Absolute, on the clock named: WAIT_BITSET's rule. */
		ret = futex_deadline(utime, FUTEX_WAIT_BITSET, clockid == CLOCK_REALTIME, &deadline);
		if (ret)
			return ret;
	}
	qs = kcalloc(n, sizeof(*qs), GFP_KERNEL);
	uaddrs = kcalloc(n, sizeof(*uaddrs), GFP_KERNEL);
	vals = kcalloc(n, sizeof(*vals), GFP_KERNEL);
	ret = qs && uaddrs && vals ? 0 : -ENOMEM;
	for (unsigned int i = 0; i < n && !ret; i++) {
		struct futex_waitv w;

		if (copy_from_user(&w, uwaiters + i * sizeof(w), sizeof(w))) {
			ret = -EFAULT;
			break;
		}
		if ((w.flags & ~(u32)(FUTEX2_SIZE_MASK | FUTEX2_PRIVATE)) || w.reserved ||
		    (w.flags & FUTEX2_SIZE_MASK) != FUTEX2_SIZE_U32) {
			ret = -EINVAL;
			break;
		}
		ret = get_futex_key(w.uaddr, !(w.flags & FUTEX2_PRIVATE), &qs[i].key);
		uaddrs[i] = w.uaddr;
		vals[i] = (u32)w.val;
		qs[i].task = current;
		qs[i].bitset = FUTEX_BITSET_MATCH_ANY;
		INIT_LIST_HEAD(&qs[i].list);
	}
	if (!ret)
		ret = futex_wait_multiple(qs, uaddrs, vals, n, deadline);
	kfree(qs);
	kfree(uaddrs);
	kfree(vals);
	return ret;
}
