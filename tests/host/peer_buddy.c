// SPDX-License-Identifier: MIT
/*
 * A minimal binary buddy allocator, written for the page allocator's host
 * benchmark (tests/host/bench_page_alloc.c) as the figure to beat. It is of
 * the same family as Unikraft's ukallocbbuddy: the free blocks' own first
 * bytes hold their list links and order, and one bit per frame says "a free
 * block starts here", so nothing but a bitmap lives outside the memory it
 * manages. One list per order, no zones, no locks, no checks.
 */
#include <string.h>
#include "peer_buddy.h"

#define FRAME_SHIFT 12
#define BITS_PER_WORD (8 * sizeof(unsigned long))

/* Written into the first bytes of every free block. */
struct peer_block {
	struct peer_block *next, *prev;
	unsigned int order;
};

static inline unsigned long frame_of(const struct peer_buddy *b, const void *p)
{
	return (unsigned long)((const char *)p - b->base) >> FRAME_SHIFT;
}

static inline void *frame_addr(const struct peer_buddy *b, unsigned long frame)
{
	return b->base + (frame << FRAME_SHIFT);
}

static inline int is_head(const struct peer_buddy *b, unsigned long frame)
{
	return (b->head_map[frame / BITS_PER_WORD] >> (frame % BITS_PER_WORD)) & 1;
}

static inline void mark_head(struct peer_buddy *b, unsigned long frame, int on)
{
	unsigned long bit = 1UL << (frame % BITS_PER_WORD);

	if (on)
		b->head_map[frame / BITS_PER_WORD] |= bit;
	else
		b->head_map[frame / BITS_PER_WORD] &= ~bit;
}

static inline void push(struct peer_buddy *b, struct peer_block *blk, unsigned int order)
{
	blk->order = order;
	blk->prev = NULL;
	blk->next = b->free_list[order];
	if (blk->next)
		blk->next->prev = blk;
	b->free_list[order] = blk;
	mark_head(b, frame_of(b, blk), 1);
}

static inline void unlink_block(struct peer_buddy *b, struct peer_block *blk)
{
	if (blk->prev)
		blk->prev->next = blk->next;
	else
		b->free_list[blk->order] = blk->next;
	if (blk->next)
		blk->next->prev = blk->prev;
	mark_head(b, frame_of(b, blk), 0);
}

void peer_init(struct peer_buddy *b, void *base, unsigned long nr_frames,
	       unsigned long *head_map)
{
	unsigned long step = 1UL << (PEER_MAX_ORDER - 1);

	b->base = base;
	b->nr_frames = nr_frames;
	b->head_map = head_map;
	memset(head_map, 0, (nr_frames + BITS_PER_WORD - 1) / BITS_PER_WORD *
	       sizeof(unsigned long));
	for (unsigned int o = 0; o < PEER_MAX_ORDER; o++)
		b->free_list[o] = NULL;
	/* Whole largest blocks, highest address pushed first so that the
	 * lists hand memory out in address order. */
	for (unsigned long f = nr_frames / step * step; f >= step; f -= step)
		push(b, frame_addr(b, f - step), PEER_MAX_ORDER - 1);
}

void *peer_alloc(struct peer_buddy *b, unsigned int order)
{
	struct peer_block *blk;
	unsigned int o = order;

	while (o < PEER_MAX_ORDER && !b->free_list[o])
		o++;
	if (o == PEER_MAX_ORDER)
		return NULL;
	blk = b->free_list[o];
	unlink_block(b, blk);
	while (o > order) {
		o--;
		push(b, (struct peer_block *)((char *)blk + (1UL << (o + FRAME_SHIFT))), o);
	}
	return blk;
}

void peer_free(struct peer_buddy *b, void *p, unsigned int order)
{
	unsigned long frame = frame_of(b, p);

	while (order < PEER_MAX_ORDER - 1) {
		unsigned long buddy = frame ^ (1UL << order);
		struct peer_block *bb;

		if (buddy >= b->nr_frames || !is_head(b, buddy))
			break;
		bb = frame_addr(b, buddy);
		if (bb->order != order)
			break;
		unlink_block(b, bb);
		frame &= ~(1UL << order);
		order++;
	}
	push(b, frame_addr(b, frame), order);
}
