// SPDX-License-Identifier: MIT
/*
 * /proc/sys/vm (Linux's fs/proc/proc_sysctl.c and kernel/sysctl.c, cut to
 * the memory knobs programs read): each file one number and a newline.
 * Here they are boot parameters (vm.overcommit_memory=, ...), so the files
 * are read-only; Linux lets root write them.
 */
#include <pagoda/mman.h>
#include <pagoda/string.h>
#include "internal.h"

/*
 * The lowest address a mapping is placed at unless a process asks for
 * lower: 65536, what Linux's CONFIG_DEFAULT_MMAP_MIN_ADDR help text
 * recommends for x86 (its default is 4096). Pagoda never places one
 * lower (mappings grow down from mmap_base), and MAP_FIXED below it is
 * granted, as Linux grants it to root (CAP_SYS_RAWIO): every process here
 * is root. Programs read it to know which low addresses to leave alone
 * (Linux's mremap_test does).
 */
#define DEFAULT_MMAP_MIN_ADDR 65536

static void mmap_min_addr_show(struct seq_file *m, struct process *p)
{
	(void)p;
	seq_printf(m, "%d\n", DEFAULT_MMAP_MIN_ADDR);
}

static void overcommit_memory_show(struct seq_file *m, struct process *p)
{
	(void)p;
	seq_printf(m, "%d\n", sysctl_overcommit_memory);
}

static void overcommit_ratio_show(struct seq_file *m, struct process *p)
{
	(void)p;
	seq_printf(m, "%d\n", sysctl_overcommit_ratio);
}

const struct proc_entry proc_sys_vm_entries[] = {
	{ "mmap_min_addr", mmap_min_addr_show, NULL },
	{ "overcommit_memory", overcommit_memory_show, NULL },
	{ "overcommit_ratio", overcommit_ratio_show, NULL },
};
const unsigned int proc_sys_vm_nr_entries = ARRAY_SIZE(proc_sys_vm_entries);
