// SPDX-License-Identifier: MIT
/*
 * The memory bitmap as a radix tree, the layout of Joerg Roedel's "PM /
 * Hibernate: Memory bitmap scalability improvements" (July 2014), and the
 * entry points both layouts share.
 *
 * Per zone, the bits live in leaves of one page each (32768 pfns). Above
 * them, inner nodes of one page hold 512 pointers each, as many levels as
 * the zone's leaves need: a leaf covers 128 MiB, so a zone of up to 64 GiB
 * has one level, up to 32 TiB two. Finding a pfn's bit is then a walk of
 * `levels` pointers, not of a list of every leaf before it.
 * The sizes, checked against the constants by make test's docs-numbers:
 *   value: 128 MiB = BM_BITS_PER_BLOCK * PAGE_SIZE;
 *   value: 64 GiB = BM_BITS_PER_BLOCK * PAGE_SIZE * BM_ENTRIES_PER_LEVEL;
 *   value: 32 TiB = BM_BITS_PER_BLOCK * PAGE_SIZE * BM_ENTRIES_PER_LEVEL * BM_ENTRIES_PER_LEVEL; The leaves are also linked in pfn order, so
 * memory_bm_next_pfn() walks them without touching the tree, and the last
 * leaf found is remembered: consecutive pfns cost one comparison.
 *
 * Every page comes from the caller one at a time (bm_page_ops), and the
 * small structures that describe zones and nodes are carved from pages
 * too (the chain allocator), as Linux does: resume builds these bitmaps
 * when nearly all memory may be spoken for, where only single pages are
 * certain to be found.
 */
#include <pagoda/bitops.h>
#include <pagoda/params.h>
#include <pagoda/string.h>
#include <pagoda/watchdog.h>

#include "bitmap.h"

static int bitmap_param;
static const char *const bitmap_names[] = { "rtree", "list", NULL };
PARAM_ENUM("hibernate.bitmap", bitmap_param, bitmap_names,
	   "hibernation's memory bitmap: rtree (the radix tree) or list (the old linked list)");

enum bm_kind hibernate_bitmap_kind(void)
{
	return bitmap_param == 1 ? BM_LIST : BM_RTREE;
}

/* ---- pages and the chain allocator -------------------------------------- */

void *bm_get_page(struct memory_bitmap *bm)
{
	void *p = bm->ca.ops->alloc_page(bm->ca.ops->ctx);

	if (p)
		bm->data_pages++;
	return p;
}

/*
 * Objects of a few dozen bytes, taken from pages linked through their first
 * word; they are only ever freed together, with the bitmap.
 */
void *chain_alloc(struct chain_allocator *ca, unsigned int size)
{
	void *ret;

	size = ALIGN_UP(size, sizeof(unsigned long));
	if (!ca->chain || ca->used + size > BM_PAGE_SIZE) {
		void **page = ca->ops->alloc_page(ca->ops->ctx);

		if (!page)
			return NULL;
		*page = ca->chain;
		ca->chain = page;
		ca->used = sizeof(void *);
		ca->pages++;
	}
	ret = (u8 *)ca->chain + ca->used;
	ca->used += size;
	return ret;
}

static void chain_free(struct chain_allocator *ca)
{
	while (ca->chain) {
		void *next = *(void **)ca->chain;

		ca->ops->free_page(ca->ops->ctx, ca->chain);
		ca->chain = next;
	}
	ca->used = 0;
	ca->pages = 0;
}

unsigned long bm_find_next_bit(const unsigned long *bits, unsigned long nbits,
			       unsigned long from)
{
	unsigned long w, word;

	if (from >= nbits)
		return nbits;
	w = from / BITS_PER_LONG;
	word = bits[w] & (~0UL << (from % BITS_PER_LONG));
	for (;;) {
		if (word) {
			unsigned long bit = w * BITS_PER_LONG + (unsigned long)__builtin_ctzl(word);

			return bit < nbits ? bit : nbits;
		}
		if (++w * BITS_PER_LONG >= nbits)
			return nbits;
		word = bits[w];
	}
}

/* ---- the radix tree ------------------------------------------------------ */

static struct rtree_node *alloc_rtree_node(struct memory_bitmap *bm, struct list_head *list)
{
	struct rtree_node *node = chain_alloc(&bm->ca, sizeof(*node));

	if (!node)
		return NULL;
	node->data = bm_get_page(bm);
	if (!node->data)
		return NULL;
	list_add_tail(&node->list, list);
	return node;
}

/*
 * Add leaf number `index` (they come in order): first grow the tree upward
 * until it has room for the index, then walk down, making the missing
 * inner nodes and the leaf.
 */
static int add_rtree_block(struct memory_bitmap *bm, struct mem_zone_bm_rtree *zone,
			   unsigned long index)
{
	int levels_needed = 0;
	struct rtree_node *node, **slot;

	for (unsigned long n = index; n; n >>= BM_RTREE_LEVEL_SHIFT)
		levels_needed++;
	if (!zone->rtree) {
		zone->rtree = alloc_rtree_node(bm, &zone->leaves);
		return zone->rtree ? 0 : -ENOMEM;
	}
	while (zone->levels < levels_needed) {
		node = alloc_rtree_node(bm, &zone->nodes);
		if (!node)
			return -ENOMEM;
		node->data[0] = (unsigned long)zone->rtree;
		zone->rtree = node;
		zone->levels++;
	}
	node = zone->rtree;
	for (int level = zone->levels; level > 0; level--) {
		unsigned long i = (index >> ((level - 1) * BM_RTREE_LEVEL_SHIFT)) &
				  (BM_ENTRIES_PER_LEVEL - 1);

		slot = (struct rtree_node **)&node->data[i];
		if (!*slot) {
			*slot = alloc_rtree_node(bm, level == 1 ? &zone->leaves : &zone->nodes);
			if (!*slot)
				return -ENOMEM;
		}
		node = *slot;
	}
	return 0;
}

static int create_zone_bm_rtree(struct memory_bitmap *bm, const struct bm_zone_range *r)
{
	struct mem_zone_bm_rtree *zone = chain_alloc(&bm->ca, sizeof(*zone));
	unsigned long blocks = DIV_ROUND_UP(r->end_pfn - r->start_pfn, BM_BITS_PER_BLOCK);

	if (!zone)
		return -ENOMEM;
	memset(zone, 0, sizeof(*zone));
	INIT_LIST_HEAD(&zone->nodes);
	INIT_LIST_HEAD(&zone->leaves);
	zone->start_pfn = r->start_pfn;
	zone->end_pfn = r->end_pfn;
	/* Listed first, so that a failure half way frees what was made. */
	list_add_tail(&zone->list, &bm->zones);
	for (unsigned long i = 0; i < blocks; i++) {
		int err = add_rtree_block(bm, zone, i);

		if (err)
			return err;
		zone->blocks++;
	}
	return 0;
}

/* The leaf holding pfn's bit, through the position cache or the tree. */
static int rtree_find_bit(struct memory_bitmap *bm, unsigned long pfn, unsigned long **addr,
			  unsigned int *bit)
{
	struct mem_zone_bm_rtree *zone = bm->cur.zone;
	struct rtree_node *node;
	unsigned long block_pfn;

	if (!zone || pfn < zone->start_pfn || pfn >= zone->end_pfn) {
		struct mem_zone_bm_rtree *z;

		zone = NULL;
		list_for_each_entry(z, &bm->zones, list)
			if (pfn >= z->start_pfn && pfn < z->end_pfn) {
				zone = z;
				break;
			}
		if (!zone)
			return -EFAULT;
	}
	block_pfn = (pfn - zone->start_pfn) & ~(BM_BITS_PER_BLOCK - 1);
	node = bm->cur.node;
	if (zone != bm->cur.zone || !node || block_pfn != bm->cur.node_pfn) {
		unsigned long index = (pfn - zone->start_pfn) >> BM_BLOCK_SHIFT;

		node = zone->rtree;
		for (int level = zone->levels; level > 0; level--) {
			unsigned long i = (index >> ((level - 1) * BM_RTREE_LEVEL_SHIFT)) &
					  (BM_ENTRIES_PER_LEVEL - 1);

			node = (struct rtree_node *)node->data[i];
		}
		bm->cur.zone = zone;
		bm->cur.node = node;
		bm->cur.node_pfn = block_pfn;
	}
	*addr = node->data;
	*bit = (unsigned int)((pfn - zone->start_pfn) & (BM_BITS_PER_BLOCK - 1));
	return 0;
}

static void rtree_position_reset(struct memory_bitmap *bm)
{
	struct bm_walk *w = &bm->walk;

	w->zone = list_first_entry_or_null(&bm->zones, struct mem_zone_bm_rtree, list);
	w->node = w->zone ? list_first_entry(&w->zone->leaves, struct rtree_node, list) : NULL;
	w->node_pfn = 0;
	w->bit = 0;
	w->have_last = false;
}

/*
 * On to the next leaf, in this zone or the next one; false at the end.
 * A walk over every set bit of a big, full bitmap can outlast the
 * soft-lockup threshold with nothing wrong: each leaf tells the watchdog
 * (the seed's patch 6).
 */
static bool rtree_next_node(struct memory_bitmap *bm)
{
	struct bm_walk *w = &bm->walk;

	touch_softlockup_watchdog();
	if (w->node->list.next != &w->zone->leaves) {
		w->node = list_next_entry(w->node, list);
		w->node_pfn += BM_BITS_PER_BLOCK;
		w->bit = 0;
		return true;
	}
	if (w->zone->list.next != &bm->zones) {
		w->zone = list_next_entry(w->zone, list);
		w->node = list_first_entry(&w->zone->leaves, struct rtree_node, list);
		w->node_pfn = 0;
		w->bit = 0;
		return true;
	}
	w->zone = NULL;
	return false;
}

static unsigned long rtree_next_pfn(struct memory_bitmap *bm)
{
	struct bm_walk *w = &bm->walk;

	while (w->zone) {
		unsigned long left = w->zone->end_pfn - w->zone->start_pfn - w->node_pfn;
		unsigned long nbits = left < BM_BITS_PER_BLOCK ? left : BM_BITS_PER_BLOCK;
		unsigned long bit = bm_find_next_bit(w->node->data, nbits, w->bit);

		if (bit < nbits) {
			w->bit = (unsigned int)bit + 1;
			w->have_last = true;
			return w->zone->start_pfn + w->node_pfn + bit;
		}
		if (!rtree_next_node(bm))
			break;
	}
	w->have_last = false;
	return BM_END_OF_MAP;
}

/* ---- the entry points ---------------------------------------------------- */

int memory_bm_create(struct memory_bitmap *bm, enum bm_kind kind,
		     const struct bm_zone_range *zones, unsigned int nr_zones,
		     const struct bm_page_ops *ops)
{
	int err = 0;

	memset(bm, 0, sizeof(*bm));
	bm->kind = kind;
	bm->ca.ops = ops;
	INIT_LIST_HEAD(&bm->zones);
	INIT_LIST_HEAD(&bm->blocks);
	for (unsigned int i = 0; i < nr_zones && !err; i++)
		if (zones[i].end_pfn < zones[i].start_pfn)
			err = -EINVAL;
	if (!err && kind == BM_LIST) {
		err = bm_list_create(bm, zones, nr_zones);
	} else if (!err) {
		for (unsigned int i = 0; i < nr_zones && !err; i++)
			if (zones[i].end_pfn > zones[i].start_pfn)
				err = create_zone_bm_rtree(bm, &zones[i]);
	}
	if (err) {
		memory_bm_free(bm);
		return err;
	}
	memory_bm_position_reset(bm);
	return 0;
}

void memory_bm_free(struct memory_bitmap *bm)
{
	const struct bm_page_ops *ops = bm->ca.ops;
	struct mem_zone_bm_rtree *zone;
	struct rtree_node *n;
	struct bm_block *b;

	if (!ops)
		return;
	/* The data pages; the structures that point to them are in the chain. */
	list_for_each_entry(zone, &bm->zones, list) {
		list_for_each_entry(n, &zone->nodes, list)
			ops->free_page(ops->ctx, n->data);
		list_for_each_entry(n, &zone->leaves, list)
			ops->free_page(ops->ctx, n->data);
	}
	list_for_each_entry(b, &bm->blocks, hook)
		ops->free_page(ops->ctx, b->data);
	chain_free(&bm->ca);
	INIT_LIST_HEAD(&bm->zones);
	INIT_LIST_HEAD(&bm->blocks);
	bm->data_pages = 0;
	memset(&bm->cur, 0, sizeof(bm->cur));
	memset(&bm->walk, 0, sizeof(bm->walk));
}

unsigned long memory_bm_pages(const struct memory_bitmap *bm)
{
	return bm->data_pages + bm->ca.pages;
}

static int find_bit(struct memory_bitmap *bm, unsigned long pfn, unsigned long **addr,
		    unsigned int *bit)
{
	return bm->kind == BM_LIST ? bm_list_find_bit(bm, pfn, addr, bit) :
				     rtree_find_bit(bm, pfn, addr, bit);
}

void memory_bm_set_bit(struct memory_bitmap *bm, unsigned long pfn)
{
	memory_bm_set_bit_check(bm, pfn);
}

int memory_bm_set_bit_check(struct memory_bitmap *bm, unsigned long pfn)
{
	unsigned long *addr;
	unsigned int bit;
	int err = find_bit(bm, pfn, &addr, &bit);

	if (!err)
		addr[bit / BITS_PER_LONG] |= 1UL << (bit % BITS_PER_LONG);
	return err;
}

void memory_bm_clear_bit(struct memory_bitmap *bm, unsigned long pfn)
{
	unsigned long *addr;
	unsigned int bit;

	if (!find_bit(bm, pfn, &addr, &bit))
		addr[bit / BITS_PER_LONG] &= ~(1UL << (bit % BITS_PER_LONG));
}

bool memory_bm_test_bit(struct memory_bitmap *bm, unsigned long pfn)
{
	unsigned long *addr;
	unsigned int bit;

	if (find_bit(bm, pfn, &addr, &bit))
		return false;
	return addr[bit / BITS_PER_LONG] >> (bit % BITS_PER_LONG) & 1;
}

bool memory_bm_pfn_present(struct memory_bitmap *bm, unsigned long pfn)
{
	unsigned long *addr;
	unsigned int bit;

	return !find_bit(bm, pfn, &addr, &bit);
}

void memory_bm_position_reset(struct memory_bitmap *bm)
{
	if (bm->kind == BM_LIST)
		bm_list_position_reset(bm);
	else
		rtree_position_reset(bm);
}

unsigned long memory_bm_next_pfn(struct memory_bitmap *bm)
{
	return bm->kind == BM_LIST ? bm_list_next_pfn(bm) : rtree_next_pfn(bm);
}

void memory_bm_clear_current(struct memory_bitmap *bm)
{
	struct bm_walk *w = &bm->walk;

	if (!w->have_last || !w->bit)
		return;
	if (bm->kind == BM_LIST) {
		bm_list_clear_current(bm);
		return;
	}
	w->node->data[(w->bit - 1) / BITS_PER_LONG] &= ~(1UL << ((w->bit - 1) % BITS_PER_LONG));
}
