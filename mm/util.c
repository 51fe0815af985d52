// SPDX-License-Identifier: MIT
/*
 * Commit accounting and the overcommit policy, after Linux's mm/util.c.
 *
 * A private writable mapping promises its owner pages it has not been
 * given yet: demand paging hands them out one touch at a time. The kernel
 * keeps the sum of those promises (vm_committed_as, meminfo's
 * Committed_AS) and decides at mmap, brk, mprotect, mremap, stack growth
 * and fork whether one more may be made. vm.overcommit_memory chooses how:
 *
 *   0  heuristic (the default): refuse only a single request larger than
 *      all the memory there is; the rest is settled by the OOM killer
 *      when the pages are really touched (mm/oom_kill.c)
 *   1  always: every request is granted
 *   2  never overcommit: the promises together stay under CommitLimit,
 *      vm.overcommit_ratio percent of RAM (there is no swap here), less a
 *      reserve that leaves the process room to recover
 *
 * What is promised: areas with VM_ACCOUNT, set when a private mapping is
 * writable at creation (anonymous memory, the heap, the stack, an ELF's
 * data) unless MAP_NORESERVE asks otherwise (mode 2 ignores it), or when
 * mprotect first makes one writable. The promise lasts as long as the
 * area: munmap and exit give it back, mprotect to read-only does not.
 * fork promises the child's copies again, so a fork can fail here too.
 */
#include <pagoda/mm.h>
#include <pagoda/mman.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>

int sysctl_overcommit_memory = OVERCOMMIT_GUESS;
PARAM_INT("vm.overcommit_memory", sysctl_overcommit_memory, 0, 2,
	  "0 heuristic overcommit, 1 always grant, 2 never beyond CommitLimit");
int sysctl_overcommit_ratio = 50;
PARAM_INT("vm.overcommit_ratio", sysctl_overcommit_ratio, 0, 10000,
	  "mode 2's CommitLimit: this percent of RAM");

/* Pages promised to processes' accounted areas, all together. */
static long vm_committed_as;

unsigned long vm_memory_committed(void)
{
	long n = __atomic_load_n(&vm_committed_as, __ATOMIC_RELAXED);

	return n > 0 ? (unsigned long)n : 0;
}

/* Mode 2's ceiling: meminfo's CommitLimit. No swap, no huge-page pool. */
unsigned long vm_commit_limit(void)
{
	return totalram_pages() * (unsigned long)sysctl_overcommit_ratio / 100;
}

void vm_unacct_memory(unsigned long pages)
{
	__atomic_sub_fetch(&vm_committed_as, (long)pages, __ATOMIC_RELAXED);
}

/*
 * May p be promised `pages` more? 0 and the promise recorded, or -ENOMEM
 * and nothing changed. p may be NULL (no process to leave room for).
 *
 * Mode 2 keeps back, as Linux's user reserve, the smaller of 1/32 of the
 * process's size and 1/32 of memory (at most 128 MiB; Linux takes 1/32 of
 * what is free at boot), so that a process refused once still has room to
 * do something about it. Linux also keeps an admin reserve, but only from
 * processes without CAP_SYS_ADMIN; every process here has it.
 */
int vm_enough_memory(struct process *p, unsigned long pages)
{
	long allowed;

	__atomic_add_fetch(&vm_committed_as, (long)pages, __ATOMIC_RELAXED);
	if (sysctl_overcommit_memory == OVERCOMMIT_ALWAYS)
		return 0;
	if (sysctl_overcommit_memory == OVERCOMMIT_GUESS) {
		if (pages <= totalram_pages())
			return 0;
	} else {
		unsigned long reserve = MIN(totalram_pages() / 32, (128 * SZ_1M) >> PAGE_SHIFT);

		allowed = (long)vm_commit_limit() - (long)MIN((p ? p->mm.total_vm : 0) / 32, reserve);
		if ((long)vm_memory_committed() < allowed)
			return 0;
	}
	vm_unacct_memory(pages);
	pr_debug("%s: pid %d (%s): not enough memory to promise %lu pages\n", __func__,
		 p ? p->pid : 0, p ? p->name : "-", pages);
	return -ENOMEM;
}
