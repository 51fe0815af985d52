/* SPDX-License-Identifier: MIT */
/*
 * The futex subsystem's inside (kernel/futex/), after Linux's
 * kernel/futex/futex.h: the hash of waiters and what the files share.
 *
 * A waiter is a struct futex_q on its own kernel stack, queued in one
 * bucket of a global hash by its key. The key names the word: Linux keys
 * a private futex by (mm, address) and a shared one by the page behind
 * it; Pagoda keys a shared one in a MAP_SHARED anonymous area by that
 * area's object and the offset in it, and every other by (process,
 * address), so FUTEX_PRIVATE_FLAG matters only there.
 *
 * Each bucket's lock is a mutex, not Linux's spinlock: futex_wait reads
 * the user's word under it with an ordinary copy_from_user, which may
 * fault and sleep (Linux disables faults there and retries instead). The
 * lock order is bucket, then the process's mmap_lock (read, in a fault);
 * two buckets are taken in address order.
 */
#ifndef KERNEL_FUTEX_FUTEX_H
#define KERNEL_FUTEX_FUTEX_H

#include <pagoda/futex.h>
#include <pagoda/list.h>
#include <pagoda/mutex.h>
#include <pagoda/types.h>

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_CMP_REQUEUE_PI 12
#define FUTEX_LOCK_PI2 13
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

/* The owner word of a robust (and PI) futex: the holder's tid and two flags. */
#define FUTEX_WAITERS 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK 0x3fffffffu

struct futex_key {
	/*
	 * What the word is in: the process (a private futex, or a shared one
	 * in private memory) with the word's address, or a shared anonymous
	 * mapping's object (mm/shmem.c) with the word's offset in it, which
	 * every process mapping it finds at whatever address.
	 */
	const void *object;
	u64 offset;
	struct process *proc; /* the caller's, for reading the word; not part of the key */
};

struct futex_hash_bucket {
	struct mutex lock;
	struct list_head chain; /* the futex_q's sleeping here */
};

struct futex_q {
	struct list_head list;         /* on hb->chain; empty once woken */
	struct futex_hash_bucket *hb;  /* where it is queued now: a requeue moves it */
	struct futex_key key;
	struct task *task;
	u32 bitset;
	bool woken;
};

/* The key of uaddr in the caller's process: 0, -EINVAL (unaligned) or -EFAULT. */
int get_futex_key(u64 uaddr, bool shared, struct futex_key *key);
struct futex_hash_bucket *futex_hash(const struct futex_key *key);
static inline bool futex_match(const struct futex_key *a, const struct futex_key *b)
{
	return a->object == b->object && a->offset == b->offset;
}
/* Under q's bucket lock: take q off its queue, mark it woken and wake its task. */
void futex_wake_q(struct futex_q *q);
/* Lock two buckets (one, when they are the same) in a fixed order, and unlock them. */
void double_lock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b);
void double_unlock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b);
/*
 * Run fn on the word at uaddr in p's memory, atomically against the
 * program's own atomic instructions (it works on the page itself): the
 * page is faulted in writable first. 0 or -EFAULT.
 */
int futex_atomic_user(struct process *p, u64 uaddr, void (*fn)(u32 *word, void *arg), void *arg);
/* The calls, by command (kernel/futex/syscalls.c decodes the arguments). */
long futex_wait(u64 uaddr, bool shared, u32 val, u64 deadline_ns, u32 bitset);
long futex_requeue(u64 uaddr1, bool shared, u64 uaddr2, int nr_wake, int nr_requeue,
		   const u32 *cmpval);
long futex_cmp_requeue_pi(u64 uaddr1, bool shared, u64 uaddr2, int nr_wake, int nr_requeue,
			  u32 cmpval);
long futex_wake_op(u64 uaddr1, bool shared, u64 uaddr2, int nr_wake, int nr_wake2, u32 op);
long futex_wake_key(u64 uaddr, bool shared, int nr, u32 bitset);
/* futex_waitv: qs[i] keyed and bitset set by the caller, each with its word and value. */
long futex_wait_multiple(struct futex_q *qs, const u64 *uaddrs, const u32 *vals,
			 unsigned int n, u64 deadline_ns);

#endif
