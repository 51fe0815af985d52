// SPDX-License-Identifier: MIT
/*
 * Transparent huge pages, the anonymous-fault half of Linux's
 * mm/huge_memory.c: the policy that says when a write fault may fill a
 * whole 2 MiB stretch of an area at once (mm/memory.c does the filling,
 * do_anonymous_huge_page()).
 *
 * Why: a program that touches a large area page by page pays for a fault
 * (an exception, the area lookup, an allocation, a table walk) per 4 KiB.
 * With one order-9 allocation, zeroed and mapped in one go, it pays once
 * per 2 MiB. Debian's Linux does this by default ("always"), and so its
 * figure for touching 64 MiB is a huge-page figure (docs/processes.md).
 *
 * What differs from Linux: Linux maps such a page with one PMD entry (a
 * 2 MiB TLB entry; the page splits when a part of it is unmapped,
 * protected or copied). Pagoda maps the 512 pages with 512 ordinary
 * entries and splits the block into 512 pages of order 0 at once
 * (split_page()), as Linux 6.8's multi-size THP maps its smaller large
 * folios: the rest of the memory code (munmap, mprotect, fork's
 * copy-on-write, the map counts, checkpoint) sees only 4 KiB pages and
 * needs no huge-page case. The gain is the fault count and one zeroing
 * of the whole block; the TLB gain of a 2 MiB entry is not had.
 *
 * When: the fault is the program's own (the kernel's writes into a
 * process, exec's and restore's, take one page), the stretch lies inside
 * one private anonymous area (a file's or a shared object's pages never),
 * has no page mapped yet (the zero page included: a stretch with reads
 * already mapped is filled page by page), and the policy allows the
 * area. An order-9 block that cannot be had falls back to one page,
 * quietly (thp_fault_fallback counts it).
 */
#include <pagoda/huge_mm.h>
#include <pagoda/params.h>
#include <pagoda/process.h>

static const char *const thp_names[] = { "always", "madvise", "never", NULL };
int transparent_hugepage = THP_ALWAYS;
PARAM_ENUM("transparent_hugepage", transparent_hugepage, thp_names,
	   "anonymous write faults fill 2 MiB at once: always, madvise (MADV_HUGEPAGE areas), never");

unsigned long thp_fault_alloc, thp_fault_fallback;

bool thp_vma_allowable(const struct vm_area *v, u64 start)
{
	int mode = READ_ONCE(transparent_hugepage);

	if (v->rf || v->shm || v->name || (v->flags & VM_NOHUGEPAGE) || mode == THP_NEVER)
		return false;
	if (mode == THP_MADVISE && !(v->flags & VM_HUGEPAGE))
		return false;
	return start >= v->start && v->end - start >= HPAGE_PMD_SIZE;
}
