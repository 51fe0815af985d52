// SPDX-License-Identifier: MIT
/*
 * Waiting and waking, after Linux's kernel/futex/waitwake.c.
 *
 * The one rule that makes futexes work: the waiter reads the word and
 * queues itself under the bucket lock, and the waker, having changed the
 * word in user mode first, takes the same lock to look for waiters. So a
 * wake either finds the waiter queued, or comes before the waiter's read
 * and the waiter sees the new value and does not sleep (-EAGAIN).
 */
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/time.h>
#include <pagoda/uaccess.h>
#include "futex.h"

/* Wake up to nr waiters on key whose bitset meets bitset (at least one: Linux's count). */
static int wake_key(const struct futex_key *key, int nr, u32 bitset)
{
	struct futex_hash_bucket *hb = futex_hash(key);
	struct futex_q *q, *tmp;
	int woken = 0;

	mutex_lock(&hb->lock);
	list_for_each_entry_safe(q, tmp, &hb->chain, list) {
		if (!futex_match(&q->key, key) || !(q->bitset & bitset))
			continue;
		futex_wake_q(q);
		if (++woken >= nr)
			break;
	}
	mutex_unlock(&hb->lock);
	return woken;
}

int futex_wake(struct process *p, u64 uaddr, int nr, u32 bitset)
{
	struct futex_key key = { .object = p, .offset = uaddr, .proc = p };

	/*
	 * A thread's exit wakes as Linux's does, shared: a word in shared
	 * memory has that memory's key (get_futex_key), or no waiter on it
	 * in another process would ever be woken.
	 */
	if (p == current_process())
		get_futex_key(uaddr, true, &key);
	return wake_key(&key, nr, bitset);
}

long futex_wake_key(u64 uaddr, bool shared, int nr, u32 bitset)
{
	struct futex_key key;
	int err;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, shared, &key);
	return err ? err : wake_key(&key, nr, bitset);
}

/*
 * Off the queue, whichever bucket a requeue left it in: was it woken?
 * Taking the lock also waits for a waker still holding it, so q (on this
 * stack) is not in use when this returns.
 */
static bool unqueue_me(struct futex_q *q)
{
	struct futex_hash_bucket *hb;
	bool woken;

	for (;;) {
		hb = READ_ONCE(q->hb);
		mutex_lock(&hb->lock);
		if (READ_ONCE(q->hb) == hb)
			break;
		mutex_unlock(&hb->lock);
	}
	if (!list_empty(&q->list))
		list_del_init(&q->list);
	woken = q->woken;
	mutex_unlock(&hb->lock);
	return woken;
}

/*
 * One sleep of a futex wait, the caller already TASK_INTERRUPTIBLE and its
 * wake condition checked: until woken with no deadline, else at most to
 * the deadline. True once the deadline has passed (the wait timed out).
 */
static bool futex_sleep(u64 deadline_ns)
{
	u64 now;

	if (!deadline_ns) {
		schedule();
		return false;
	}
	now = ktime_get_ns();
	if (now >= deadline_ns)
		return true;
	schedule_timeout(deadline_ns - now);
	return false;
}

/*
 * Linux's futex_wait_setup(): queue q (keyed, its task and bitset set) in
 * its bucket if the word at uaddr still holds val. The read and the
 * queueing are one step under the bucket lock, the lock a waker takes to
 * look for waiters after changing the word: so the waker either finds q
 * queued, or changed the word before the read here, which then sees the
 * new value. 0 (queued: the caller may sleep), -EAGAIN (the word holds
 * another value: it must not) or -EFAULT.
 */
static int futex_wait_setup(u64 uaddr, u32 val, struct futex_q *q)
{
	u32 uval;

	q->hb = futex_hash(&q->key);
	mutex_lock(&q->hb->lock);
	if (copy_from_user(&uval, uaddr, sizeof(uval))) {
		mutex_unlock(&q->hb->lock);
		return -EFAULT;
	}
	if (uval != val) {
		mutex_unlock(&q->hb->lock);
		return -EAGAIN;
	}
	list_add_tail(&q->list, &q->hb->chain);
	mutex_unlock(&q->hb->lock);
	return 0;
}

/*
 * Sleep on uaddr while it holds val, until a wake whose bitset meets
 * ours, a signal (-EINTR: nothing restarts it here), or the monotonic
 * clock reaching deadline_ns (-ETIMEDOUT; 0: no timeout).
 */
long futex_wait(u64 uaddr, bool shared, u32 val, u64 deadline_ns, u32 bitset)
{
	struct process *p = current_process();
	struct futex_q q = { .task = current, .bitset = bitset };
	bool timed_out = false, woken;
	int err;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, shared, &q.key);
	if (err)
		return err;
	INIT_LIST_HEAD(&q.list);
	err = futex_wait_setup(uaddr, val, &q);
	if (err)
		return err;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (smp_load_acquire(&q.woken) || signal_pending(p))
			break;
		if (futex_sleep(deadline_ns)) {
			timed_out = true;
			break;
		}
	}
	__set_current_state(TASK_RUNNING);
	woken = unqueue_me(&q);
	if (woken)
		return 0;
	return timed_out ? -ETIMEDOUT : -EINTR;
}

/* FUTEX_WAKE_OP's operation on the second word, and the comparison that decides its wake. */
#define FUTEX_OP_SET 0
#define FUTEX_OP_ADD 1
#define FUTEX_OP_OR 2
#define FUTEX_OP_ANDN 3
#define FUTEX_OP_XOR 4
#define FUTEX_OP_OPARG_SHIFT 8

struct wake_op {
	unsigned int op;
	u32 oparg;
	u32 old;
};

static void wake_op_fn(u32 *word, void *arg)
{
	struct wake_op *w = arg;

	switch (w->op) {
	case FUTEX_OP_SET:
		w->old = __atomic_exchange_n(word, w->oparg, __ATOMIC_SEQ_CST);
		break;
	case FUTEX_OP_ADD:
		w->old = __atomic_fetch_add(word, w->oparg, __ATOMIC_SEQ_CST);
		break;
	case FUTEX_OP_OR:
		w->old = __atomic_fetch_or(word, w->oparg, __ATOMIC_SEQ_CST);
		break;
	case FUTEX_OP_ANDN:
		w->old = __atomic_fetch_and(word, ~w->oparg, __ATOMIC_SEQ_CST);
		break;
	default:
		w->old = __atomic_fetch_xor(word, w->oparg, __ATOMIC_SEQ_CST);
		break;
	}
}

/* The 12-bit signed fields of the encoded operation. */
static s32 sign_extend12(u32 v)
{
	return (s32)(v << 20) >> 20;
}

/*
 * FUTEX_WAKE_OP: change the word at uaddr2 atomically as op says, wake up
 * to nr_wake on uaddr1, and up to nr_wake2 on uaddr2 if the word's old
 * value passed op's comparison. How many were woken, or -errno.
 */
long futex_wake_op(u64 uaddr1, bool shared, u64 uaddr2, int nr_wake, int nr_wake2, u32 encoded)
{
	struct futex_key k1, k2;
	struct futex_hash_bucket *hb1, *hb2;
	unsigned int op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	s32 oparg = sign_extend12((encoded >> 12) & 0xfff);
	s32 cmparg = sign_extend12(encoded & 0xfff);
	struct wake_op w;
	struct futex_q *q, *tmp;
	bool hit;
	int woken = 0, err;

	if ((err = get_futex_key(uaddr1, shared, &k1)) || (err = get_futex_key(uaddr2, shared, &k2)))
		return err;
	if (encoded & (FUTEX_OP_OPARG_SHIFT << 28)) {
		/* Linux takes the shift modulo 32 (and warns once) for an out-of-range one. */
		oparg = (s32)(1u << ((u32)oparg & 31));
	}
	if (op > FUTEX_OP_XOR || cmp > 5)
		return -ENOSYS;
	w = (struct wake_op){ .op = op, .oparg = (u32)oparg };
	hb1 = futex_hash(&k1);
	hb2 = futex_hash(&k2);
	double_lock_hb(hb1, hb2);
	err = futex_atomic_user(k2.proc, uaddr2, wake_op_fn, &w);
	if (err) {
		double_unlock_hb(hb1, hb2);
		return err;
	}
	switch (cmp) {
	case 0: hit = (s32)w.old == cmparg; break;
	case 1: hit = (s32)w.old != cmparg; break;
	case 2: hit = (s32)w.old < cmparg; break;
	case 3: hit = (s32)w.old <= cmparg; break;
	case 4: hit = (s32)w.old > cmparg; break;
	default: hit = (s32)w.old >= cmparg; break;
	}
	list_for_each_entry_safe(q, tmp, &hb1->chain, list) {
		if (!futex_match(&q->key, &k1))
			continue;
		futex_wake_q(q);
		if (++woken >= nr_wake)
			break;
	}
	if (hit) {
		int woken2 = 0;

		list_for_each_entry_safe(q, tmp, &hb2->chain, list) {
			if (!futex_match(&q->key, &k2))
				continue;
			futex_wake_q(q);
			woken++;
			if (++woken2 >= nr_wake2)
				break;
		}
	}
	double_unlock_hb(hb1, hb2);
	return woken;
}

/*
 * futex_waitv's sleep, after Linux's futex_wait_multiple(): queue on every
 * word while it holds its value (-EAGAIN at the first that does not, the
 * ones queued before taken off again), then sleep until any is woken (its
 * index; when several were, the highest, as Linux answers), the deadline
 * (-ETIMEDOUT) or a signal (-EINTR).
 */
long futex_wait_multiple(struct futex_q *qs, const u64 *uaddrs, const u32 *vals,
			 unsigned int n, u64 deadline_ns)
{
	struct process *p = current_process();
	long ret = -EAGAIN;
	bool timed_out = false;
	unsigned int queued;

	for (queued = 0; queued < n; queued++) {
		int err = futex_wait_setup(uaddrs[queued], vals[queued], &qs[queued]);

		if (err) {
			ret = err;
			break;
		}
	}
	if (queued == n) {
		for (;;) {
			bool any = false;

			set_current_state(TASK_INTERRUPTIBLE);
			for (unsigned int i = 0; i < n && !any; i++)
				any = smp_load_acquire(&qs[i].woken);
			if (any || signal_pending(p))
				break;
			if (futex_sleep(deadline_ns)) {
				timed_out = true;
				break;
			}
		}
		__set_current_state(TASK_RUNNING);
		ret = timed_out ? -ETIMEDOUT : -EINTR;
	}
	/* Off every queue; a wake that came meanwhile still counts, even in the setup. */
	for (unsigned int i = 0; i < queued; i++)
		if (unqueue_me(&qs[i]))
			ret = i;
	return ret;
}
