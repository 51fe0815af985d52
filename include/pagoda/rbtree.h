/* SPDX-License-Identifier: MIT */
/*
 * Red-black trees, intrusive, with Linux's interface (include/linux/rbtree.h):
 * a struct rb_node inside each element, the caller walks down to find the
 * link where a new node goes (it alone knows the order), links it with
 * rb_link_node() and lets rb_insert_color() rebalance. Lookups, inserts and
 * erases cost O(log n); rb_first/rb_next/rb_prev walk in order.
 */
#ifndef PAGODA_RBTREE_H
#define PAGODA_RBTREE_H

#include <pagoda/types.h>

struct rb_node {
	struct rb_node *parent;
	struct rb_node *left, *right;
	bool red;
};

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT ((struct rb_root){ NULL })
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member) ((ptr) ? rb_entry(ptr, type, member) : NULL)

/* Put node at *link, a child slot of parent (NULL for the root), red. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->parent = parent;
	node->left = node->right = NULL;
	node->red = true;
	*link = node;
}

/* Restore the red-black rules after rb_link_node(). */
void rb_insert_color(struct rb_node *node, struct rb_root *root);
/* Take node out of the tree. */
void rb_erase(struct rb_node *node, struct rb_root *root);
/* Put new where old was, same place in the order (no rebalancing). */
void rb_replace_node(struct rb_node *old, struct rb_node *new, struct rb_root *root);

struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

#endif
