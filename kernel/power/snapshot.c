// SPDX-License-Identifier: MIT
/*
 * The snapshot: which page frames a hibernation image holds, the atomic
 * copy of them, and at resume where each page of the image is put
 * (Linux's kernel/power/snapshot.c, the parts that are not the bitmap).
 *
 * Saving. A frame is saved when it is RAM of this boot, not free in the
 * buddy allocator, not on a per-CPU list, and not one of the snapshot's own
 * pages ("forbidden"). Before the atomic copy the saver counts those frames
 * and allocates as many copy pages and a margin, since the system runs on
 * between the count and the copy. The copy itself runs with interrupts off
 * and every other CPU parked: it walks the frames in pfn order, sets each
 * saved one in `orig`, and copies it to the next page of `copy`; so the
 * i-th set bit of one names the frame whose page is in the i-th set bit of
 * the other, and the writer needs no list.
 *
 * Loading. At resume the boot kernel is running in the very frames the
 * image wants back. It marks the image's frames in a bitmap (the seed's
 * hot path: one lookup per image page), then allocates pages: one that
 * happens to be an image frame can take that frame's page directly;
 * every other page it reads goes into a "safe" page (a frame the image
 * does not use) and is listed in a pbe chain for the arch's restore code
 * to copy into place at the very end, when nothing else runs.
 */
#include <pagoda/boot_info.h>
#include <pagoda/gfp.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

#include "power.h"

struct snapshot *snapshot_in_progress;

unsigned int hibernate_ram_regions(struct swsusp_region *r, unsigned int max)
{
	unsigned int n = 0;

	/* Usable RAM only: firmware tables and device memory stay where they are. */
	for (u32 i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *m = &boot_info.mem[i];
		u64 s = PFN_UP(m->base), e = PFN_DOWN(m->base + m->size);
		unsigned int j;

		if (m->type != BOOT_MEM_USABLE || s >= e)
			continue;
		/* Sorted insertion; touching ranges are merged. */
		for (j = 0; j < n && r[j].start_pfn < s; j++)
			;
		if (j > 0 && r[j - 1].end_pfn >= s) {
			if (e > r[j - 1].end_pfn)
				r[j - 1].end_pfn = e;
			continue;
		}
		if (n == max)
			continue;
		memmove(&r[j + 1], &r[j], (n - j) * sizeof(*r));
		r[j] = (struct swsusp_region){ s, e };
		n++;
	}
	return n;
}

unsigned int hibernate_zones(struct bm_zone_range *z, unsigned int max)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	struct zone *zone;
	unsigned int n = 0;

	for_each_zone_in_node(zone, pgdat) {
		if (!zone->spanned_pages || n == max)
			continue;
		z[n].start_pfn = zone->zone_start_pfn;
		z[n].end_pfn = zone_end_pfn(zone);
		n++;
	}
	return n;
}

/* --- the snapshot's own pages ------------------------------------------- */

/* Pages of the two basic bitmaps: ordinary pages, saved like any other. */
static void *plain_alloc(void *ctx)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);

	(void)ctx;
	return page ? page_address(page) : NULL;
}

static void plain_free(void *ctx, void *p)
{
	(void)ctx;
	__free_page(virt_to_page(p));
}

static const struct bm_page_ops plain_ops = { plain_alloc, plain_free, NULL };

/*
 * Pages of the other bitmaps: forbidden (not saved) and free. They are not
 * in the image, so after a resume their contents are whatever the boot
 * kernel left there: such a bitmap must never be walked again, not even
 * by memory_bm_free(). swsusp_free() gives its pages back instead, from
 * the two basic bitmaps, which are saved. (free_page is only called by
 * memory_bm_create() when it fails half way.)
 */
static void *forbidden_alloc(void *ctx)
{
	struct snapshot *s = ctx;
	void *p = plain_alloc(NULL);

	if (p) {
		memory_bm_set_bit(&s->forbidden, PHYS_PFN(__pa(p)));
		memory_bm_set_bit(&s->free, PHYS_PFN(__pa(p)));
	}
	return p;
}

static void forbidden_free(void *ctx, void *p)
{
	struct snapshot *s = ctx;

	memory_bm_clear_bit(&s->forbidden, PHYS_PFN(__pa(p)));
	memory_bm_clear_bit(&s->free, PHYS_PFN(__pa(p)));
	plain_free(NULL, p);
}

/* A page swsusp_free() gives back: forbidden and free. */
static struct page *snapshot_alloc_page(struct snapshot *s)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_NOWARN);

	if (page) {
		memory_bm_set_bit(&s->forbidden, page_to_pfn(page));
		memory_bm_set_bit(&s->free, page_to_pfn(page));
	}
	return page;
}

static void release_pfn(unsigned long pfn, void *arg)
{
	(void)arg;
	__free_page(pfn_to_page(pfn));
}

/* hibernate.bitmap=list stands for the kernel before the seed: the pfn walk too. */
static void swsusp_free(struct snapshot *s)
{
	if (s->kind == BM_LIST)
		swsusp_free_pfns(&s->forbidden, &s->free, s->zones, s->nr_zones, release_pfn, NULL);
	else
		swsusp_free_bits(&s->forbidden, &s->free, release_pfn, NULL);
}

static void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->kind = hibernate_bitmap_kind();
	s->nr_zones = hibernate_zones(s->zones, MAX_NR_ZONES);
	s->nr_regions = hibernate_ram_regions(s->regions, SWSUSP_MAX_REGIONS);
}

static int snapshot_basic_bitmaps(struct snapshot *s)
{
	int err = memory_bm_create(&s->forbidden, s->kind, s->zones, s->nr_zones, &plain_ops);

	if (err)
		return err;
	err = memory_bm_create(&s->free, s->kind, s->zones, s->nr_zones, &plain_ops);
	if (err) {
		memory_bm_free(&s->forbidden);
		return err;
	}
	s->have_basic = true;
	return 0;
}

/* The bitmaps keep a pointer to their ops: they live in the snapshot. */
static const struct bm_page_ops *forbidden_ops(struct snapshot *s)
{
	s->own_ops = (struct bm_page_ops){ forbidden_alloc, forbidden_free, s };
	return &s->own_ops;
}

int snapshot_create_bitmaps(struct snapshot *s)
{
	const struct bm_page_ops *ops;
	int err;

	snapshot_init(s);
	if (!s->nr_zones || !s->nr_regions)
		return -ENODEV;
	err = snapshot_basic_bitmaps(s);
	if (err)
		return err;
	ops = forbidden_ops(s);
	err = memory_bm_create(&s->orig, s->kind, s->zones, s->nr_zones, ops);
	if (err)
		goto fail;
	err = memory_bm_create(&s->copy, s->kind, s->zones, s->nr_zones, ops);
	if (err)
		goto fail;
	return 0;
fail:
	snapshot_release(s);
	return err;
}

/* --- which frames are saved --------------------------------------------- */

/*
 * Walk the frames of the zones in pfn order, calling save(pfn) for each
 * frame the image must hold. A free buddy block is stepped over whole.
 */
static unsigned long walk_saveable(struct snapshot *s, bool (*save)(struct snapshot *, unsigned long))
{
	unsigned long n = 0;
	unsigned int r = 0;

	for (unsigned int z = 0; z < s->nr_zones; z++) {
		unsigned long pfn = s->zones[z].start_pfn, end = s->zones[z].end_pfn;

		while (pfn < end) {
			struct page *page;

			/* RAM only; the regions are sorted, so the cursor moves forward. */
			while (r < s->nr_regions && s->regions[r].end_pfn <= pfn)
				r++;
			if (r == s->nr_regions)
				return n;
			if (pfn < s->regions[r].start_pfn) {
				pfn = s->regions[r].start_pfn;
				continue;
			}
			page = pfn_to_page(pfn);
			if (page->flags & PG_buddy) {
				pfn += 1UL << page->order;
				continue;
			}
			if (!(page->flags & (PG_pcp | PG_offline)) &&
			    !memory_bm_test_bit(&s->forbidden, pfn)) {
				if (!save(s, pfn))
					return ~0UL;
				n++;
			}
			pfn++;
		}
	}
	return n;
}

static bool count_only(struct snapshot *s, unsigned long pfn)
{
	(void)s;
	(void)pfn;
	return true;
}

int snapshot_preallocate(struct snapshot *s)
{
	unsigned long need, i;

	/* Pages parked on per-CPU lists are free memory, not saved. */
	drain_all_pages(NODE_DATA(0));
	need = walk_saveable(s, count_only);
	/* What runs between now and the copy allocates too. */
	need += need / 16 + 256;
	for (i = 0; i < need; i++) {
		struct page *page = snapshot_alloc_page(s);

		if (!page) {
			pr_err("PM: hibernation: not enough free memory for the copies "
			       "(%lu of %lu pages)\n", i, need);
			return -ENOMEM;
		}
		memory_bm_set_bit(&s->copy, page_to_pfn(page));
	}
	s->nr_copies = need;
	memory_bm_position_reset(&s->copy);
	return 0;
}

static bool save_one(struct snapshot *s, unsigned long pfn)
{
	unsigned long to = memory_bm_next_pfn(&s->copy);

	if (to == BM_END_OF_MAP)
		return false;
	memory_bm_set_bit(&s->orig, pfn);
	copy_page(page_address(pfn_to_page(to)), page_address(pfn_to_page(pfn)));
	return true;
}

int snapshot_copy_atomic(struct snapshot *s)
{
	unsigned long n;

	memory_bm_position_reset(&s->copy);
	n = walk_saveable(s, save_one);
	if (n == ~0UL)
		return -ENOMEM; /* more to save than copies: the margin was too small */
	s->image_pages = n;
	return 0;
}

void snapshot_trim_copies(struct snapshot *s)
{
	unsigned long pfn, i = 0;

	memory_bm_position_reset(&s->copy);
	while ((pfn = memory_bm_next_pfn(&s->copy)) != BM_END_OF_MAP) {
		if (i++ < s->image_pages)
			continue;
		memory_bm_clear_current(&s->copy);
		memory_bm_clear_bit(&s->forbidden, pfn);
		memory_bm_clear_bit(&s->free, pfn);
		__free_page(pfn_to_page(pfn));
		s->nr_copies--;
	}
}

void snapshot_release(struct snapshot *s)
{
	if (!s->have_basic)
		return;
	/* The copies, and the pages of orig and copy themselves (forbidden_alloc()). */
	swsusp_free(s);
	memory_bm_free(&s->free);
	memory_bm_free(&s->forbidden);
	s->have_basic = false;
}

/* --- loading ------------------------------------------------------------ */

int restore_plan_init(struct restore_plan *p, unsigned long image_pages)
{
	const struct bm_page_ops *ops;
	int err;

	memset(p, 0, sizeof(*p));
	snapshot_init(&p->snap);
	if (!p->snap.nr_zones)
		return -ENODEV;
	err = snapshot_basic_bitmaps(&p->snap);
	if (err)
		return err;
	ops = forbidden_ops(&p->snap);
	err = memory_bm_create(&p->image, p->snap.kind, p->snap.zones, p->snap.nr_zones, ops);
	if (!err) {
		p->have_image = true;
		err = memory_bm_create(&p->owned, p->snap.kind, p->snap.zones,
				       p->snap.nr_zones, ops);
		p->have_owned = !err;
	}
	p->image_pages = image_pages;
	if (err)
		restore_plan_release(p);
	return err;
}

void restore_plan_mark(struct restore_plan *p, const u64 *pfns, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		memory_bm_set_bit(&p->image, pfns[i]);
}

static unsigned long pbe_pages_for(unsigned long entries)
{
	return (entries + PBE_PER_PAGE - 1) / PBE_PER_PAGE;
}

int restore_plan_reserve(struct restore_plan *p, unsigned long arch_extra)
{
	unsigned long cap = 0;

	/*
	 * Allocate until the safe pages cover every image page this loader
	 * does not own, the pbe chain for them, and the arch's pages. Each
	 * allocation either is safe or makes one more image page direct.
	 */
	for (;;) {
		unsigned long relocated = p->image_pages - p->direct;
		unsigned long want = relocated + pbe_pages_for(relocated) + arch_extra;
		struct page *page;
		unsigned long pfn;

		if (p->nr_safe >= want)
			break;
		page = snapshot_alloc_page(&p->snap);
		if (!page) {
			pr_err("PM: resume: not enough free memory to load the image "
			       "(%lu safe pages of %lu)\n", p->nr_safe, want);
			return -ENOMEM;
		}
		pfn = page_to_pfn(page);
		if (memory_bm_test_bit(&p->image, pfn)) {
			memory_bm_set_bit(&p->owned, pfn);
			p->direct++;
			continue;
		}
		if (p->nr_safe == cap) {
			struct page **grown;

			cap = cap ? cap * 2 : 1024;
			grown = kmalloc(cap * sizeof(*grown), GFP_KERNEL);
			if (!grown) {
				__free_page(page);
				memory_bm_clear_bit(&p->snap.forbidden, pfn);
				memory_bm_clear_bit(&p->snap.free, pfn);
				return -ENOMEM;
			}
			if (p->safe) {
				memcpy(grown, p->safe, p->nr_safe * sizeof(*grown));
				kfree(p->safe);
			}
			p->safe = grown;
		}
		p->safe[p->nr_safe++] = page;
	}
	p->relocated = p->image_pages - p->direct;
	return 0;
}

static void *take_safe_page(struct restore_plan *p)
{
	if (p->safe_used == p->nr_safe)
		return NULL;
	return page_address(p->safe[p->safe_used++]);
}

void *restore_plan_safe_page(struct restore_plan *p)
{
	void *va = take_safe_page(p);

	if (va)
		memset(va, 0, PAGE_SIZE);
	return va;
}

void *restore_plan_buffer(struct restore_plan *p, u64 pfn)
{
	void *buf;

	if (memory_bm_test_bit(&p->owned, pfn))
		return page_address(pfn_to_page(pfn)); /* its own frame: read in place */
	if (!p->pbe_tail || p->pbe_tail->count == PBE_PER_PAGE) {
		struct pbe_page *pp = restore_plan_safe_page(p);

		if (!pp)
			return NULL;
		if (p->pbe_tail)
			p->pbe_tail->next_pa = __pa(pp);
		else
			p->pbe_head = pp;
		p->pbe_tail = pp;
	}
	buf = take_safe_page(p); /* the read fills all of it */
	if (!buf)
		return NULL;
	p->pbe_tail->e[p->pbe_tail->count].src = __pa(buf);
	p->pbe_tail->e[p->pbe_tail->count].dst = PFN_PHYS(pfn);
	p->pbe_tail->count++;
	return buf;
}

void restore_plan_release(struct restore_plan *p)
{
	/* image and owned go with the rest in swsusp_free() (forbidden_alloc()). */
	p->have_owned = p->have_image = false;
	kfree(p->safe);
	p->safe = NULL;
	snapshot_release(&p->snap);
}
