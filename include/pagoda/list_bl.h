/* SPDX-License-Identifier: MIT */
/*
 * hlist_bl: a singly-headed list whose head pointer's bit 0 is a bit
 * spinlock, so a hash table gets one lock per bucket for free (nodes are
 * at least 2-byte aligned, so bit 0 of a node pointer is always 0). This
 * is what the dm snapshot exception table uses.
 *
 *	hlist_bl_lock(&bucket);
 *	hlist_bl_for_each_entry(e, pos, &bucket, node) ...
 *	hlist_bl_add_head(&e->node, &bucket);
 *	hlist_bl_unlock(&bucket);
 */
#ifndef PAGODA_LIST_BL_H
#define PAGODA_LIST_BL_H

#include <pagoda/bit_spinlock.h>
#include <pagoda/types.h>

#define LIST_BL_LOCKMASK 1UL

struct hlist_bl_node {
	struct hlist_bl_node *next, **pprev;
};

struct hlist_bl_head {
	struct hlist_bl_node *first; /* bit 0: the lock */
};

#define INIT_HLIST_BL_HEAD(h) ((h)->first = NULL)

static inline void INIT_HLIST_BL_NODE(struct hlist_bl_node *n)
{
	n->next = NULL;
	n->pprev = NULL;
}

static inline bool hlist_bl_unhashed(const struct hlist_bl_node *n)
{
	return !n->pprev;
}

static inline struct hlist_bl_node *hlist_bl_first(struct hlist_bl_head *h)
{
	return (struct hlist_bl_node *)((unsigned long)h->first & ~LIST_BL_LOCKMASK);
}

/* Change the first node, keeping the lock bit as it is. */
static inline void hlist_bl_set_first(struct hlist_bl_head *h, struct hlist_bl_node *n)
{
	h->first = (struct hlist_bl_node *)((unsigned long)n |
					    ((unsigned long)h->first & LIST_BL_LOCKMASK));
}

static inline bool hlist_bl_empty(const struct hlist_bl_head *h)
{
	return !((unsigned long)READ_ONCE(h->first) & ~LIST_BL_LOCKMASK);
}

static inline void hlist_bl_add_head(struct hlist_bl_node *n, struct hlist_bl_head *h)
{
	struct hlist_bl_node *first = hlist_bl_first(h);

	n->next = first;
	if (first)
		first->pprev = &n->next;
	n->pprev = &h->first;
	hlist_bl_set_first(h, n);
}

static inline void hlist_bl_del(struct hlist_bl_node *n)
{
	struct hlist_bl_node *next = n->next;
	struct hlist_bl_node **pprev = n->pprev;
	unsigned long lockbit = (unsigned long)*pprev & LIST_BL_LOCKMASK;

	/* *pprev may be the head, whose lock bit must survive. */
	WRITE_ONCE(*pprev, (struct hlist_bl_node *)((unsigned long)next | lockbit));
	if (next)
		next->pprev = pprev;
	n->next = NULL;
	n->pprev = NULL;
}

static inline void hlist_bl_lock(struct hlist_bl_head *h)
{
	bit_spin_lock(0, (unsigned long *)h);
}

static inline void hlist_bl_unlock(struct hlist_bl_head *h)
{
	bit_spin_unlock(0, (unsigned long *)h);
}

static inline bool hlist_bl_is_locked(struct hlist_bl_head *h)
{
	return bit_spin_is_locked(0, (unsigned long *)h);
}

#define hlist_bl_entry(ptr, type, member) container_of(ptr, type, member)

#define hlist_bl_for_each_entry(tpos, pos, head, member)                     \
	for (pos = hlist_bl_first(head);                                     \
	     pos && ({ tpos = hlist_bl_entry(pos, __typeof__(*tpos), member); 1; }); \
	     pos = pos->next)

#define hlist_bl_for_each_entry_safe(tpos, pos, n, head, member)             \
	for (pos = hlist_bl_first(head);                                     \
	     pos && ({ n = pos->next; 1; }) &&                               \
	     ({ tpos = hlist_bl_entry(pos, __typeof__(*tpos), member); 1; }); \
	     pos = n)

#endif
