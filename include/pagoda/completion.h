/* SPDX-License-Identifier: MIT */
/*
 * Completions: "wait until that has happened", counted. Each complete()
 * lets one wait_for_completion() through (now or later); complete_all()
 * lets everyone through until reinit_completion().
 */
#ifndef PAGODA_COMPLETION_H
#define PAGODA_COMPLETION_H

#include <pagoda/wait.h>

struct completion {
	unsigned int done;
	struct wait_queue_head wait;
};

#define COMPLETION_ALL (~0U)
#define init_completion(c)                          \
	do {                                        \
		(c)->done = 0;                      \
		init_waitqueue_head(&(c)->wait);    \
	} while (0)
#define DECLARE_COMPLETION(name) \
	struct completion name = { 0, __WAIT_QUEUE_HEAD_INITIALIZER(name.wait) }

void complete(struct completion *c);
void complete_all(struct completion *c);
void wait_for_completion(struct completion *c);
/* true if completed, false after ns nanoseconds. */
bool wait_for_completion_timeout(struct completion *c, u64 ns);
bool try_wait_for_completion(struct completion *c);
bool completion_done(struct completion *c);
static inline void reinit_completion(struct completion *c)
{
	c->done = 0;
}

#endif
