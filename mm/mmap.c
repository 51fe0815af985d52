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
 * that have become alike (adjacent, same protection, anonymous or the same
 * file at following offsets) are merged
 * back into one (vma_merge_around()), so that mapping page after page, or
 * mprotect there and back, leaves one area, not a trail of them.
 *
 * Areas with a name ("[vdso]", "[vvar]") hold the kernel's pages: they are
 * mapped again on fork, never freed, and never merged.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/mman.h>
#include <pagoda/pgtable.h>
#include <pagoda/process.h>
#include <pagoda/rbtree.h>
#include <pagoda/shmem.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

static unsigned long vma_pages(const struct vm_area *v)
{
	return (v->end - v->start) >> PAGE_SHIFT;
}

/* The process's size grows or shrinks by pages (total_vm: mapped, touched or not). */
static void vm_stat_account(struct process *p, long pages)
{
	WRITE_ONCE(p->mm.total_vm, p->mm.total_vm + pages);
}

/* v leaves the process: its size and its promise (mm/util.c) go with it. */
static void vma_unaccount(struct process *p, const struct vm_area *v)
{
	vm_stat_account(p, -(long)vma_pages(v));
	if (v->flags & VM_ACCOUNT)
		vm_unacct_memory(vma_pages(v));
}

/*
 * An area struct goes: a shared one leaves its object's list and gives
 * its reference back. Never under page_table_lock (the list's lock comes
 * first, mm/shmem.c).
 */
static void vm_area_free(struct vm_area *v)
{
	if (v->shm) {
		unlink_file_vma(v);
		shmem_put(v->shm);
	}
	kfree(v);
}

/*
 * A change to an area of an object that a truncate may be walking
 * (its start, end or pgoff, or its pages moving): under the object's
 * i_mmap_lock, as Linux's vma_prepare(). Nothing for other areas.
 */
static void vma_lock_file(const struct vm_area *v)
{
	if (v->shm)
		i_mmap_lock_write(v->shm);
}

static void vma_unlock_file(const struct vm_area *v)
{
	if (v->shm)
		i_mmap_unlock_write(v->shm);
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

struct vm_area *vma_prev(struct vm_area *v)
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
	if (v->rf || v->shm)
		tail->pgoff = v->pgoff + ((addr - v->start) >> PAGE_SHIFT);
	if (v->shm) {
		shmem_get(v->shm);
		vma_link_file(tail, v); /* over the same pages as v's end, until v shrinks */
	}
	vma_lock_file(v);
	v->end = addr;
	vma_unlock_file(v);
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
	return a && b && a->end == b->start && a->prot == b->prot && a->flags == b->flags &&
	       !a->name && !b->name && a->rf == b->rf && a->shm == b->shm &&
	       ((!a->rf && !a->shm) || a->pgoff + vma_pages(a) == b->pgoff);
}

/*
 * Grow a over b, which it has been found mergeable with, and free b
 * (Linux's vma_expand() for this case). a's end moves under the object's
 * lock, like every change a truncate may be walking (vma_lock_file()).
 */
static void vma_expand(struct process *p, struct vm_area *a, struct vm_area *b)
{
	vma_unlink(p, b);
	vma_lock_file(a);
	a->end = b->end;
	vma_unlock_file(a);
	vm_area_free(b);
}

/* Fold v into its neighbours where they are alike; the area that holds v's range now. */
static struct vm_area *vma_merge_around(struct process *p, struct vm_area *v)
{
	struct vm_area *prev = vma_prev(v);

	if (vma_mergeable(prev, v)) {
		vma_expand(p, prev, v);
		v = prev;
	}
	if (vma_mergeable(v, v->next))
		vma_expand(p, v, v->next);
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

/*
 * Make start and end area boundaries (the cuts an operation on part of
 * an area needs first): 0, or -ENOMEM with the areas as they were.
 */
static int split_range(struct process *p, u64 start, u64 end)
{
	int err = split_at(p, start);

	if (!err)
		err = split_at(p, end);
	if (err)
		merge_range(p, start, end);
	return err;
}

/*
 * An area's protection as the program asked for it: PROT_WRITE and
 * PROT_EXEC, or PROT_NOACCESS alone for PROT_NONE; always present and
 * user. page_pte_prot() (mm/memory.c) says what each page's entry gets
 * (PROT_NONE_USER for PROT_NONE).
 */
static unsigned int area_prot(unsigned int prot)
{
	if (prot & PROT_NOACCESS)
		return PROT_NOACCESS | PROT_PRESENT | PROT_USER;
	return (prot & (PROT_WRITE | PROT_EXEC)) | PROT_PRESENT | PROT_USER;
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
			zap_page_range(p, va, va + i * PAGE_SIZE, false);
	}
	if (err) {
		kfree(vma);
		return err;
	}
	*vma = (struct vm_area){ .start = va, .end = va + n * PAGE_SIZE, .prot = flags,
				 .name = name, .vm_mm = p };
	vma_link(p, vma);
	vm_stat_account(p, n);
	return 0;
}

static int map_area(struct process *p, u64 va, u64 size, unsigned int prot,
		    unsigned int vm_flags, const struct ramfs_file *rf,
		    struct shmem_object *shm, u64 pgoff)
{
	struct vm_area *vma;

	if (!size || !IS_ALIGNED(va, PAGE_SIZE) || !IS_ALIGNED(size, PAGE_SIZE))
		return -EINVAL;
	if (!range_free(p, va, va + size))
		return va + size > TASK_SIZE || va + size < va ? -EINVAL : -EEXIST;
	/* An area grown by mremap passes its own flags: promised if it was. */
	if (sysctl_overcommit_memory == OVERCOMMIT_NEVER)
		vm_flags &= ~VM_NORESERVE; /* mode 2 promises everything, as Linux */
	/*
	 * A shared area's pages are promised once, by its object (mm/shmem.c);
	 * a private one's copies, by the area, whether it maps a file or not.
	 */
	if ((prot & PROT_WRITE) && !(prot & PROT_NOACCESS) &&
	    !(vm_flags & (VM_NORESERVE | VM_SHARED)))
		vm_flags |= VM_ACCOUNT;
	vm_flags &= VM_ACCOUNT | VM_NORESERVE | VM_SHARED;
	if ((vm_flags & VM_ACCOUNT) && vm_enough_memory(p, size >> PAGE_SHIFT))
		return -ENOMEM;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma) {
		if (vm_flags & VM_ACCOUNT)
			vm_unacct_memory(size >> PAGE_SHIFT);
		return -ENOMEM;
	}
	/* No page yet: each comes on its first touch (mm/memory.c). */
	*vma = (struct vm_area){ .start = va, .end = va + size, .prot = area_prot(prot),
				 .flags = vm_flags, .rf = rf, .shm = shm,
				 .pgoff = rf || shm ? pgoff : 0, .vm_mm = p };
	if (shm) {
		shmem_get(shm);
		vma_link_file(vma, NULL);
	}
	vma_link(p, vma);
	vm_stat_account(p, size >> PAGE_SHIFT);
	vma_merge_around(p, vma);
	return 0;
}

int process_map_anon_flags(struct process *p, u64 va, u64 size, unsigned int prot,
			   unsigned int vm_flags)
{
	return map_area(p, va, size, prot, vm_flags, NULL, NULL, 0);
}

int process_map_file(struct process *p, u64 va, u64 size, unsigned int prot,
		     unsigned int vm_flags, const struct ramfs_file *rf, u64 pgoff)
{
	return map_area(p, va, size, prot, vm_flags, rf, NULL, pgoff);
}

int process_map_shmem(struct process *p, u64 va, u64 size, unsigned int prot,
		      unsigned int vm_flags, struct shmem_object *shm, u64 pgoff)
{
	return map_area(p, va, size, prot, vm_flags, NULL, shm, pgoff);
}

int process_map_shared_anon(struct process *p, u64 va, u64 size, unsigned int prot,
			    unsigned int vm_flags)
{
	/* Promised whole, writable or not (Linux's shmem_acct_size), unless MAP_NORESERVE. */
	struct shmem_object *shm = shmem_zero_setup(p, size >> PAGE_SHIFT,
						    !(vm_flags & VM_NORESERVE) ||
						    sysctl_overcommit_memory == OVERCOMMIT_NEVER);
	int err;

	if (!shm)
		return -ENOMEM;
	err = map_area(p, va, size, prot, vm_flags | VM_SHARED, NULL, shm, 0);
	shmem_put(shm); /* the area holds it now, or nothing does */
	return err;
}

int process_map_anon(struct process *p, u64 va, u64 size, unsigned int prot)
{
	return process_map_anon_flags(p, va, size, prot, 0);
}

/* fork (the parent is current): the child's copy is promised again, as Linux's dup_mmap. */
int dup_vma(struct process *c, struct vm_area *v)
{
	struct vm_area *copy;

	if ((v->flags & VM_ACCOUNT) && vm_enough_memory(current_process(), vma_pages(v)))
		return -ENOMEM;
	copy = kmalloc(sizeof(*copy), GFP_KERNEL);
	if (!copy) {
		if (v->flags & VM_ACCOUNT)
			vm_unacct_memory(vma_pages(v));
		return -ENOMEM;
	}
	*copy = *v;
	copy->vm_mm = c;
	if (copy->shm) {
		shmem_get(copy->shm);
		vma_link_file(copy, v); /* after v: see copy_page_range() */
	}
	vm_stat_account(c, vma_pages(v));
	vma_link(c, copy);
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
	err = split_range(p, start, end);
	if (err)
		return err;
	v = find_vma(p, start);
	while (v && v->start < end) {
		struct vm_area *next = v->next;

		zap_page_range(p, v->start, v->end, !v->name);
		vma_unlink(p, v);
		vma_unaccount(p, v);
		vm_area_free(v);
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
		/*
		 * Made writable for the first time: promised now, as Linux's
		 * mprotect_fixup(); refused, this area keeps its old protection.
		 */
		if ((flags & PROT_WRITE) && !(flags & PROT_NOACCESS) &&
		    !(v->flags & (VM_ACCOUNT | VM_NORESERVE))) {
			err = split_at(p, at);
			if (!err)
				err = split_at(p, to);
			if (!err)
				err = vm_enough_memory(p, (to - at) >> PAGE_SHIFT);
			if (err)
				break;
			find_vma(p, at)->flags |= VM_ACCOUNT;
		}
		err = split_at(p, at);
		if (!err)
			err = split_at(p, to);
		if (err)
			break;
		v = find_vma(p, at);
		v->prot = flags;
		err = protect_page_range(p, v, at, to);
		if (err)
			break;
		at = to;
	}
	merge_range(p, start, at);
	return err;
}

int vma_modify_flags(struct process *p, u64 start, u64 end, unsigned int set,
		     unsigned int clear)
{
	struct vm_area *v = find_vma(p, start);
	unsigned int flags;
	int err;

	if (!v || v->start > start || v->end < end)
		return -EINVAL;
	flags = (v->flags & ~clear) | set;
	if (flags == v->flags)
		return 0;
	err = split_range(p, start, end);
	if (err)
		return err;
	find_vma(p, start)->flags = flags;
	merge_range(p, start, end);
	return 0;
}

/* Move the present pages of [from, from + len) to dest (a free range). */
static int move_pages(struct process *p, const struct vm_area *v, u64 from, u64 dest, u64 len)
{
	int err = 0;
	u64 *e;

	mutex_lock(&p->page_table_lock);
	for (u64 a = from; (e = next_user_pte(p, &a, from + len)); a += PAGE_SIZE) {
		phys_addr_t pa = pte_addr(READ_ONCE(*e));

		err = arch_map_range(&p->mm, dest + (a - from), pa, PAGE_SIZE,
				     page_pte_prot(v, pa));
		if (err)
			break;
		arch_unmap_range(&p->mm, a, PAGE_SIZE);
	}
	mutex_unlock(&p->page_table_lock);
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
	int err;

	/* A truncate walking the object sees the pages where the area says they are. */
	vma_lock_file(v);
	err = move_pages(p, v, v->start, dest, len);
	if (err) {
		/*
		 * Out of page-table pages at dest: put back what moved. The old
		 * range's tables are still there (unmapping frees no table),
		 * so moving back needs no new one.
		 */
		move_pages(p, v, dest, v->start, len);
		vma_unlock_file(v);
		return err;
	}
	if (v->name && !strcmp(v->name, "[vdso]"))
		p->vdso_base = dest;
	vma_unlink(p, v);
	v->start = dest;
	v->end = dest + len;
	vma_unlock_file(v);
	vma_link(p, v);
	vma_merge_around(p, v);
	return 0;
}

/*
 * MREMAP_DONTUNMAP: the pages of [old, old + len) move to a new area at
 * dest made like v, and v stays where it was, empty, so its next touches
 * fault as in a new mapping (zero pages, or the file's or the shared
 * object's pages again). The new area is promised (Linux charges it too)
 * before any page moves, so a refusal changes nothing.
 */
static long mremap_dontunmap(struct process *p, struct vm_area *v, u64 old, u64 len, u64 dest)
{
	u64 pgoff = v->pgoff + ((old - v->start) >> PAGE_SHIFT);
	int err = map_area(p, dest, len, v->prot, v->flags, v->rf, v->shm, pgoff);

	if (err)
		return err;
	vma_lock_file(v); /* both areas are the object's: a truncate waits for the move */
	err = move_pages(p, find_vma(p, dest), old, dest, len);
	if (err)
		move_pages(p, find_vma(p, dest), dest, old, len);
	vma_unlock_file(v);
	if (err) {
		process_unmap(p, dest, dest + len);
		return err;
	}
	return (long)dest;
}

long process_mremap(struct process *p, u64 old, u64 old_len, u64 new_len, unsigned int flags,
		    u64 new_addr)
{
	bool may_move = flags & MREMAP_MAYMOVE, fixed = flags & MREMAP_FIXED;
	bool dontunmap = flags & MREMAP_DONTUNMAP;
	struct vm_area *v;
	u64 dest;
	int err;

	if (!IS_ALIGNED(old, PAGE_SIZE) || !old_len || !new_len || (fixed && !may_move) ||
	    (fixed && !IS_ALIGNED(new_addr, PAGE_SIZE)))
		return -EINVAL;
	/* Linux: DONTUNMAP moves a range whole, neither growing nor shrinking it. */
	if (dontunmap && (!may_move || old_len != new_len))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	v = find_vma(p, old);
	if (!v || v->start > old || old + old_len > v->end)
		return -EFAULT; /* Linux: the old range must lie in one mapping */
	if (v->name && (new_len != old_len || dontunmap))
		return -EINVAL; /* the vDSO and vvar move whole, they do not grow */
	if (!fixed && !dontunmap && new_len <= old_len) {
		if (new_len < old_len)
			process_unmap(p, old + new_len, old + old_len);
		return (long)old;
	}
	if (!fixed && !dontunmap && range_free(p, old + old_len, old + new_len) && !v->name) {
		/* A file mapping grows over the file's following pages, as Linux's. */
		err = map_area(p, old + old_len, new_len - old_len, v->prot, v->flags, v->rf,
			       v->shm, v->pgoff + ((old + old_len - v->start) >> PAGE_SHIFT));
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
	if (dontunmap)
		return mremap_dontunmap(p, find_vma(p, old), old, old_len, dest);
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
		err = map_area(p, dest + old_len, new_len - old_len, v->prot, v->flags, v->rf,
			       v->shm, v->pgoff + (old_len >> PAGE_SHIFT));
	return err ? err : (long)dest;
}

/* Where an area's room starts: a stack keeps its guard gap free below it (Linux). */
static u64 vm_start_gap(const struct vm_area *v)
{
	if ((v->flags & VM_GROWSDOWN) && v->start > STACK_GUARD_GAP)
		return v->start - STACK_GUARD_GAP;
	return v->flags & VM_GROWSDOWN ? 0 : v->start;
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
	while ((v = find_vma(p, cand)) && vm_start_gap(v) < cand + len) {
		if (vm_start_gap(v) < len)
			return 0;
		cand = vm_start_gap(v) - len;
	}
	return cand < lo ? 0 : cand;
}

void process_free_areas(struct process *p)
{
	while (p->vmas) {
		struct vm_area *v = p->vmas;

		zap_page_range(p, v->start, v->end, !v->name);
		vma_unlink(p, v);
		vma_unaccount(p, v);
		vm_area_free(v);
	}
}
