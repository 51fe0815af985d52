// SPDX-License-Identifier: MIT
/*
 * A process's areas (struct vm_area, Linux's vm_area_struct): what is
 * mapped where in its lower half, with which protection. The areas of a
 * process never overlap; they sit in a red-black tree keyed by start
 * address, so the area holding an address is found in O(log n)
 * (find_vma()), and on a list in address order (vma->next) for the walks
 * that visit every one (fork, exit, checkpoint, maps).
 *
 * The calls that change them split and merge areas as Linux's mm/mmap.c,
 * mm/mprotect.c and mm/mremap.c do: an operation on part of an area first
 * splits it at the range's edges (split_vma()), and afterwards neighbours
 * that have become alike (adjacent, anonymous, same protection) are merged
 * back into one (vma_merge_around()), so that mapping page after page, or
 * mprotect there and back, leaves one area, not a trail of them.
 *
 * Areas with a name ("[vdso]", "[vvar]") hold the kernel's pages: they are
 * mapped again on fork, never freed, and never merged.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>
#include <pagoda/rbtree.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

/*
 * Linux's heuristic overcommit (vm.overcommit_memory=0): a single request
 * for more than all the memory there is (no swap here) is refused at once,
 * before a page is touched. Smaller ones are tried page by page and give
 * everything back if the memory runs out on the way.
 */
bool vm_enough_memory(u64 bytes)
{
	return bytes / PAGE_SIZE <= totalram_pages();
}

struct vm_area *find_vma(struct process *p, u64 addr)
{
	struct rb_node *n = p->mm_rb.rb_node;
	struct vm_area *best = NULL;

	while (n) {
		struct vm_area *v = rb_entry(n, struct vm_area, rb);

		if (v->end > addr) {
			best = v;
			if (v->start <= addr)
				break;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best;
}

static struct vm_area *vma_prev(struct vm_area *v)
{
	return rb_entry_safe(rb_prev(&v->rb), struct vm_area, rb);
}

/* Put v (not overlapping any area) in the tree and on the list. */
static void vma_link(struct process *p, struct vm_area *v)
{
	struct rb_node **link = &p->mm_rb.rb_node, *parent = NULL;
	struct vm_area *prev;

	while (*link) {
		parent = *link;
		link = v->start < rb_entry(parent, struct vm_area, rb)->start ? &parent->left :
										 &parent->right;
	}
	rb_link_node(&v->rb, parent, link);
	rb_insert_color(&v->rb, &p->mm_rb);
	prev = vma_prev(v);
	if (prev) {
		v->next = prev->next;
		prev->next = v;
	} else {
		v->next = p->vmas;
		p->vmas = v;
	}
	p->map_count++;
}

static void vma_unlink(struct process *p, struct vm_area *v)
{
	struct vm_area *prev = vma_prev(v);

	if (prev)
		prev->next = v->next;
	else
		p->vmas = v->next;
	rb_erase(&v->rb, &p->mm_rb);
	p->map_count--;
}

/* Cut v in two at addr (strictly inside it): 0, or -ENOMEM with v unchanged. */
static int split_vma(struct process *p, struct vm_area *v, u64 addr)
{
	struct vm_area *tail = kmalloc(sizeof(*tail), GFP_KERNEL);

	if (!tail)
		return -ENOMEM;
	*tail = *v;
	tail->start = addr;
	v->end = addr;
	vma_link(p, tail);
	return 0;
}

/* Make addr a boundary between areas, if an area spans it: 0 or -ENOMEM. */
static int split_at(struct process *p, u64 addr)
{
	struct vm_area *v = find_vma(p, addr);

	if (!v || v->start >= addr)
		return 0;
	return split_vma(p, v, addr);
}

/* Can b be folded into a, which ends where b starts? */
static bool vma_mergeable(const struct vm_area *a, const struct vm_area *b)
{
	return a && b && a->end == b->start && a->prot == b->prot && !a->name && !b->name;
}

/* Fold v into its neighbours where they are alike; the area that holds v's range now. */
static struct vm_area *vma_merge_around(struct process *p, struct vm_area *v)
{
	struct vm_area *prev = vma_prev(v), *next;

	if (vma_mergeable(prev, v)) {
		vma_unlink(p, v);
		prev->end = v->end;
		kfree(v);
		v = prev;
	}
	next = v->next;
	if (vma_mergeable(v, next)) {
		vma_unlink(p, next);
		v->end = next->end;
		kfree(next);
	}
	return v;
}

/* Merge across the edges of [start, end) after an operation on it. */
static void merge_range(struct process *p, u64 start, u64 end)
{
	struct vm_area *v = find_vma(p, start);

	while (v && v->start < end) {
		v = vma_merge_around(p, v);
		if (v->end >= end)
			break;
		v = v->next;
	}
	/* The area that ends at start, and the one starting at end, may have joined. */
	v = find_vma(p, end);
	if (v && v->start == end)
		vma_merge_around(p, v);
}

/* Unmap whatever pages of [start, end) are mapped, freeing them if ours. */
static void unmap_pages(struct process *p, u64 start, u64 end, bool ours)
{
	for (u64 a = start; a < end; a += PAGE_SIZE) {
		phys_addr_t pa;

		if (arch_lookup(&p->mm, a, &pa, NULL))
			continue;
		arch_unmap_range(&p->mm, a, PAGE_SIZE);
		if (ours)
			__free_page(pfn_to_page(PHYS_PFN(pa)));
	}
}

/*
 * An area's protection as the program asked for it: PROT_WRITE and
 * PROT_EXEC, or PROT_NOACCESS alone for PROT_NONE; always present and
 * user. PROT_NONE pages stay readable in the page tables for now (the
 * arch has no present-but-inaccessible entry yet): only the area says so.
 */
static unsigned int area_prot(unsigned int prot)
{
	if (prot & PROT_NOACCESS)
		return PROT_NOACCESS | PROT_PRESENT | PROT_USER;
	return (prot & (PROT_WRITE | PROT_EXEC)) | PROT_PRESENT | PROT_USER;
}

/* What the page tables get for an area's protection. */
static unsigned int pte_prot(unsigned int prot)
{
	return prot & ~PROT_NOACCESS;
}

/* Is [start, end) free of areas? */
static bool range_free(struct process *p, u64 start, u64 end)
{
	struct vm_area *v;

	if (end > TASK_SIZE || end <= start)
		return false;
	v = find_vma(p, start);
	return !v || v->start >= end;
}

int process_map_kernel_pages(struct process *p, u64 va, const phys_addr_t *pas,
			     unsigned int n, unsigned int prot, const char *name)
{
	struct vm_area *vma;
	unsigned int flags = prot | PROT_PRESENT | PROT_USER;
	int err = 0;

	if (!range_free(p, va, va + (u64)n * PAGE_SIZE))
		return -EEXIST;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return -ENOMEM;
	for (unsigned int i = 0; i < n && !err; i++) {
		err = arch_map_range(&p->mm, va + i * PAGE_SIZE, pas[i], PAGE_SIZE, flags);
		if (err)
			unmap_pages(p, va, va + i * PAGE_SIZE, false);
	}
	if (err) {
		kfree(vma);
		return err;
	}
	*vma = (struct vm_area){ .start = va, .end = va + n * PAGE_SIZE, .prot = flags,
				 .name = name };
	vma_link(p, vma);
	return 0;
}

int process_map_anon(struct process *p, u64 va, u64 size, unsigned int prot)
{
	unsigned int flags = area_prot(prot);
	struct vm_area *vma;
	int err = 0;

	if (!size || !IS_ALIGNED(va, PAGE_SIZE) || !IS_ALIGNED(size, PAGE_SIZE))
		return -EINVAL;
	if (!range_free(p, va, va + size))
		return va + size > TASK_SIZE || va + size < va ? -EINVAL : -EEXIST;
	if (!vm_enough_memory(size))
		return -ENOMEM;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return -ENOMEM;
	for (u64 off = 0; off < size; off += PAGE_SIZE) {
		struct page *pg = alloc_page(GFP_KERNEL | __GFP_ZERO);

		err = pg ? arch_map_range(&p->mm, va + off, page_to_phys(pg), PAGE_SIZE,
					  pte_prot(flags)) : -ENOMEM;
		if (err) {
			if (pg)
				__free_page(pg);
			/*
			 * Give back every page mapped so far: no area will own
			 * them, so nothing else would ever free them.
			 */
			unmap_pages(p, va, va + off, true);
			kfree(vma);
			return err;
		}
	}
	*vma = (struct vm_area){ .start = va, .end = va + size, .prot = flags };
	vma_link(p, vma);
	vma_merge_around(p, vma);
	return 0;
}

int process_unmap(struct process *p, u64 start, u64 end)
{
	struct vm_area *v;
	int err;

	if (!IS_ALIGNED(start, PAGE_SIZE) || !IS_ALIGNED(end, PAGE_SIZE) || end <= start ||
	    end > TASK_SIZE)
		return -EINVAL;
	v = find_vma(p, start);
	if (!v || v->start >= end)
		return 0;
	/* Both cuts first: if the second fails, nothing is unmapped yet. */
	err = split_at(p, start);
	if (!err)
		err = split_at(p, end);
	if (err) {
		merge_range(p, start, start);
		return err;
	}
	v = find_vma(p, start);
	while (v && v->start < end) {
		struct vm_area *next = v->next;

		unmap_pages(p, v->start, v->end, !v->name);
		vma_unlink(p, v);
		kfree(v);
		v = next;
	}
	return 0;
}

int process_protect(struct process *p, u64 start, u64 end, unsigned int prot)
{
	unsigned int flags = area_prot(prot);
	u64 at = start;
	int err = 0;

	if (!IS_ALIGNED(start, PAGE_SIZE) || !IS_ALIGNED(end, PAGE_SIZE) || end <= start ||
	    end > TASK_SIZE)
		return -EINVAL;
	/*
	 * Area by area from start, as Linux's mprotect: a hole (-ENOMEM) or
	 * the vDSO (-EACCES) stops it there, and the areas before it keep
	 * their new protection.
	 */
	while (at < end) {
		struct vm_area *v = find_vma(p, at);
		u64 to;

		if (!v || v->start > at) {
			err = -ENOMEM;
			break;
		}
		if (v->name) {
			err = -EACCES;
			break;
		}
		to = MIN(end, v->end);
		err = split_at(p, at);
		if (!err)
			err = split_at(p, to);
		if (err)
			break;
		v = find_vma(p, at);
		err = arch_protect_range(&p->mm, at, to - at, pte_prot(flags));
		if (err)
			break;
		v->prot = flags;
		at = to;
	}
	merge_range(p, start, at);
	return err;
}

/*
 * Move the area v (exactly the range to move) to dest, pages and all
 * (their physical pages stay: only the mapping moves). The vDSO keeps the
 * kernel's record of where it is.
 */
static int move_area(struct process *p, struct vm_area *v, u64 dest)
{
	u64 len = v->end - v->start;
	int err = 0;
	u64 off;

	for (off = 0; off < len && !err; off += PAGE_SIZE) {
		phys_addr_t pa;

		if (arch_lookup(&p->mm, v->start + off, &pa, NULL))
			continue;
		err = arch_map_range(&p->mm, dest + off, pa, PAGE_SIZE, pte_prot(v->prot));
		if (!err)
			arch_unmap_range(&p->mm, v->start + off, PAGE_SIZE);
	}
	if (err) {
		/*
		 * Out of page-table pages at dest: put back what moved. The old
		 * range's tables are still there (unmapping frees no table),
		 * so mapping back needs no new one.
		 */
		while (off > PAGE_SIZE) {
			phys_addr_t pa;

			off -= PAGE_SIZE;
			if (arch_lookup(&p->mm, dest + off - PAGE_SIZE, &pa, NULL))
				continue;
			arch_map_range(&p->mm, v->start + off - PAGE_SIZE, pa, PAGE_SIZE,
				       pte_prot(v->prot));
			arch_unmap_range(&p->mm, dest + off - PAGE_SIZE, PAGE_SIZE);
		}
		return err;
	}
	if (v->name && !strcmp(v->name, "[vdso]"))
		p->vdso_base = dest;
	vma_unlink(p, v);
	v->start = dest;
	v->end = dest + len;
	vma_link(p, v);
	vma_merge_around(p, v);
	return 0;
}

long process_mremap(struct process *p, u64 old, u64 old_len, u64 new_len, bool may_move,
		    bool fixed, u64 new_addr)
{
	struct vm_area *v;
	u64 dest;
	int err;

	if (!IS_ALIGNED(old, PAGE_SIZE) || !old_len || !new_len || (fixed && !may_move) ||
	    (fixed && !IS_ALIGNED(new_addr, PAGE_SIZE)))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	v = find_vma(p, old);
	if (!v || v->start > old || old + old_len > v->end)
		return -EFAULT; /* Linux: the old range must lie in one mapping */
	if (v->name && new_len != old_len)
		return -EINVAL; /* the vDSO and vvar move whole, they do not grow */
	if (!fixed && new_len <= old_len) {
		if (new_len < old_len)
			process_unmap(p, old + new_len, old + old_len);
		return (long)old;
	}
	if (!fixed && range_free(p, old + old_len, old + new_len) && !v->name) {
		err = process_map_anon(p, old + old_len, new_len - old_len, v->prot);
		return err ? err : (long)old;
	}
	if (!may_move)
		return -ENOMEM;
	if (fixed) {
		if (new_addr < old + old_len && new_addr + new_len > old)
			return -EINVAL; /* overlapping source and destination */
		if (new_addr + new_len > TASK_SIZE)
			return -EINVAL;
		process_unmap(p, new_addr, new_addr + new_len);
		dest = new_addr;
	} else {
		dest = process_find_free(p, new_len);
		if (!dest)
			return -ENOMEM;
	}
	/* Move exactly the old range: split it out of its area first. */
	err = split_at(p, old);
	if (!err)
		err = split_at(p, old + old_len);
	if (err) {
		merge_range(p, old, old);
		return err;
	}
	v = find_vma(p, old);
	err = move_area(p, v, dest);
	if (err) {
		merge_range(p, old, old + old_len);
		return err;
	}
	v = find_vma(p, dest);
	if (new_len > old_len)
		err = process_map_anon(p, dest + old_len, new_len - old_len, v->prot);
	return err ? err : (long)dest;
}

u64 process_find_free(struct process *p, u64 len)
{
	u64 lo = ALIGN_UP(p->brk, PAGE_SIZE) + SZ_1M; /* room for the heap to grow */
	u64 cand;
	struct vm_area *v;

	if (!len || len > p->mmap_base)
		return 0;
	/* Top down from mmap_base: below each area in the way, until a gap fits. */
	cand = p->mmap_base - len;
	while ((v = find_vma(p, cand)) && v->start < cand + len) {
		if (v->start < len)
			return 0;
		cand = v->start - len;
	}
	return cand < lo ? 0 : cand;
}

void process_free_areas(struct process *p)
{
	while (p->vmas) {
		struct vm_area *v = p->vmas;

		unmap_pages(p, v->start, v->end, !v->name);
		vma_unlink(p, v);
		kfree(v);
	}
}
