/* SPDX-License-Identifier: MIT */
/*
 * Doubly linked circular lists with the head embedded in the structure, as
 * Linux has them: the free lists of the page allocator, run queues, wait
 * queues. An empty list is a head that points at itself.
 */
#ifndef PAGODA_LIST_H
#define PAGODA_LIST_H

#include <pagoda/types.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void __list_link(struct list_head *n, struct list_head *prev,
			       struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* Insert n right after head (a stack push). */
static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_link(n, head, head->next);
}

/* Insert n right before head, i.e. at the end (a queue push). */
static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_link(n, head->prev, head);
}

/* Unlink; the poisoned pointers make a use after removal fault loudly. */
static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = (struct list_head *)0x100;
	e->prev = (struct list_head *)0x122;
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

/* Put n where old was; old is left dangling. */
static inline void list_replace(struct list_head *old, struct list_head *n)
{
	n->next = old->next;
	n->next->prev = n;
	n->prev = old->prev;
	n->prev->next = n;
}

/*
 * Exchange the positions of two entries, which may be on the same list or
 * different ones, adjacent or not. The shuffle's primitive.
 */
static inline void list_swap(struct list_head *a, struct list_head *b)
{
	struct list_head *pos = b->prev;

	list_del(b);
	list_replace(a, b);
	if (pos == a)
		pos = b;
	list_add(a, pos);
}

static inline void list_move(struct list_head *e, struct list_head *head)
{
	list_del(e);
	list_add(e, head);
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del(e);
	list_add_tail(e, head);
}

static inline bool list_empty(const struct list_head *h)
{
	return READ_ONCE(h->next) == h;
}

/* Link all of list's entries in between prev and next; list is left stale. */
static inline void __list_splice(struct list_head *list, struct list_head *prev,
				 struct list_head *next)
{
	struct list_head *first = list->next, *last = list->prev;

	prev->next = first;
	first->prev = prev;
	last->next = next;
	next->prev = last;
}

/* Move all of list's entries to the front of head, in order; list ends empty. */
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	if (list_empty(list))
		return;
	__list_splice(list, head, head->next);
	INIT_LIST_HEAD(list);
}

/* Move all of list's entries to the end of head, in order; list ends empty. */
static inline void list_splice_tail_init(struct list_head *list, struct list_head *head)
{
	if (list_empty(list))
		return;
	__list_splice(list, head->prev, head);
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)
#define list_last_entry(head, type, member) \
	list_entry((head)->prev, type, member)
#define list_first_entry_or_null(head, type, member) \
	(list_empty(head) ? NULL : list_first_entry(head, type, member))
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_entry(pos, head, member)                          \
	for (pos = list_first_entry(head, __typeof__(*pos), member);    \
	     &pos->member != (head); pos = list_next_entry(pos, member))
/* Safe against removal of pos inside the loop. */
#define list_for_each_entry_safe(pos, n, head, member)                  \
	for (pos = list_first_entry(head, __typeof__(*pos), member),    \
	     n = list_next_entry(pos, member);                          \
	     &pos->member != (head); pos = n, n = list_next_entry(n, member))

static inline size_t list_count(const struct list_head *head)
{
	size_t n = 0;

	for (const struct list_head *p = head->next; p != head; p = p->next)
		n++;
	return n;
}

#endif
