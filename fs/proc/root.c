// SPDX-License-Identifier: MIT
/*
 * The process file system (Linux's fs/proc/root.c): the system-wide
 * files at the top, a directory per process named by its pid, "self", a
 * link to the reader's own, and sys/vm (proc_sysctl.c). Every file is
 * text made when it is opened (fs/proc/generic.c), in the format Linux's
 * has, so the programs that read Linux's /proc (ps, top, free, mount)
 * read this one.
 */
#include <pagoda/process.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "internal.h"

static const struct proc_entry root_entries[] = {
	{ "meminfo", proc_meminfo_show, NULL },
	{ "vmstat", proc_vmstat_show, NULL },
	{ "buddyinfo", proc_buddyinfo_show, NULL },
	{ "uptime", proc_uptime_show, NULL },
	{ "loadavg", proc_loadavg_show, NULL },
	{ "stat", proc_stat_show, NULL },
	{ "cpuinfo", proc_cpuinfo_show, NULL },
	{ "version", proc_version_show, NULL },
	{ "mounts", proc_mounts_show, NULL },
	{ "filesystems", proc_filesystems_show, NULL },
	{ "devices", proc_devices_show, NULL },
};

static bool pid_exists(int pid)
{
	struct process *p;
	bool found = false;

	mutex_lock(&process_lock);
	list_for_each_entry(p, &process_list, all)
		if (p->pid == pid)
			found = true;
	mutex_unlock(&process_lock);
	return found;
}

/*
 * What path names: the root (kind 0), a top-level file (1, *entry), "self"
 * (2), a process's directory (3, *pid), a process's file (4, *pid, *entry)
 * or its "exe" link (5, *pid). -ENOENT for anything else.
 */
enum { P_ROOT, P_FILE, P_SELF, P_PIDDIR, P_PIDFILE, P_EXE, P_SYS, P_SYSVM, P_SYSFILE };

/* Inode numbers of /proc/sys: below the pids' (0x10000 on), above the top files'. */
#define SYS_INO 0x8000
#define SYSVM_INO 0x8001
#define SYSVM_FILE_INO 0x8100

/* rest of a path under /proc/sys: "" (sys itself), "vm", or "vm/FILE". */
static int parse_sys(const char *rest, const struct proc_entry **entry)
{
	if (!*rest)
		return P_SYS;
	if (strncmp(rest, "vm", 2) || (rest[2] && rest[2] != '/'))
		return -ENOENT;
	if (!rest[2] || !rest[3])
		return P_SYSVM;
	for (unsigned int i = 0; i < proc_sys_vm_nr_entries; i++)
		if (!strcmp(proc_sys_vm_entries[i].name, rest + 3)) {
			*entry = &proc_sys_vm_entries[i];
			return P_SYSFILE;
		}
	return -ENOENT;
}

static int parse(const char *path, bool follow, int *pid, const struct proc_entry **entry)
{
	const char *slash = strchr(path, '/'), *rest;
	size_t n = slash ? (size_t)(slash - path) : strlen(path);
	u64 v = 0;

	if (!n)
		return P_ROOT;
	if (n == 4 && !strncmp(path, "self", 4)) {
		if (!slash && !follow)
			return P_SELF;
		*pid = current_process() ? current_process()->pid : 0;
	} else if (path[0] >= '1' && path[0] <= '9') {
		for (size_t i = 0; i < n; i++) {
			if (path[i] < '0' || path[i] > '9' || v > 1000000000)
				return -ENOENT;
			v = v * 10 + (u64)(path[i] - '0');
		}
		*pid = (int)v;
	} else if (n == 3 && !strncmp(path, "sys", 3)) {
		return parse_sys(slash ? slash + 1 : "", entry);
	} else {
		if (slash)
			return -ENOENT;
		for (size_t i = 0; i < ARRAY_SIZE(root_entries); i++)
			if (!strcmp(root_entries[i].name, path)) {
				*entry = &root_entries[i];
				return P_FILE;
			}
		return -ENOENT;
	}
	if (!*pid || !pid_exists(*pid))
		return -ENOENT;
	rest = slash ? slash + 1 : "";
	if (!*rest)
		return P_PIDDIR;
	if (!strcmp(rest, "exe"))
		return P_EXE;
	for (unsigned int i = 0; i < proc_pid_nr_entries; i++)
		if (!strcmp(proc_pid_entries[i].name, rest)) {
			*entry = &proc_pid_entries[i];
			return P_PIDFILE;
		}
	return -ENOENT;
}

static int proc_getattr(struct vfsmount *m, const char *path, struct kstat *k, bool follow)
{
	const struct proc_entry *entry = NULL;
	int pid = 0, kind = parse(path, follow, &pid, &entry);

	(void)m;
	if (kind < 0)
		return kind;
	*k = (struct kstat){ .nlink = 1, .blksize = 1024, .ino = 0x10000 + (u64)pid * 64 };
	switch (kind) {
	case P_ROOT:
	case P_PIDDIR:
		k->mode = S_IFDIR | 0555;
		k->nlink = 2;
		k->ino = kind == P_ROOT ? 1 : k->ino;
		break;
	case P_SYS:
	case P_SYSVM:
		k->mode = S_IFDIR | 0555;
		k->nlink = 2;
		k->ino = kind == P_SYS ? SYS_INO : SYSVM_INO;
		break;
	case P_SYSFILE:
		k->mode = S_IFREG | 0444;
		k->ino = SYSVM_FILE_INO + (u64)(entry - proc_sys_vm_entries);
		break;
	case P_SELF:
	case P_EXE:
		k->mode = S_IFLNK | 0777;
		k->ino += 1;
		break;
	default:
		k->mode = S_IFREG | (entry->write ? 0644 : 0444);
		k->ino += 2 + (u64)(entry - (kind == P_FILE ? root_entries : proc_pid_entries));
		break;
	}
	return 0;
}

static int proc_open(struct vfsmount *m, const char *path, unsigned long flags, u32 mode,
		     struct file *f)
{
	const struct proc_entry *entry = NULL;
	int pid = 0, kind = parse(path, true, &pid, &entry);

	(void)m;
	(void)mode;
	if (kind < 0)
		return (flags & O_CREAT) && kind == -ENOENT ? -EACCES : kind;
	if (kind == P_EXE)
		return -EACCES; /* a program is not a file to read here */
	if ((flags & O_ACCMODE) == O_WRONLY && kind == P_PIDFILE && entry->write)
		return proc_open_write(f, entry->write, pid);
	if ((flags & O_ACCMODE) != 0)
		return -EACCES; /* read-only (0444), or O_RDWR: one value is written, not read back */
	return proc_open_show(f, entry->show, kind == P_PIDFILE ? pid : 0);
}

static void emit_pid(struct dir_context *ctx, int pid, int *err)
{
	char name[16];

	if (*err)
		return;
	snprintf(name, sizeof(name), "%d", pid);
	*err = dir_emit(ctx, name, strlen(name), 0x10000 + (u64)pid * 64, DT_DIR);
}

static int proc_readdir(struct vfsmount *m, const char *path, struct dir_context *ctx)
{
	const struct proc_entry *entry = NULL;
	int pid = 0, kind = parse(path, true, &pid, &entry), err = 0;
	struct process *p;

	(void)m;
	if (kind == P_SYS)
		return dir_emit(ctx, "vm", 2, SYSVM_INO, DT_DIR);
	if (kind == P_SYSVM) {
		for (unsigned int i = 0; i < proc_sys_vm_nr_entries && !err; i++)
			err = dir_emit(ctx, proc_sys_vm_entries[i].name,
				       strlen(proc_sys_vm_entries[i].name), SYSVM_FILE_INO + i, DT_REG);
		return err;
	}
	if (kind == P_PIDDIR) {
		for (unsigned int i = 0; i < proc_pid_nr_entries && !err; i++)
			err = dir_emit(ctx, proc_pid_entries[i].name, strlen(proc_pid_entries[i].name),
				       0x10000 + (u64)pid * 64 + 2 + i, DT_REG);
		return err ? err : dir_emit(ctx, "exe", 3, 0x10000 + (u64)pid * 64 + 1, DT_LNK);
	}
	if (kind != P_ROOT)
		return kind < 0 ? kind : -ENOTDIR;
	for (size_t i = 0; i < ARRAY_SIZE(root_entries) && !err; i++)
		err = dir_emit(ctx, root_entries[i].name, strlen(root_entries[i].name), 2 + i, DT_REG);
	if (!err)
		err = dir_emit(ctx, "sys", 3, SYS_INO, DT_DIR);
	if (!err)
		err = dir_emit(ctx, "self", 4, 0x10000 - 1, DT_LNK);
	mutex_lock(&process_lock);
	list_for_each_entry(p, &process_list, all)
		emit_pid(ctx, p->pid, &err);
	mutex_unlock(&process_lock);
	return err;
}

static int proc_readlink(struct vfsmount *m, const char *path, char *buf, size_t size)
{
	const struct proc_entry *entry = NULL;
	int pid = 0, kind = parse(path, false, &pid, &entry);
	char text[PATH_MAX];
	struct process *p;
	size_t n;

	(void)m;
	if (kind < 0)
		return kind;
	if (kind == P_SELF) {
		snprintf(text, sizeof(text), "%d", current_process() ? current_process()->pid : 0);
	} else if (kind == P_EXE) {
		text[0] = '\0';
		mutex_lock(&process_lock);
		list_for_each_entry(p, &process_list, all)
			if (p->pid == pid)
				strlcpy(text, p->exe, sizeof(text));
		mutex_unlock(&process_lock);
		if (!text[0])
			return -ENOENT;
	} else {
		return -EINVAL;
	}
	n = MIN(strlen(text), size);
	memcpy(buf, text, n);
	return (int)n;
}

const struct file_system_type proc_fs_type = {
	.name = "proc",
	.nodev = true,
	.getattr = proc_getattr,
	.open = proc_open,
	.readdir = proc_readdir,
	.readlink = proc_readlink,
};
