// SPDX-License-Identifier: MIT
/*
 * FUTEX_REQUEUE and FUTEX_CMP_REQUEUE, after Linux's
 * kernel/futex/requeue.c: wake a few waiters of one futex and move the
 * rest, still asleep, to another, so that a condition variable's
 * broadcast wakes one thread rather than a herd that would all queue on
 * the mutex at once. The waiters moved keep sleeping; a later wake of the
 * second futex reaches them.
 */
#include <pagoda/process.h>
#include <pagoda/uaccess.h>
#include "futex.h"

/*
 * cmpval: CMP_REQUEUE's expected value of the first word (-EAGAIN when it
 * differs, read under both locks); NULL for plain REQUEUE. How many were
 * woken and moved, or -errno.
 */
long futex_requeue(u64 uaddr1, bool shared, u64 uaddr2, int nr_wake, int nr_requeue,
		   const u32 *cmpval)
{
	struct futex_key k1, k2;
	struct futex_hash_bucket *hb1, *hb2;
	struct futex_q *q, *tmp;
	int count = 0, err;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	if ((err = get_futex_key(uaddr1, shared, &k1)) || (err = get_futex_key(uaddr2, shared, &k2)))
		return err;
	hb1 = futex_hash(&k1);
	hb2 = futex_hash(&k2);
	double_lock_hb(hb1, hb2);
	if (cmpval) {
		u32 cur;

		if (copy_from_user(&cur, uaddr1, sizeof(cur))) {
			double_unlock_hb(hb1, hb2);
			return -EFAULT;
		}
		if (cur != *cmpval) {
			double_unlock_hb(hb1, hb2);
			return -EAGAIN;
		}
	}
	list_for_each_entry_safe(q, tmp, &hb1->chain, list) {
		if (!futex_match(&q->key, &k1))
			continue;
		if (count >= nr_wake + nr_requeue)
			break;
		if (count < nr_wake) {
			futex_wake_q(q);
		} else {
			/* Asleep still, now on the second word (both buckets are locked). */
			q->key = k2;
			if (hb1 != hb2) {
				list_move_tail(&q->list, &hb2->chain);
				WRITE_ONCE(q->hb, hb2);
			}
		}
		count++;
	}
	double_unlock_hb(hb1, hb2);
	return count;
}

/*
 * FUTEX_CMP_REQUEUE_PI: move waiters of a condition variable onto a PI
 * mutex. Only a FUTEX_WAIT_REQUEUE_PI waiter may be moved so, and that
 * wait is not supported (-ENOSYS), so every waiter this finds is a plain
 * one: Linux's answer for such a mismatch is -EINVAL, and 0 when there is
 * no waiter at all; the value check and the argument checks come first,
 * as there.
 */
long futex_cmp_requeue_pi(u64 uaddr1, bool shared, u64 uaddr2, int nr_wake, int nr_requeue,
			  u32 cmpval)
{
	struct futex_key k1, k2;
	struct futex_hash_bucket *hb1, *hb2;
	struct futex_q *q;
	long ret = 0;
	int err;
	u32 cur;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	if ((err = get_futex_key(uaddr1, shared, &k1)) || (err = get_futex_key(uaddr2, shared, &k2)))
		return err;
	if (futex_match(&k1, &k2) || nr_wake != 1)
		return -EINVAL;
	hb1 = futex_hash(&k1);
	hb2 = futex_hash(&k2);
	double_lock_hb(hb1, hb2);
	if (copy_from_user(&cur, uaddr1, sizeof(cur)))
		ret = -EFAULT;
	else if (cur != cmpval)
		ret = -EAGAIN;
	else
		list_for_each_entry(q, &hb1->chain, list)
			if (futex_match(&q->key, &k1))
				ret = -EINVAL; /* a plain waiter: not to be requeued onto a PI futex */
	double_unlock_hb(hb1, hb2);
	return ret;
}
