// SPDX-License-Identifier: MIT
/* Wait queues and completions (pagoda/wait.h, pagoda/completion.h). */
#include <pagoda/completion.h>
#include <pagoda/wait.h>

static void __prepare(struct wait_queue_head *wq, struct wait_queue_entry *w, long state,
		      bool exclusive)
{
	unsigned long flags;

	w->task = current;
	w->exclusive = exclusive;
	spin_lock_irqsave(&wq->lock, flags);
	if (!w->entry.next || list_empty(&w->entry)) {
		if (exclusive)
			list_add_tail(&w->entry, &wq->head);
		else
			list_add(&w->entry, &wq->head);
	}
	/* Under the lock: a waker holding it sees us queued and sleeping. */
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w, long state)
{
	__prepare(wq, w, state, false);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *w,
			       long state)
{
	__prepare(wq, w, state, true);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	spin_lock_irqsave(&wq->lock, flags);
	if (w->entry.next && !list_empty(&w->entry))
		list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void __wake_up_locked(struct wait_queue_head *wq, int nr)
{
	struct wait_queue_entry *w, *n;

	list_for_each_entry_safe(w, n, &wq->head, entry) {
		wake_up_process(w->task);
		if (w->exclusive && nr && --nr == 0)
			break;
	}
}

void atomic_dec_wake_up_all(atomic_t *count, struct wait_queue_head *wq)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	atomic_dec(count);
	__wake_up_locked(wq, 0);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void __wake_up(struct wait_queue_head *wq, int nr)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_locked(wq, nr);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/*
 * The count and the wake-up in one hold of the lock, and nothing of c
 * touched after it is dropped: a waiter that sees done (it takes the same
 * lock to look) may return at once and free c, as every completion on a
 * stack is (submit_bio_wait()). With the wake-up in a second hold, a
 * completer held up between the two (an interrupt, a virtual CPU the host
 * descheduled) would walk a wait queue in freed memory.
 */
void complete(struct completion *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->wait.lock, flags);
	if (c->done != COMPLETION_ALL)
		c->done++;
	/* One waiter per complete(): waiters queue exclusively. */
	__wake_up_locked(&c->wait, 1);
	spin_unlock_irqrestore(&c->wait.lock, flags);
}

void complete_all(struct completion *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->wait.lock, flags);
	c->done = COMPLETION_ALL;
	__wake_up_locked(&c->wait, 0);
	spin_unlock_irqrestore(&c->wait.lock, flags);
}

bool try_wait_for_completion(struct completion *c)
{
	unsigned long flags;
	bool ok = false;

	spin_lock_irqsave(&c->wait.lock, flags);
	if (c->done) {
		ok = true;
		if (c->done != COMPLETION_ALL)
			c->done--;
	}
	spin_unlock_irqrestore(&c->wait.lock, flags);
	return ok;
}

bool completion_done(struct completion *c)
{
	return READ_ONCE(c->done) != 0;
}

bool wait_for_completion_timeout(struct completion *c, u64 ns)
{
	struct wait_queue_entry w = { .task = current };
	u64 left = ns;
	bool ok;

	might_sleep();
	for (;;) {
		prepare_to_wait_exclusive(&c->wait, &w, TASK_UNINTERRUPTIBLE);
		if ((ok = try_wait_for_completion(c)) || !left)
			break;
		left = schedule_timeout(left);
	}
	finish_wait(&c->wait, &w);
	return ok;
}

void wait_for_completion(struct completion *c)
{
	struct wait_queue_entry w = { .task = current };

	might_sleep();
	for (;;) {
		prepare_to_wait_exclusive(&c->wait, &w, TASK_UNINTERRUPTIBLE);
		if (try_wait_for_completion(c))
			break;
		schedule();
	}
	finish_wait(&c->wait, &w);
}
