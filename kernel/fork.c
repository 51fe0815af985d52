// SPDX-License-Identifier: MIT
/*
 * fork, vfork and clone, after Linux's kernel/fork.c: a new process whose
 * memory is a copy of the caller's, whose registers are the caller's at
 * the system call except the return value (0 in the child, the child's
 * pid in the parent), and whose open files, FP/SIMD state and thread
 * pointer are the caller's too.
 *
 * The copy is copy-on-write, as Linux's: the child gets the same areas,
 * and every page the parent has is mapped in both, read-only and counted
 * (mm/memory.c's copy_page_range()); the first write to one copies it.
 * The vDSO and vvar pages are the kernel's and are mapped, not copied.
 *
 * Threads (CLONE_THREAD, with CLONE_VM and the rest) are kernel/thread.c's;
 * fork from a thread copies that thread alone, as Linux. vfork is a fork: the child does not borrow the
 * parent's memory, so the parent need not wait for it (Linux suspends the
 * parent until the child execs or exits; a program cannot tell here,
 * except that both may run at once).
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>

#define CSIGNAL 0x000000ff
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_VFORK 0x00004000
#define CLONE_THREAD 0x00010000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000

/* Copy one area: kernel pages mapped again, the process's own shared copy-on-write. */
static int copy_vma(struct process *c, struct process *p, struct vm_area *v)
{
	unsigned int prot = v->prot & (PROT_WRITE | PROT_EXEC);
	unsigned int n = (unsigned int)((v->end - v->start) / PAGE_SIZE);
	int err;

	if (v->name) {
		phys_addr_t *pas = kcalloc(n, sizeof(*pas), GFP_KERNEL);

		if (!pas)
			return -ENOMEM;
		for (unsigned int i = 0; i < n; i++)
			pas[i] = arch_virt_to_phys(&p->mm, v->start + i * PAGE_SIZE);
		err = process_map_kernel_pages(c, v->start, pas, n, prot, v->name);
		kfree(pas);
		return err;
	}
	/*
	 * The same area, then the pages the parent has, shared (untouched
	 * ones stay so); with MADV_WIPEONFORK the area alone, empty.
	 */
	err = dup_vma(c, v);
	return err || (v->flags & VM_WIPEONFORK) ? err : copy_page_range(c, p, v);
}

static int fork_child_thread(void *arg)
{
	struct process *c = arg;

	arch_enter_user_regs(c->main.fork_regs);
}

/*
 * The new process, started: its pid, or a negative errno with nothing
 * left behind. child_tid: where CLONE_CHILD_SETTID writes the child's pid
 * in the child's memory (0: nowhere).
 */
static long copy_process(unsigned long flags, u64 child_tid, u64 tls)
{
	struct process *p = current_process(), *c;
	struct thread *me = current_thread();
	struct pt_regs *regs = current->uregs;
	struct task *t;
	int err = 0;
	long pid;

	if (!p || !me || !regs)
		return -EINVAL;
	c = process_create(p->name);
	if (!c)
		return -ENOMEM;
	/* The registers are live: bring the saved copy up to date first. */
	arch_user_state_save(&me->ustate);
	c->main.ustate = me->ustate;
	if (flags & CLONE_SETTLS)
		arch_user_state_set_tls(&c->main.ustate, tls);
	/*
	 * Write-held, as Linux's dup_mmap(): the parent's other threads may
	 * not fault, map or unmap while its pages turn copy-on-write.
	 */
	down_write(&p->mmap_lock);
	for (struct vm_area *v = p->vmas; v && !err; v = v->next)
		if (!(v->flags & VM_DONTCOPY)) /* MADV_DONTFORK: the child goes without */
			err = copy_vma(c, p, v);
	up_write(&p->mmap_lock);
	c->main.fork_regs = kmalloc(arch_pt_regs_size, GFP_KERNEL);
	if (err || !c->main.fork_regs) {
		process_destroy(c);
		return err ? err : -ENOMEM;
	}
	memcpy(c->main.fork_regs, regs, arch_pt_regs_size);
	arch_regs_set_return(c->main.fork_regs, 0);
	c->brk_start = p->brk_start;
	c->brk = p->brk;
	c->mmap_base = p->mmap_base;
	c->vdso_base = p->vdso_base;
	process_files_close(c);
	process_files_copy(c, p);
	memcpy(c->exe, p->exe, sizeof(c->exe));
	memcpy(c->cmdline, p->cmdline, sizeof(c->cmdline));
	c->cmdline_len = p->cmdline_len;
	memcpy(c->sigaction, p->sigaction, sizeof(c->sigaction));
	c->main.sigmask = me->sigmask;
	c->oom_score_adj = p->oom_score_adj; /* inherited, as Linux's signal_struct */
	c->main.altstack = me->altstack; /* a child keeps its parent's alternate stack, as on Linux */
	c->autoreap = true;
	t = kthread_create(fork_child_thread, c, "%s", c->name);
	if (!t) {
		process_destroy(c);
		return -ENOMEM;
	}
	set_user_nice(t, current->nice); /* a child runs at its parent's nice, as on Linux */
	c->task = c->main.task = t;
	c->pid = c->main.tid = pid = t->pid;
	c->nr_threads = 1;
	t->mm = &c->mm;
	t->ustate = &c->main.ustate;
	t->user_thread = &c->main;
	if ((flags & CLONE_CHILD_SETTID) && child_tid) {
		u32 v = (u32)pid;

		process_write(c, child_tid, &v, sizeof(v)); /* a bad address: Linux ignores it too */
	}
	mutex_lock(&process_lock);
	c->pgid = p->pgid; /* in its parent's group and session, as Linux */
	c->sid = p->sid;
	c->parent = p;
	list_add_tail(&c->sibling, &p->children);
	list_add_tail(&c->all, &process_list);
	mutex_unlock(&process_lock);
	wake_up_process(t);
	return pid;
}

long sys_fork(const unsigned long *args)
{
	(void)args;
	return copy_process(0, 0, 0);
}

long sys_vfork(const unsigned long *args)
{
	(void)args;
	return copy_process(0, 0, 0);
}

/*
 * clone(flags, newsp, parent_tid, child_tid, tls); an arch whose Linux
 * selects CLONE_BACKWARDS (arm64) passes tls before child_tid, and says
 * so in its <asm/unistd.h>. What a libc's fork() and posix_spawn's vfork path pass is
 * a fork; CLONE_THREAD (pthread_create()) a thread (kernel/thread.c).
 * Sharing memory, files or signal handlers without being a thread is not
 * supported.
 */
long sys_clone(const unsigned long *args)
{
	unsigned long flags = args[0];
	u64 parent_tid = args[2];
#ifdef CONFIG_CLONE_BACKWARDS
	u64 child_tid = args[4], tls = args[3];
#else
	u64 child_tid = args[3], tls = args[4];
#endif
	unsigned long known = CSIGNAL | CLONE_VFORK | CLONE_SETTLS | CLONE_PARENT_SETTID |
			      CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID;
	long pid;

	if (flags & (CLONE_THREAD | CLONE_SIGHAND))
		return clone_thread(flags, args[1], parent_tid, child_tid, tls);
	if ((flags & CLONE_VM) && (flags & CLONE_VFORK) && !args[1])
		flags &= ~CLONE_VM; /* vfork through clone: a fork here */
	if (flags & ~known) {
		static bool told;

		if (!xchg(&told, true))
			pr_warn("clone: flags %#lx not supported (a thread needs CLONE_THREAD)\n", flags);
		return -EINVAL;
	}
	if (args[1])
		return -EINVAL; /* a new stack only makes sense with shared memory */
	pid = copy_process(flags, child_tid, tls);
	if (pid > 0 && (flags & CLONE_PARENT_SETTID) && parent_tid) {
		u32 v = (u32)pid;

		if (copy_to_user(parent_tid, &v, sizeof(v)))
			return -EFAULT;
	}
	return pid;
}
