/* SPDX-License-Identifier: MIT */
/*
 * Sequence counters and seqlocks: readers never block and never write
 * shared memory; they retry when a writer was active meanwhile.
 *
 * The writer makes the count odd, writes, makes it even again. A reader
 * notes an even count, reads, and checks the count did not change:
 *
 *	do {
 *		seq = read_seqbegin(&lock);
 *		copy = shared;
 *	} while (read_seqretry(&lock, seq));
 *
 * Good for small, often-read, rarely-written data (the time of day, the
 * vDSO's clock data). Writers must be serialized: seqlock_t bundles a
 * spinlock for that; a bare seqcount_t relies on the caller.
 */
#ifndef PAGODA_SEQLOCK_H
#define PAGODA_SEQLOCK_H

#include <pagoda/atomic.h>
#include <pagoda/spinlock.h>

typedef struct {
	unsigned int sequence;
} seqcount_t;

#define SEQCNT_ZERO { 0 }
static inline void seqcount_init(seqcount_t *s) { s->sequence = 0; }

static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	/* Wait out a writer in progress (odd count). */
	while ((seq = READ_ONCE(s->sequence)) & 1)
		arch_cpu_relax();
	smp_rmb(); /* the count before the data */
	return seq;
}

static inline bool read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	smp_rmb(); /* the data before the count */
	return READ_ONCE(s->sequence) != start;
}

static inline void write_seqcount_begin(seqcount_t *s)
{
	WRITE_ONCE(s->sequence, s->sequence + 1);
	smp_wmb(); /* odd count before the data */
}

static inline void write_seqcount_end(seqcount_t *s)
{
	smp_wmb(); /* the data before the even count */
	WRITE_ONCE(s->sequence, s->sequence + 1);
}

typedef struct {
	seqcount_t seqcount;
	spinlock_t lock;
} seqlock_t;

#define __SEQLOCK_UNLOCKED(name) { SEQCNT_ZERO, __SPIN_LOCK_UNLOCKED(name) }
#define DEFINE_SEQLOCK(name) seqlock_t name = __SEQLOCK_UNLOCKED(name)
#define seqlock_init(sl)                                              \
	do {                                                          \
		seqcount_init(&(sl)->seqcount);                       \
		__spin_lock_init(&(sl)->lock,                         \
				 LOCK_CLASS_HERE(#sl, LOCK_SPIN));    \
	} while (0)

static inline unsigned int read_seqbegin(const seqlock_t *sl)
{
	return read_seqcount_begin(&sl->seqcount);
}

static inline bool read_seqretry(const seqlock_t *sl, unsigned int start)
{
	return read_seqcount_retry(&sl->seqcount, start);
}

static inline void write_seqlock(seqlock_t *sl)
{
	spin_lock(&sl->lock);
	write_seqcount_begin(&sl->seqcount);
}

static inline void write_sequnlock(seqlock_t *sl)
{
	write_seqcount_end(&sl->seqcount);
	spin_unlock(&sl->lock);
}

static inline unsigned long write_seqlock_irqsave(seqlock_t *sl)
{
	unsigned long flags;

	spin_lock_irqsave(&sl->lock, flags);
	write_seqcount_begin(&sl->seqcount);
	return flags;
}

static inline void write_sequnlock_irqrestore(seqlock_t *sl, unsigned long flags)
{
	write_seqcount_end(&sl->seqcount);
	spin_unlock_irqrestore(&sl->lock, flags);
}

#endif
