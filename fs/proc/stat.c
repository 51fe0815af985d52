// SPDX-License-Identifier: MIT
/*
 * The time and CPU files of /proc, in Linux's formats: uptime (seconds
 * up, seconds all CPUs idled), loadavg (Pagoda keeps no load average:
 * zeros, then running/total processes and the last pid), stat (the cpu
 * lines in 1/100 s ticks, then processes and boot time), cpuinfo (a
 * "processor" block per online CPU, what nproc and top count) and
 * version. CPU time is the processes' run time, counted as user time;
 * idle is what is left of the CPUs' time since boot.
 */
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/elf.h>
#include "internal.h"

#define NS_PER_TICK (NSEC_PER_SEC / 100)

struct cpu_times {
	u64 user, idle; /* ns */
	unsigned int running, total;
	int last_pid;
};

static void gather(struct cpu_times *t)
{
	struct process *p;
	u64 all = ktime_get_ns() * num_online_cpus();

	*t = (struct cpu_times){ 0 };
	mutex_lock(&process_lock);
	list_for_each_entry(p, &process_list, all) {
		t->total++;
		if (p->zombie || !p->task)
			continue;
		t->user += task_sched_runtime(p->task);
		if (p->task->state == TASK_RUNNING)
			t->running++;
		if (p->pid > t->last_pid)
			t->last_pid = p->pid;
	}
	mutex_unlock(&process_lock);
	t->idle = all > t->user ? all - t->user : 0;
}

void proc_uptime_show(struct seq_file *m, struct process *p)
{
	struct cpu_times t;
	u64 up = ktime_get_ns() / (NSEC_PER_SEC / 100), idle;

	(void)p;
	gather(&t);
	idle = t.idle / (NSEC_PER_SEC / 100);
	seq_printf(m, "%llu.%02llu %llu.%02llu\n", (unsigned long long)(up / 100),
		   (unsigned long long)(up % 100), (unsigned long long)(idle / 100),
		   (unsigned long long)(idle % 100));
}

void proc_loadavg_show(struct seq_file *m, struct process *p)
{
	struct cpu_times t;

	(void)p;
	gather(&t);
	seq_printf(m, "0.00 0.00 0.00 %u/%u %d\n", t.running, t.total, t.last_pid);
}

void proc_stat_show(struct seq_file *m, struct process *p)
{
	struct cpu_times t;
	unsigned int cpus = num_online_cpus(), cpu;
	u64 boot = (ktime_get_real_ns() - ktime_get_ns()) / NSEC_PER_SEC;

	(void)p;
	gather(&t);
	seq_printf(m, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", (unsigned long long)(t.user / NS_PER_TICK),
		   (unsigned long long)(t.idle / NS_PER_TICK));
	for_each_online_cpu(cpu)
		seq_printf(m, "cpu%u %llu 0 0 %llu 0 0 0 0 0 0\n", cpu,
			   (unsigned long long)(t.user / cpus / NS_PER_TICK),
			   (unsigned long long)(t.idle / cpus / NS_PER_TICK));
	seq_printf(m, "intr 0\nctxt 0\nbtime %llu\nprocesses %d\nprocs_running %u\n"
		      "procs_blocked 0\n", (unsigned long long)boot, t.last_pid, t.running);
}

void proc_cpuinfo_show(struct seq_file *m, struct process *p)
{
	unsigned int cpu;

	(void)p;
	for_each_online_cpu(cpu)
		seq_printf(m, "processor\t: %u\nmodel name\t: %s (Pagoda)\n\n", cpu, ELF_PLATFORM);
}

void proc_version_show(struct seq_file *m, struct process *p)
{
	(void)p;
	seq_printf(m, "Pagoda version 6.1.0-pagoda #1\n");
}
