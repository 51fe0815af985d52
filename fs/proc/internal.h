/* SPDX-License-Identifier: MIT */
/* The process file system's pieces (fs/proc/). */
#ifndef FS_PROC_INTERNAL_H
#define FS_PROC_INTERNAL_H

#include <pagoda/fs.h>
#include <pagoda/seq_file.h>

struct process;

/*
 * A file's printer: the whole text into m. For a process's file p is the
 * process (process_lock held while it prints), NULL for the others.
 */
typedef void (*proc_show_t)(struct seq_file *m, struct process *p);

/*
 * A process file that takes writes (oom_score_adj): the text written, at
 * most a few bytes, NUL-terminated; 0 or -errno. Called with process_lock.
 */
typedef int (*proc_write_t)(struct process *p, const char *text);

struct proc_entry {
	const char *name;
	proc_show_t show;
	proc_write_t write; /* NULL: read-only (0444); else 0644 */
};

/* fs/proc/generic.c: make the text now (pid 0: no process) and open f on it. */
int proc_open_show(struct file *f, proc_show_t show, int pid);
/* The same for a file opened to be written: writes go to write(process pid). */
int proc_open_write(struct file *f, proc_write_t write, int pid);

/* The system-wide files (meminfo.c, stat.c, mounts.c) and a process's (base.c). */
void proc_meminfo_show(struct seq_file *m, struct process *p);
void proc_vmstat_show(struct seq_file *m, struct process *p);
void proc_buddyinfo_show(struct seq_file *m, struct process *p);
void proc_uptime_show(struct seq_file *m, struct process *p);
void proc_loadavg_show(struct seq_file *m, struct process *p);
void proc_stat_show(struct seq_file *m, struct process *p);
void proc_cpuinfo_show(struct seq_file *m, struct process *p);
void proc_version_show(struct seq_file *m, struct process *p);
void proc_mounts_show(struct seq_file *m, struct process *p);
void proc_filesystems_show(struct seq_file *m, struct process *p);
void proc_devices_show(struct seq_file *m, struct process *p);
extern const struct proc_entry proc_pid_entries[];
extern const unsigned int proc_pid_nr_entries;
/* /proc/sys/vm's files (proc_sysctl.c). */
extern const struct proc_entry proc_sys_vm_entries[];
extern const unsigned int proc_sys_vm_nr_entries;

#endif
