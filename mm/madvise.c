// SPDX-License-Identifier: MIT
/*
 * madvise(2), after Linux's mm/madvise.c: what a program tells the kernel
 * about how it will use a range of its memory. Some advice changes what
 * the program sees, and is done here as Linux does it:
 *
 *   MADV_DONTNEED    the range's pages go now: a private anonymous page
 *                    reads as zeros afterwards, a private file page as
 *                    the file again, a shared page as the object's
 *   MADV_FREE        private anonymous only; Linux frees the pages when
 *                    memory is short and a write in between keeps one:
 *                    here they go at once, which is one of the outcomes
 *                    Linux allows
 *   MADV_HUGEPAGE, MADV_NOHUGEPAGE
 *                    whether faults may fill 2 MiB at once (mm/huge_memory.c)
 *   MADV_DONTFORK, MADV_DOFORK
 *                    whether a fork's child gets the area at all
 *   MADV_WIPEONFORK, MADV_KEEPONFORK
 *                    whether the child's copy of a private anonymous area
 *                    starts empty (reads zeros)
 *   MADV_POPULATE_READ, MADV_POPULATE_WRITE
 *                    fault the range in now, as a read or a write would
 *
 * The flags ones split the area at the range's edges and merge it back
 * with its neighbours when they become alike, as mprotect does. Advice
 * about paging (NORMAL, RANDOM, SEQUENTIAL, WILLNEED, COLD, PAGEOUT), KSM
 * (MERGEABLE, UNMERGEABLE) and core dumps (DONTDUMP, DODUMP) is accepted
 * and changes nothing: there is no paging, no KSM and no core dump here.
 * What Pagoda cannot do is refused with -EINVAL rather than pretended:
 * MADV_REMOVE (a hole punched through a shared mapping), MADV_COLLAPSE
 * and the memory-failure calls.
 *
 * Errors, in Linux's order: -EINVAL for an unknown advice, an unaligned
 * start or a length that wraps; 0 for an empty range; then area by area:
 * a hole in the range is -ENOMEM, after the advice was applied to the
 * areas around it; an area the advice cannot apply to stops the walk with
 * its error (-EINVAL, also for a populate the protection forbids; -EFAULT
 * for a populate whose fault fails).
 */
#include <pagoda/huge_mm.h>
#include <pagoda/mm.h>
#include <pagoda/process.h>

/* Linux's values (include/uapi/asm-generic/mman-common.h). */
#define MADV_NORMAL 0
#define MADV_RANDOM 1
#define MADV_SEQUENTIAL 2
#define MADV_WILLNEED 3
#define MADV_DONTNEED 4
#define MADV_FREE 8
#define MADV_REMOVE 9
#define MADV_DONTFORK 10
#define MADV_DOFORK 11
#define MADV_MERGEABLE 12
#define MADV_UNMERGEABLE 13
#define MADV_HUGEPAGE 14
#define MADV_NOHUGEPAGE 15
#define MADV_DONTDUMP 16
#define MADV_DODUMP 17
#define MADV_WIPEONFORK 18
#define MADV_KEEPONFORK 19
#define MADV_COLD 20
#define MADV_PAGEOUT 21
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#define MADV_DONTNEED_LOCKED 24

static bool madvise_behavior_valid(int behavior)
{
	switch (behavior) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
	case MADV_DONTNEED: case MADV_DONTNEED_LOCKED: case MADV_FREE:
	case MADV_DONTFORK: case MADV_DOFORK: case MADV_MERGEABLE: case MADV_UNMERGEABLE:
	case MADV_HUGEPAGE: case MADV_NOHUGEPAGE: case MADV_DONTDUMP: case MADV_DODUMP:
	case MADV_WIPEONFORK: case MADV_KEEPONFORK: case MADV_COLD: case MADV_PAGEOUT:
	case MADV_POPULATE_READ: case MADV_POPULATE_WRITE:
		return true;
	}
	return false;
}

static bool vma_is_anonymous(const struct vm_area *v)
{
	return !v->rf && !v->shm && !v->name;
}

/* Fault every page of [start, end) in v as the advice's access would. */
static int madvise_populate(struct process *p, struct vm_area *v, u64 start, u64 end,
			    bool write)
{
	int si_code;

	/* a protection that forbids the access: -EINVAL, as Linux's answer */
	if ((v->prot & PROT_NOACCESS) || (write && !(v->prot & PROT_WRITE)))
		return -EINVAL;
	for (u64 va = start; va < end; va += PAGE_SIZE) {
		int err;

		if (READ_ONCE(p->pending_kill) || READ_ONCE(p->group_exit))
			return -EINTR;
		err = handle_mm_fault(p, va, write ? FAULT_FLAG_WRITE : 0, &si_code);
		if (err == -ENOMEM)
			return -ENOMEM;
		if (err)
			return -EFAULT;
	}
	return 0;
}

/* The advice on [start, end), which lies inside area v. */
static int madvise_vma(struct process *p, struct vm_area *v, u64 start, u64 end, int behavior)
{
	/*
	 * The kernel's own pages ([vdso], [vvar]) are never dropped, wiped or
	 * faulted (Linux refuses [vvar], a PFN mapping, the same way); the
	 * rest of the advice leaves them as they are.
	 */
	if (v->name)
		return behavior == MADV_DONTNEED || behavior == MADV_DONTNEED_LOCKED ||
				       behavior == MADV_FREE || behavior == MADV_WIPEONFORK ||
				       behavior == MADV_POPULATE_READ ||
				       behavior == MADV_POPULATE_WRITE ?
			       -EINVAL :
			       0;
	switch (behavior) {
	case MADV_FREE:
		if (!vma_is_anonymous(v))
			return -EINVAL;
		fallthrough; /* freed at once */
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
		zap_page_range(p, start, end, true);
		return 0;
	case MADV_HUGEPAGE:
		return vma_modify_flags(p, start, end, VM_HUGEPAGE, VM_NOHUGEPAGE);
	case MADV_NOHUGEPAGE:
		return vma_modify_flags(p, start, end, VM_NOHUGEPAGE, VM_HUGEPAGE);
	case MADV_DONTFORK:
		return vma_modify_flags(p, start, end, VM_DONTCOPY, 0);
	case MADV_DOFORK:
		return vma_modify_flags(p, start, end, 0, VM_DONTCOPY);
	case MADV_WIPEONFORK:
		if (!vma_is_anonymous(v))
			return -EINVAL;
		return vma_modify_flags(p, start, end, VM_WIPEONFORK, 0);
	case MADV_KEEPONFORK:
		return vma_modify_flags(p, start, end, 0, VM_WIPEONFORK);
	case MADV_POPULATE_READ:
	case MADV_POPULATE_WRITE:
		return madvise_populate(p, v, start, end, behavior == MADV_POPULATE_WRITE);
	}
	return 0; /* advice about paging, KSM or dumps: nothing to do here */
}

int do_madvise(struct process *p, u64 start, u64 len_in, int behavior)
{
	u64 len = ALIGN_UP(len_in, PAGE_SIZE), end = start + len;
	int unmapped = 0;

	if (!madvise_behavior_valid(behavior) || !IS_ALIGNED(start, PAGE_SIZE) ||
	    (len_in && !len) || end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	/*
	 * Area by area. Each step looks the area up again: a flags change
	 * may have split or merged the one before.
	 */
	while (start < end) {
		struct vm_area *v = find_vma(p, start);
		u64 to;
		int err;

		if (!v)
			return -ENOMEM;
		if (v->start >= end)
			break;
		if (v->start > start) {
			/* a populate stops at the hole; other advice goes on past it */
			if (behavior == MADV_POPULATE_READ || behavior == MADV_POPULATE_WRITE)
				return -ENOMEM;
			unmapped = -ENOMEM;
			start = v->start;
		}
		to = MIN(end, v->end);
		err = madvise_vma(p, v, start, to, behavior);
		if (err)
			return err;
		start = to;
	}
	return start < end ? -ENOMEM : unmapped;
}
