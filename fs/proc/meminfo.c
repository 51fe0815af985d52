// SPDX-License-Identifier: MIT
/*
 * The memory files of /proc, in Linux's formats: meminfo (a name padded
 * to 16 columns, the value in kB right-aligned in 8, as Linux's
 * show_val_kb()), vmstat (name and count in pages), buddyinfo (the
 * shell's own printer). Pagoda has no swap and no page cache: those lines
 * say 0; tmpfs's pages are Shmem, and counted in Cached as Linux does.
 * The shell's `meminfo` prints the same counters with Pagoda's own notes
 * (shell/mm_cmds.c); this is the file programs parse.
 */
#include <pagoda/huge_mm.h>
#include <pagoda/mm.h>
#include <pagoda/mman.h>
#include <pagoda/mmzone.h>
#include <pagoda/slab.h>
#include "../../mm/internal.h"
#include "internal.h"

static void kb(struct seq_file *m, const char *name, unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", name, pages * (PAGE_SIZE / 1024));
}

void proc_meminfo_show(struct seq_file *m, struct process *p)
{
	unsigned long free = nr_free_pages(), shmem = READ_ONCE(shmem_pages);

	(void)p;
	kb(m, "MemTotal:", totalram_pages());
	kb(m, "MemFree:", free);
	kb(m, "MemAvailable:", free);
	kb(m, "Buffers:", 0);
	kb(m, "Cached:", shmem);
	kb(m, "SwapCached:", 0);
	kb(m, "SwapTotal:", 0);
	kb(m, "SwapFree:", 0);
	kb(m, "AnonPages:", READ_ONCE(nr_anon_pages));
	kb(m, "Shmem:", shmem);
	kb(m, "Slab:", slab_pages());
	kb(m, "PageTables:", READ_ONCE(nr_pagetable_pages));
	/* mm/util.c: the overcommit policy's ceiling and what is promised now. */
	kb(m, "CommitLimit:", vm_commit_limit());
	kb(m, "Committed_AS:", vm_memory_committed());
}

void proc_vmstat_show(struct seq_file *m, struct process *p)
{
	(void)p;
	seq_printf(m, "nr_free_pages %lu\n", nr_free_pages());
	seq_printf(m, "nr_anon_pages %lu\n", READ_ONCE(nr_anon_pages));
	seq_printf(m, "nr_shmem %lu\n", READ_ONCE(shmem_pages));
	seq_printf(m, "nr_page_table_pages %lu\n", READ_ONCE(nr_pagetable_pages));
	seq_printf(m, "thp_fault_alloc %lu\n", READ_ONCE(thp_fault_alloc));
	seq_printf(m, "thp_fault_fallback %lu\n", READ_ONCE(thp_fault_fallback));
}

void proc_buddyinfo_show(struct seq_file *m, struct process *p)
{
	(void)p;
	show_buddyinfo(m, NODE_DATA(0));
}
