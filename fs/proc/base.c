// SPDX-License-Identifier: MIT
/*
 * A process's files in /proc/PID (Linux's fs/proc/base.c and array.c):
 *
 *   stat     one line of 52 fields, as Linux 6.1 prints them; what Pagoda
 *            does not keep (major faults, priorities, signals caught...)
 *            is 0, as Linux prints for a kernel without it
 *   status   "Name:", "State:", "Pid:", "VmSize:"... one per line
 *   maps     the areas (the shell's `maps` printer)
 *   cmdline  the arguments, each ended by a NUL
 *   comm     the name and a newline
 *   oom_score      the OOM killer's ranking of it (0 to 2000)
 *   oom_score_adj  its bias, -1000 to 1000: written to set it (0644)
 *
 * and exe, a link to the program's path (fs/proc/root.c). Times are in
 * clock ticks of 1/100 s (USER_HZ): the same user and system time, page
 * faults and children's totals that getrusage() answers (kernel/rusage.c).
 */
#include <pagoda/arch.h>
#include <pagoda/ksyms.h>
#include <pagoda/mm.h>
#include <pagoda/oom.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/string.h>
#include <pagoda/task.h>
#include "../../kernel/syscalls.h"
#include "internal.h"

#define USER_HZ 100
#define NS_PER_TICK (1000000000ULL / USER_HZ)

static char state_of(const struct process *p)
{
	if (p->zombie)
		return 'Z';
	if (p->cr_frozen || READ_ONCE(p->stopped))
		return 'T'; /* stopped for a checkpoint, or by a stop signal */
	return p->task && p->task->state == TASK_RUNNING ? 'R' : 'S';
}

static const char *state_name(char s)
{
	switch (s) {
	case 'R':
		return "R (running)";
	case 'Z':
		return "Z (zombie)";
	case 'T':
		return "T (stopped)";
	default:
		return "S (sleeping)";
	}
}

/* Bytes mapped, and pages present in them (resident). */
static void mem_of(struct process *p, u64 *vsize, u64 *rss)
{
	*vsize = *rss = 0;
	if (p->zombie)
		return;
	down_read(&p->mmap_lock);
	for (struct vm_area *v = p->vmas; v; v = v->next) {
		*vsize += v->end - v->start;
		for (u64 va = v->start; va < v->end;) {
			u64 skip = PAGE_SIZE;

			if (user_pte(p, va, &skip)) {
				(*rss)++;
				skip = PAGE_SIZE;
			}
			va += skip ? skip : PAGE_SIZE;
		}
	}
	up_read(&p->mmap_lock);
}

/* user and system time in ticks, of p itself and of its collected children (getrusage's). */
static void cpu_ticks(struct process *p, u64 t[4])
{
	u64 ns[4];

	cputime_adjust(run_time_ns(p), READ_ONCE(p->acct.utime_ticks),
		       READ_ONCE(p->acct.stime_ticks), &ns[0], &ns[1]);
	cputime_adjust(p->cacct.sum_exec_ns, p->cacct.utime_ticks, p->cacct.stime_ticks, &ns[2],
		       &ns[3]);
	for (int i = 0; i < 4; i++)
		t[i] = ns[i] / NS_PER_TICK;
}

static void pid_stat_show(struct seq_file *m, struct process *p)
{
	u64 vsize, rss, t[4];
	int ppid = p->parent ? p->parent->pid : 0;

	mem_of(p, &vsize, &rss);
	cpu_ticks(p, t);
	/* pid (comm) state ppid pgrp session tty_nr tpgid flags */
	seq_printf(m, "%d (%s) %c %d %d %d %d %d %u ", p->pid, p->name, state_of(p), ppid,
		   p->pgid, p->sid, (4 << 8) | 64 /* ttyS0 */,
		   tty_foreground_pgrp(p->sid) ?: p->pgid, 0x400000u /* PF_... a user task */);
	/* minflt cminflt majflt cmajflt utime stime cutime cstime priority nice num_threads */
	seq_printf(m, "%llu %llu 0 0 %llu %llu %llu %llu 20 0 %u ",
		   (unsigned long long)READ_ONCE(p->acct.min_flt),
		   (unsigned long long)p->cacct.min_flt, (unsigned long long)t[0],
		   (unsigned long long)t[1], (unsigned long long)t[2], (unsigned long long)t[3],
		   MAX(READ_ONCE(p->nr_threads), 1u));
	/* itrealvalue starttime vsize rss rsslim */
	seq_printf(m, "0 %llu %llu %llu %llu ", (unsigned long long)(p->start_time / NS_PER_TICK),
		   (unsigned long long)vsize, (unsigned long long)rss, 0xffffffffffffffffULL);
	/* startcode endcode startstack kstkesp kstkeip signal blocked sigignore sigcatch wchan */
	seq_printf(m, "0 0 %llu 0 0 %llu %llu 0 0 0 ", (unsigned long long)p->stack,
		   (unsigned long long)p->sigpending, (unsigned long long)p->main.sigmask);
	/* nswap cnswap exit_signal processor rt_priority policy blkio guest cguest */
	seq_printf(m, "0 0 17 %u 0 0 0 0 0 ", p->task && !p->zombie ? p->task->cpu : 0);
	/* start_data end_data start_brk arg_start arg_end env_start env_end exit_code */
	seq_printf(m, "0 0 %llu 0 0 0 0 %d\n", (unsigned long long)p->brk_start,
		   p->zombie ? p->exit_status : 0);
}

static void pid_status_show(struct seq_file *m, struct process *p)
{
	u64 vsize, rss;
	char s = state_of(p);
	int ppid = p->parent ? p->parent->pid : 0, kill;

	mem_of(p, &vsize, &rss);
	seq_printf(m, "Name:\t%s\nUmask:\t%04o\nState:\t%s\n", p->name, p->umask, state_name(s));
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n", p->pid, p->pid,
		   ppid);
	seq_printf(m, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t%d\nGroups:\t\n", NR_OPEN);
	if (!p->zombie) {
		seq_printf(m, "VmSize:\t%8llu kB\nVmRSS:\t%8llu kB\n",
			   (unsigned long long)(vsize >> 10),
			   (unsigned long long)(rss * (PAGE_SIZE >> 10)));
	}
	/*
	 * The first thread's own signals and mask, the process's shared ones
	 * (Linux's split). A fatal signal on its way is kept apart here
	 * (pending_kill); Linux adds SIGKILL to every thread's own set, so it
	 * shows in SigPnd.
	 */
	kill = READ_ONCE(p->pending_kill);
	seq_printf(m, "Threads:\t%u\nSigPnd:\t%016llx\nShdPnd:\t%016llx\n",
		   MAX(READ_ONCE(p->nr_threads), 1u),
		   (unsigned long long)(p->main.sigpending |
					(kill == SIGKILL ? 1ULL << (SIGKILL - 1) : 0)),
		   (unsigned long long)p->sigpending);
	seq_printf(m, "SigBlk:\t%016llx\n", (unsigned long long)p->main.sigmask);
}

static void pid_maps_show(struct seq_file *m, struct process *p)
{
	if (!p->zombie)
		show_maps(m, p);
}

static void pid_cmdline_show(struct seq_file *m, struct process *p)
{
	if (!p->zombie)
		seq_write(m, p->cmdline, p->cmdline_len);
}

static void pid_comm_show(struct seq_file *m, struct process *p)
{
	seq_printf(m, "%s\n", p->name);
}

/*
 * oom_score: the OOM killer's ranking (mm/oom_kill.c) as Linux shows it,
 * 1000 plus the badness in thousandths of memory, so 0 to 2000; a process
 * that cannot be chosen shows 0.
 */
static void pid_oom_score_show(struct seq_file *m, struct process *p)
{
	unsigned long total = totalram_pages();
	long points = oom_badness(p, total);

	seq_printf(m, "%ld\n", points == LONG_MIN ? 0L : 1000 + points * 1000 / (long)total);
}

static void pid_oom_score_adj_show(struct seq_file *m, struct process *p)
{
	seq_printf(m, "%d\n", p->oom_score_adj);
}

/* A number from OOM_SCORE_ADJ_MIN to OOM_SCORE_ADJ_MAX; else -EINVAL, as Linux. */
static int pid_oom_score_adj_write(struct process *p, const char *text)
{
	s64 v;

	if (kstrtos64(text, 10, &v) || v < OOM_SCORE_ADJ_MIN || v > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	p->oom_score_adj = (int)v;
	return 0;
}

/* Kernel frames only: the chain ends in the entry code's record of the user pc, which Linux leaves out. */
static void stack_line(u64 pc, void *arg)
{
	if (ksym_lookup(pc, NULL))
		seq_printf(arg, "[<0>] %pS\n", (void *)pc);
}

/*
 * stack: where the process's first thread is in the kernel, one frame a
 * line, as Linux prints it (the address hidden, the symbol shown). What
 * to read when a process will not die. process_lock, held around every
 * show, keeps a live process from becoming a zombie, so its stack stays.
 */
static void pid_stack_show(struct seq_file *m, struct process *p)
{
	if (!p->zombie && p->task)
		stack_trace_task(p->task, stack_line, m);
}

const struct proc_entry proc_pid_entries[] = {
	{ "stat", pid_stat_show, NULL },
	{ "status", pid_status_show, NULL },
	{ "maps", pid_maps_show, NULL },
	{ "cmdline", pid_cmdline_show, NULL },
	{ "comm", pid_comm_show, NULL },
	{ "stack", pid_stack_show, NULL },
	{ "oom_score", pid_oom_score_show, NULL },
	{ "oom_score_adj", pid_oom_score_adj_show, pid_oom_score_adj_write },
};
const unsigned int proc_pid_nr_entries = ARRAY_SIZE(proc_pid_entries);
