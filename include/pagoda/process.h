/* SPDX-License-Identifier: MIT */
/*
 * User processes: an address space (a user mm, arch.h) with the areas
 * mapped in it, run by one task. A process starts in user mode at an entry
 * point with a stack, and ends by exit_group() or a fatal fault; whoever
 * started it collects its Linux-style wait status (exit code << 8, or the
 * signal number) with process_wait().
 */
#ifndef PAGODA_PROCESS_H
#define PAGODA_PROCESS_H

#include <pagoda/arch.h>
#include <pagoda/signal.h>
#include <pagoda/types.h>

struct task;
struct ramfs_file;

/* A mapped range [start, end) of anonymous, zeroed memory. */
struct vm_area {
	u64 start, end;
	unsigned int prot; /* PROT_* including PROT_USER */
	const char *name;  /* "[vdso]", "[vvar]": kernel pages, never freed; NULL: anonymous */
	struct vm_area *next;
};

#define NR_OPEN 16

/* An open file of the read-only initramfs, and where reading goes on. */
struct file {
	const struct ramfs_file *rf; /* NULL: the slot is free */
	u64 pos;
};

struct process {
	struct mm_struct mm;
	struct vm_area *vmas; /* sorted by address */
	struct task *task;
	u64 entry, stack, arg;
	u64 brk_start, brk;   /* the heap: [brk_start, brk), whole pages mapped */
	u64 mmap_base;        /* mmap() hands out addresses below this */
	u64 vdso_base;        /* AT_SYSINFO_EHDR, 0 when not mapped */
	u64 nr_syscalls;      /* system calls it made (a clock read through the vDSO is none) */
	char name[16];
	struct file files[NR_OPEN]; /* fds 0-2 are the console, never here */
};

struct process *process_create(const char *name);
/* Map [va, va + size) of zeroed pages with prot | PROT_USER: 0 or -errno. */
int process_map_anon(struct process *p, u64 va, u64 size, unsigned int prot);
/*
 * Map n pages the kernel owns (pas[i] each) at va, read-only plus prot,
 * as an area called name; unmapping it never frees them: 0 or -errno.
 */
int process_map_kernel_pages(struct process *p, u64 va, const phys_addr_t *pas,
			     unsigned int n, unsigned int prot, const char *name);
/* Unmap [start, end) (page aligned), splitting areas: 0 or -EINVAL. */
int process_unmap(struct process *p, u64 start, u64 end);
/* A free, page-aligned range of len bytes below p->mmap_base, or 0. */
u64 process_find_free(struct process *p, u64 len);
/* Copy into the process's memory (it need not be running): 0 or -EFAULT. */
int process_write(struct process *p, u64 va, const void *src, size_t n);
/* Start it at entry with stack pointer sp; arg goes in the first argument register. */
int process_start(struct process *p, u64 entry, u64 sp, u64 arg);
/* Wait for it to end, free it, and return its wait status. */
int process_wait(struct process *p);
/* The same, also giving its system call count. */
int process_wait_counted(struct process *p, u64 *nr_syscalls);
/* Free a process that was never started. */
void process_destroy(struct process *p);

/*
 * Load the static ELF executable at path in the initramfs into p (fresh
 * from process_create()) with Linux's initial stack; p->entry and
 * p->stack are then ready for process_start(). 0, or a negative errno
 * with *why saying why (a malformed file, a dynamic one, no memory).
 */
int process_exec(struct process *p, const char *path, int argc, const char *const *argv,
		 const char **why);
/* Create, exec, run and wait: the wait status, or a negative errno. */
int process_run(const char *path, int argc, const char *const *argv, const char **why);
/* The same, also telling how many system calls the program made. */
int process_run_counted(const char *path, int argc, const char *const *argv,
			const char **why, u64 *nr_syscalls);

/* The running process, or NULL in a kernel thread. */
struct process *current_process(void);
/* End the current process: exit_group(code) or a fatal signal. */
__noreturn void process_exit(int status);
__noreturn void process_exit_signal(int sig);

#endif
