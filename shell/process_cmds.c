// SPDX-License-Identifier: MIT
/*
 * The shell's view of user processes: the process half of `ps`, `maps PID`
 * in /proc/PID/maps's format, and `kill PID [SIG]`.
 */
#include <pagoda/printk.h>
#include <pagoda/fs.h>
#include <pagoda/process.h>
#include <pagoda/ramfs.h>
#include <pagoda/seq_file.h>
#include <pagoda/shell.h>
#include <pagoda/signal.h>
#include <pagoda/string.h>

void process_ps_print(void)
{
	struct process *p;
	bool header = false;

	mutex_lock(&process_lock);
	list_for_each_entry(p, &process_list, all) {
		if (!header) {
			kprintf("%5s %5s %s %10s %s\n", "PID", "PPID", "S", "SYSCALLS", "PROCESS");
			header = true;
		}
		kprintf("%5d %5d %c %10llu %s\n", p->pid, p->parent ? p->parent->pid : 0,
			p->zombie ? 'Z' : 'R', (unsigned long long)p->nr_syscalls, p->name);
	}
	mutex_unlock(&process_lock);
	if (header)
		kprintf("processes: PPID 0 = started by the kernel or orphaned; Z = ended, not yet collected\n");
}

/*
 * One line per area as Linux's /proc/PID/maps prints it (start-end perms
 * offset dev inode, then the name from column 74, or a trailing space
 * when there is none); everything here is anonymous or the kernel's vDSO
 * pages, so offset, device and inode are 0. To m, or the console (NULL);
 * the caller holds process_lock, and p is not a zombie.
 */
void show_maps(struct seq_file *m, struct process *p)
{
	down_read(&p->mmap_lock);
	for (struct vm_area *v = p->vmas; v; v = v->next) {
		const char *name = v->name;
		char line[160], path[PATH_MAX + 1];
		int n;

		/* Linux's rules: the heap is any area meeting [start_brk, brk]. */
		if (!name && v->start <= p->brk && v->end >= p->brk_start && p->brk > p->brk_start)
			name = "[heap]";
		else if (!name && v->start <= p->stack && p->stack < v->end)
			name = "[stack]";
		/* A file's area: its offset, inode (as stat tells) and path, as Linux's. */
		if (v->rf)
			name = NULL;
		n = snprintf(line, sizeof(line), "%08llx-%08llx %c%c%c%c %08llx 00:00 %llu ",
			     (unsigned long long)v->start, (unsigned long long)v->end,
			     v->prot & PROT_NOACCESS ? '-' : 'r', v->prot & PROT_WRITE ? 'w' : '-',
			     v->prot & PROT_EXEC ? 'x' : '-', vma_is_shared(v) ? 's' : 'p',
			     (unsigned long long)(v->rf || v->shm ? v->pgoff << PAGE_SHIFT : 0),
			     v->rf ? ((u64)(uintptr_t)v->rf->inode >> 4) & 0xffffffff : 0ULL);
		if (v->rf) {
			snprintf(path, sizeof(path), "/%s", v->rf->path);
			name = path;
		} else if (v->shm) {
			name = "/dev/zero (deleted)"; /* Linux's name for the shmem file behind it */
		}
		/* A name starts in column 74 (seq_pad to 25 + 6 * sizeof(void *) - 1, a space). */
		seq_printf(m, "%s%*s%s\n", line, name && n < 73 ? 73 - n : 0, "", name ? name : "");
	}
	up_read(&p->mmap_lock);
}

/* maps PID: what /proc/PID/maps holds, on the console. */
static int cmd_maps(int argc, char **argv)
{
	struct process *p, *found = NULL;
	u64 pid;

	if (argc != 2 || kstrtou64(argv[1], 10, &pid))
		return -EINVAL;
	mutex_lock(&process_lock);
	list_for_each_entry(p, &process_list, all)
		if ((u64)p->pid == pid && !p->zombie)
			found = p;
	if (found)
		show_maps(NULL, found);
	mutex_unlock(&process_lock);
	if (!found) {
		kprintf("maps: no process %llu\n", (unsigned long long)pid);
		return -ESRCH;
	}
	return 0;
}
SHELL_CMD(maps, "maps PID", "a process's memory areas, as /proc/PID/maps shows them", cmd_maps);

/* kill PID [SIG]: SIGTERM by default, as kill(1). */
/* "9", "KILL", "SIGKILL" (as kill(1) takes them): the number, or 0. */
static unsigned int parse_signal(const char *s)
{
	static const struct {
		const char *name;
		unsigned int sig;
	} names[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "ABRT", SIGABRT },
		{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
		{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "CHLD", SIGCHLD },
		{ "CONT", SIGCONT }, { "STOP", SIGSTOP },
	};
	u64 n;

	if (!kstrtou64(s, 10, &n))
		return n && n <= _NSIG ? (unsigned int)n : 0;
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].name))
			return names[i].sig;
	return 0;
}

/*
 * kill [-SIG | -s SIG] PID, as Linux's kill(1); and the older order this
 * shell had first, kill PID [SIG].
 */
static int cmd_kill(int argc, char **argv)
{
	const char *pid_word = NULL, *sig_word = NULL;
	unsigned int sig = SIGTERM;
	u64 pid;
	int err;

	if (argc == 2) {
		pid_word = argv[1];
	} else if (argc == 3 && argv[1][0] == '-') {
		sig_word = argv[1] + 1;
		pid_word = argv[2];
	} else if (argc == 4 && !strcmp(argv[1], "-s")) {
		sig_word = argv[2];
		pid_word = argv[3];
	} else if (argc == 3) {
		pid_word = argv[1];
		sig_word = argv[2];
	} else {
		return -EINVAL;
	}
	if (sig_word && !(sig = parse_signal(sig_word))) {
		kprintf("kill: '%s' is not a signal (a number 1-%d, or a name: TERM, KILL, INT, "
			"HUP, STOP, CONT, USR1, ...)\n", sig_word, _NSIG);
		return -EINVAL;
	}
	if (kstrtou64(pid_word, 10, &pid)) {
		kprintf("kill: '%s' is not a process id (`ps` lists them)\n", pid_word);
		return -EINVAL;
	}
	err = kill_process((int)pid, (int)sig);
	if (err)
		kprintf("kill: no process %llu (`ps` lists them)\n", (unsigned long long)pid);
	return err;
}
SHELL_CMD(kill, "kill [-SIG|-s SIG] PID", "send a signal (default SIGTERM) to a process",
	  cmd_kill);
