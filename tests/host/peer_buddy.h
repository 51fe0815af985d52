/* SPDX-License-Identifier: MIT */
/*
 * The yardstick for the page allocator's host benchmark: the smallest
 * useful binary buddy allocator (tests/host/peer_buddy.c). No zones, no
 * migratetypes, no per-CPU lists, no locks, no checks: what Pagoda's
 * allocator would cost if it did nothing but split and merge.
 */
#ifndef PEER_BUDDY_H
#define PEER_BUDDY_H

#define PEER_MAX_ORDER 11 /* orders 0..10, as Pagoda's MAX_ORDER */

struct peer_block;

struct peer_buddy {
	char *base;                  /* first frame; frames are 4 KiB */
	unsigned long nr_frames;
	unsigned long *head_map;     /* bit per frame: head of a free block */
	struct peer_block *free_list[PEER_MAX_ORDER];
};

/* Manage the frames of [base, base + nr_frames * 4 KiB); base is 4 MiB
 * aligned, map_words is nr_frames / 64 words the caller provides. */
void peer_init(struct peer_buddy *b, void *base, unsigned long nr_frames,
	       unsigned long *head_map);
void *peer_alloc(struct peer_buddy *b, unsigned int order);
void peer_free(struct peer_buddy *b, void *p, unsigned int order);

#endif
