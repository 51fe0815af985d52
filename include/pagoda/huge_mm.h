/* SPDX-License-Identifier: MIT */
/*
 * Transparent huge pages for anonymous memory (mm/huge_memory.c), with
 * Linux's knob: transparent_hugepage=always|madvise|never, and the
 * per-area advice MADV_HUGEPAGE / MADV_NOHUGEPAGE (mm/madvise.c).
 */
#ifndef PAGODA_HUGE_MM_H
#define PAGODA_HUGE_MM_H

#include <pagoda/types.h>

struct vm_area;

/* A PMD's worth with 4 KiB pages, on both arches: 2 MiB. */
#define HPAGE_PMD_ORDER 9
#define HPAGE_PMD_NR (1UL << HPAGE_PMD_ORDER)
#define HPAGE_PMD_SIZE (HPAGE_PMD_NR << PAGE_SHIFT)

enum thp_mode { THP_ALWAYS, THP_MADVISE, THP_NEVER };
extern int transparent_hugepage;

/*
 * May a write fault at an address of the 2 MiB stretch starting at start
 * (aligned) fill the whole stretch in area v? Linux's
 * thp_vma_allowable_order() for the one order here.
 */
bool thp_vma_allowable(const struct vm_area *v, u64 start);

/* /proc/vmstat's counters, as Linux names them. */
extern unsigned long thp_fault_alloc, thp_fault_fallback;

#endif
