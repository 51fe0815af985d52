// SPDX-License-Identifier: MIT
/*
 * Futex core, after Linux's kernel/futex/core.c: keys, the hash of
 * waiters, atomic operations on the user's word, and what a thread's
 * exit does to the robust futexes it holds.
 */
#include <pagoda/arch.h>
#include <pagoda/init.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/uaccess.h>
#include "futex.h"

#define FUTEX_HASH_BITS 8

static struct futex_hash_bucket futex_queues[1 << FUTEX_HASH_BITS];
static bool futex_ready;

static void futex_init(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(futex_queues); i++) {
		mutex_init(&futex_queues[i].lock);
		INIT_LIST_HEAD(&futex_queues[i].chain);
	}
	smp_store_release(&futex_ready, true);
}

struct futex_hash_bucket *futex_hash(const struct futex_key *key)
{
	/* The word's offset and its object, mixed by a multiplicative hash. */
	u64 h = (key->offset >> 2) ^ ((u64)(uintptr_t)key->object >> 4);

	/*
	 * Set up on first use (every path comes here first), so no boot
	 * order matters: the first futex call may be a thread's exit.
	 */
	if (!smp_load_acquire(&futex_ready)) {
		static DEFINE_SPINLOCK(init_lock);

		spin_lock(&init_lock);
		if (!futex_ready)
			futex_init();
		spin_unlock(&init_lock);
	}

	h *= 0x9e3779b97f4a7c15ULL;
	return &futex_queues[h >> (64 - FUTEX_HASH_BITS)];
}

int get_futex_key(u64 uaddr, bool shared, struct futex_key *key)
{
	struct process *p = current_process();

	if (!p)
		return -EFAULT;
	if (uaddr & 3)
		return -EINVAL;
	if (uaddr >= TASK_SIZE || uaddr + 4 > TASK_SIZE)
		return -EFAULT;
	/*
	 * Linux looks up the page of a shared futex (and so fails on an
	 * unmapped one with -EFAULT); a private one is only the address.
	 */
	key->proc = p;
	key->object = p;
	key->offset = uaddr;
	if (shared) {
		struct vm_area *v;

		down_read(&p->mmap_lock);
		v = find_vma(p, uaddr);
		if (!v || v->start > uaddr) {
			up_read(&p->mmap_lock);
			return -EFAULT;
		}
		if (v->shm) {
			key->object = v->shm;
			key->offset = (v->pgoff << PAGE_SHIFT) + (uaddr - v->start);
		}
		up_read(&p->mmap_lock);
	}
	return 0;
}

void futex_wake_q(struct futex_q *q)
{
	list_del_init(&q->list);
	/* The waiter cannot leave before it has taken this bucket's lock again: q stays. */
	smp_store_release(&q->woken, true);
	wake_up_process(q->task);
}

void double_lock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b)
{
	if (a > b) {
		struct futex_hash_bucket *t = a;

		a = b;
		b = t;
	}
	mutex_lock(&a->lock);
	if (a != b)
		mutex_lock(&b->lock);
}

void double_unlock_hb(struct futex_hash_bucket *a, struct futex_hash_bucket *b)
{
	mutex_unlock(&a->lock);
	if (a != b)
		mutex_unlock(&b->lock);
}

int futex_atomic_user(struct process *p, u64 uaddr, void (*fn)(u32 *word, void *arg), void *arg)
{
	u64 va = ALIGN_DOWN(uaddr, PAGE_SIZE);
	int err = -EFAULT;

	if ((uaddr & 3) || uaddr >= TASK_SIZE)
		return -EFAULT;
	/* Read-held: no munmap, mprotect or fork moves the page away meanwhile. */
	down_read(&p->mmap_lock);
	for (int tries = 0; tries < 2; tries++) {
		unsigned int prot;
		phys_addr_t pa;
		int code;

		/*
		 * page_table_lock too: a truncate of a tmpfs file takes its pages
		 * from the mappings without mmap_lock (mm/shmem.c).
		 */
		mutex_lock(&p->page_table_lock);
		if (!arch_lookup(&p->mm, va, &pa, &prot) && (prot & PROT_WRITE) &&
		    (prot & PROT_USER)) {
			/* Writable means this process's alone: no copy-on-write can swap it. */
			fn((u32 *)__va(ALIGN_DOWN(pa, PAGE_SIZE) + (uaddr - va)), arg);
			err = 0;
		}
		mutex_unlock(&p->page_table_lock);
		if (!err)
			break;
		/* Absent, the zero page or shared after fork: a write fault makes it ours. */
		if (handle_mm_fault(p, uaddr, FAULT_FLAG_WRITE, &code))
			break;
	}
	up_read(&p->mmap_lock);
	return err;
}

struct death_cmpxchg {
	u32 old, new;
	bool done;
};

static void death_cmpxchg_fn(u32 *word, void *arg)
{
	struct death_cmpxchg *c = arg;
	u32 expect = c->old;

	c->done = __atomic_compare_exchange_n(word, &expect, c->new, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST);
	c->old = expect;
}

/*
 * Linux's handle_futex_death(): the lock at uaddr is held by the dying
 * thread tid; set FUTEX_OWNER_DIED (keeping FUTEX_WAITERS) so the next
 * locker knows, and wake one waiter. A lock the thread was only about to
 * take (pending, still 0) wakes a waiter that may be owed the wake-up.
 */
static int handle_futex_death(struct process *p, u64 uaddr, u32 tid, bool pi, bool pending)
{
	struct death_cmpxchg c;
	u32 uval;

	if (uaddr & 3)
		return -EINVAL;
	if (copy_from_user(&uval, uaddr, sizeof(uval)))
		return -EFAULT;
	for (int tries = 0; tries < 16; tries++) {
		if (pending && !pi && !uval) {
			futex_wake(p, uaddr, 1, FUTEX_BITSET_MATCH_ANY);
			return 0;
		}
		if ((uval & FUTEX_TID_MASK) != tid)
			return 0;
		c = (struct death_cmpxchg){ .old = uval,
					    .new = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED };
		if (futex_atomic_user(p, uaddr, death_cmpxchg_fn, &c))
			return -EFAULT;
		if (c.done)
			break;
		uval = c.old; /* changed under us (another thread queued): look again */
	}
	if (!pi && (uval & FUTEX_WAITERS))
		futex_wake(p, uaddr, 1, FUTEX_BITSET_MATCH_ANY);
	return 0;
}

/* struct robust_list_head in user memory: the list, the word's offset, the one being taken. */
struct robust_list_head {
	u64 next;
	s64 futex_offset;
	u64 list_op_pending;
};

/* Linux's ROBUST_LIST_LIMIT: a looped or hostile list ends the walk. */
#define ROBUST_LIST_LIMIT 2048

/* An entry's address, its low bit saying whether the lock is a PI one: 0 or -EFAULT. */
static int fetch_robust_entry(u64 *entry, u64 from, bool *pi)
{
	u64 v;

	if (copy_from_user(&v, from, sizeof(v)))
		return -EFAULT;
	*entry = v & ~1ULL;
	*pi = v & 1;
	return 0;
}

void exit_robust_list(struct process *p, struct thread *t)
{
	unsigned int limit = ROBUST_LIST_LIMIT;
	u64 head = t->robust_list, entry, next, pending;
	bool pi, next_pi, pending_pi;
	s64 offset;

	if (!head)
		return;
	if (fetch_robust_entry(&entry, head, &pi))
		return;
	if (copy_from_user(&offset, head + 8, sizeof(offset)))
		return;
	if (fetch_robust_entry(&pending, head + 16, &pending_pi))
		return;
	while (entry != head) {
		/* The next one first: handling this one may let another thread free it. */
		int rc = fetch_robust_entry(&next, entry, &next_pi);

		if (entry != pending &&
		    handle_futex_death(p, entry + (u64)offset, (u32)t->tid, pi, false))
			return;
		if (rc)
			return;
		entry = next;
		pi = next_pi;
		if (!--limit)
			break;
	}
	if (pending)
		handle_futex_death(p, pending + (u64)offset, (u32)t->tid, pending_pi, true);
}
