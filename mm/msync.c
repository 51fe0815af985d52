// SPDX-License-Identifier: MIT
/*
 * msync(2), as Linux's mm/msync.c checks it. Pagoda's file mappings have
 * nothing to write back: a tmpfs file's pages are the file, and the
 * initramfs is never written. So msync only answers what Linux answers:
 * -EINVAL for bad flags or an address off a page, -ENOMEM when part of
 * the range is not mapped, 0 otherwise.
 */
#include <pagoda/process.h>
#include "../kernel/syscalls.h"

#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4

/* msync(addr, len, flags) */
long sys_msync(const unsigned long *args)
{
	struct process *p = current_process();
	u64 start = args[0], len = ALIGN_UP(args[1], PAGE_SIZE), end = start + len;
	unsigned long flags = args[2];
	bool hole = false;

	if ((flags & ~(unsigned long)(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) ||
	    !IS_ALIGNED(start, PAGE_SIZE) || ((flags & MS_ASYNC) && (flags & MS_SYNC)))
		return -EINVAL;
	if (len < args[1] || end < start)
		return -ENOMEM;
	down_read(&p->mmap_lock);
	for (u64 at = start; at < end;) {
		struct vm_area *v = find_vma(p, at);

		if (!v || v->start >= end) {
			hole = true;
			break;
		}
		hole |= v->start > at;
		at = v->end;
	}
	up_read(&p->mmap_lock);
	return hole ? -ENOMEM : 0;
}
