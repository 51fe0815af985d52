// SPDX-License-Identifier: MIT
/*
 * Red-black trees (include/pagoda/rbtree.h). The rules: every node is red
 * or black, the root is black, a red node has no red child, and every path
 * from a node down to a missing child passes the same number of black
 * nodes. Together they keep the height under 2 log2(n + 1). An insert adds
 * a red node and repairs red-red pairs upward (recolouring, at most two
 * rotations); an erase that removes a black node repairs the missing
 * black upward (at most three rotations). The textbook algorithms
 * (Cormen et al., chapter 13), with NULL for the leaves, so the erase
 * repair carries the parent of its possibly-NULL node along.
 */
#include <pagoda/rbtree.h>

static bool is_red(const struct rb_node *n)
{
	return n && n->red;
}

/* Make whatever pointed at old (its parent's slot, or the root) point at new. */
static void change_child(struct rb_node *old, struct rb_node *new, struct rb_node *parent,
			 struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

/* x's right child takes x's place, x becomes its left child. */
static void rotate_left(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	change_child(x, y, x->parent, root);
	y->left = x;
	x->parent = y;
}

static void rotate_right(struct rb_node *x, struct rb_root *root)
{
	struct rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	change_child(x, y, x->parent, root);
	y->right = x;
	x->parent = y;
}

void rb_insert_color(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *p;

	while ((p = z->parent) && p->red) {
		/* p is red, so not the root: the grandparent exists. */
		struct rb_node *g = p->parent;

		if (p == g->left) {
			struct rb_node *u = g->right;

			if (is_red(u)) {
				/* Red uncle: push the grandparent's black down, go up. */
				p->red = u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->right) {
				/* Inner grandchild: turn it into the outer case. */
				rotate_left(p, root);
				z = p;
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			rotate_right(g, root);
		} else {
			struct rb_node *u = g->left;

			if (is_red(u)) {
				p->red = u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->left) {
				rotate_right(p, root);
				z = p;
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			rotate_left(g, root);
		}
	}
	root->rb_node->red = false;
}

/* x (maybe NULL), child of parent, is one black short: repair upward. */
static void erase_fixup(struct rb_node *x, struct rb_node *parent, struct rb_root *root)
{
	while (x != root->rb_node && !is_red(x)) {
		/* x is short a black, so its sibling w has one to spare: it exists. */
		if (x == parent->left) {
			struct rb_node *w = parent->right;

			if (w->red) {
				w->red = false;
				parent->red = true;
				rotate_left(parent, root);
				w = parent->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = true;
				x = parent;
				parent = x->parent;
				continue;
			}
			if (!is_red(w->right)) {
				w->left->red = false;
				w->red = true;
				rotate_right(w, root);
				w = parent->right;
			}
			w->red = parent->red;
			parent->red = false;
			w->right->red = false;
			rotate_left(parent, root);
		} else {
			struct rb_node *w = parent->left;

			if (w->red) {
				w->red = false;
				parent->red = true;
				rotate_right(parent, root);
				w = parent->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = true;
				x = parent;
				parent = x->parent;
				continue;
			}
			if (!is_red(w->left)) {
				w->right->red = false;
				w->red = true;
				rotate_left(w, root);
				w = parent->left;
			}
			w->red = parent->red;
			parent->red = false;
			w->left->red = false;
			rotate_right(parent, root);
		}
		x = root->rb_node;
		break;
	}
	if (x)
		x->red = false;
}

void rb_erase(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *child, *parent;
	bool removed_red;

	if (!z->left || !z->right) {
		/* At most one child: it takes z's place. */
		child = z->left ? z->left : z->right;
		parent = z->parent;
		removed_red = z->red;
		if (child)
			child->parent = parent;
		change_child(z, child, parent, root);
	} else {
		/* Two children: z's successor y (no left child) takes z's place and colour. */
		struct rb_node *y = z->right;

		while (y->left)
			y = y->left;
		removed_red = y->red;
		child = y->right;
		if (y->parent == z) {
			parent = y;
		} else {
			parent = y->parent;
			parent->left = child;
			if (child)
				child->parent = parent;
			y->right = z->right;
			z->right->parent = y;
		}
		y->left = z->left;
		z->left->parent = y;
		y->parent = z->parent;
		change_child(z, y, z->parent, root);
		y->red = z->red;
	}
	if (!removed_red)
		erase_fixup(child, parent, root);
}

void rb_replace_node(struct rb_node *old, struct rb_node *new, struct rb_root *root)
{
	*new = *old;
	if (old->left)
		old->left->parent = new;
	if (old->right)
		old->right->parent = new;
	change_child(old, new, old->parent, root);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->left)
		n = n->left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->right)
		n = n->right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct rb_node *)n;
	}
	/* Up until we come from a left child: that parent is next. */
	while ((p = n->parent) && n == p->right)
		n = p;
	return (struct rb_node *)p;
}

struct rb_node *rb_prev(const struct rb_node *n)
{
	const struct rb_node *p;

	if (n->left) {
		n = n->left;
		while (n->right)
			n = n->right;
		return (struct rb_node *)n;
	}
	while ((p = n->parent) && n == p->left)
		n = p;
	return (struct rb_node *)p;
}
