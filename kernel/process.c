// SPDX-License-Identifier: MIT
/*
 * User processes, the portable half: a process owns a user address space
 * (arch_mm_init(): its own lower half, the kernel's upper half) and the
 * areas mapped in it (mm/mmap.c), and is run by one task or more (its
 * threads, kernel/thread.c) whose task->mm makes every context switch load
 * that address space. The task enters
 * user mode with arch_enter_user() and never comes back to its kernel
 * function: it leaves through process_exit(), from exit_group() or from a
 * fault the arch could not blame on the kernel (kernel/exit.c).
 *
 * Teardown runs on the last thread to end, after every thread has
 * switched to init_mm, so no CPU has the address space loaded while its
 * pages and tables are freed.
 */
#include <pagoda/arch.h>
#include <pagoda/fs.h>
#include <pagoda/mm.h>
#include <pagoda/oom.h>
#include <pagoda/preempt.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "syscalls.h"

struct process *process_create(const char *name)
{
	struct process *p;

	/*
	 * Linux runs no program before every struct page is written
	 * (page_alloc_init_late() comes before init); here the shell's prompt
	 * may come first, so a program typed at once waits for the rest of
	 * memory, and does not size itself by a MemFree still growing.
	 */
	page_alloc_wait_deferred();
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	if (arch_mm_init(&p->mm)) {
		kfree(p);
		return NULL;
	}
	strlcpy(p->name, name, sizeof(p->name));
	strlcpy(p->cwd, "/", sizeof(p->cwd));
	p->umask = 022; /* Linux's init starts with this one */
	p->start_time = ktime_get_ns();
	thread_init_main(p);
	init_rwsem(&p->mmap_lock);
	mutex_init(&p->page_table_lock);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->all);
	process_files_init(p);
	itimer_init(p);
	init_waitqueue_head(&p->child_exit);
	init_waitqueue_head(&p->stop_wait);
	init_waitqueue_head(&p->cr_wait);
	return p;
}

int process_write(struct process *p, u64 va, const void *src, size_t n)
{
	const u8 *s = src;

	while (n) {
		size_t chunk = MIN(n, PAGE_SIZE - (va & (PAGE_SIZE - 1)));
		unsigned int prot;
		phys_addr_t pa;

		/*
		 * Filled in now if it was never touched: the kernel writes even
		 * read-only text. Under page_table_lock, so that a truncate of a
		 * file p maps cannot take the page away mid-copy.
		 */
		mutex_lock(&p->page_table_lock);
		if (get_user_page(p, va, &pa) || arch_lookup(&p->mm, va, &pa, &prot)) {
			mutex_unlock(&p->page_table_lock);
			return -EFAULT;
		}
		memcpy(__va(pa), s, chunk);
		/* exec's text, restore's code: mapped before it was written */
		if (prot & PROT_EXEC)
			arch_sync_icache(__va(pa), chunk);
		mutex_unlock(&p->page_table_lock);
		va += chunk;
		s += chunk;
		n -= chunk;
	}
	return 0;
}

void process_free_memory(struct process *p)
{
	exit_aio(p); /* a device may still be filling pages its requests hold */
	down_write(&p->mmap_lock);
	process_free_areas(p);
	up_write(&p->mmap_lock);
	arch_mm_free(&p->mm);
}

void process_destroy(struct process *p)
{
	process_files_close(p);
	process_free_memory(p);
	process_free(p);
}

static int process_thread(void *arg)
{
	struct process *p = arg;

	arch_enter_user(p->entry, p->stack, p->arg);
}

int process_start(struct process *p, u64 entry, u64 sp, u64 arg)
{
	struct task *t = kthread_create(process_thread, p, "%s", p->name);

	if (!t)
		return -ENOMEM;
	p->entry = entry;
	p->stack = sp;
	p->arg = arg;
	p->task = p->main.task = t;
	p->pid = p->main.tid = t->pid;
	p->pgid = p->sid = p->pid; /* a program the kernel starts leads its own session, as init */
	p->nr_threads = 1;
	/* Set before its first switch-in, which loads them. */
	t->mm = &p->mm;
	t->ustate = &p->main.ustate;
	t->user_thread = &p->main;
	mutex_lock(&process_lock);
	list_add_tail(&p->all, &process_list);
	mutex_unlock(&process_lock);
	wake_up_process(t);
	return 0;
}

int process_wait_counted(struct process *p, u64 *nr_syscalls)
{
	int status = kthread_join(p->task);

	if (nr_syscalls)
		*nr_syscalls = p->nr_syscalls;
	process_free(p);
	return status;
}

/* The struct itself, once its task is gone and its memory freed. */
void process_free(struct process *p)
{
	mutex_lock(&process_lock);
	list_del_init(&p->all);
	mutex_unlock(&process_lock);
	process_free_threads(p);
	kfree(p);
}

int process_wait(struct process *p)
{
	return process_wait_counted(p, NULL);
}

struct process *current_process(void)
{
	struct mm_struct *mm = current->mm;

	return mm ? container_of(mm, struct process, mm) : NULL;
}

void process_exit_signal(int sig)
{
	/* From the arch's fault handler, interrupts still off. */
	arch_irq_enable();
	process_exit(sig);
}
