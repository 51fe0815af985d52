// SPDX-License-Identifier: MIT
/*
 * User processes, the portable half: a process owns a user address space
 * (arch_mm_init(): its own lower half, the kernel's upper half) and the
 * anonymous areas mapped in it, and is run by one task whose task->mm
 * makes every context switch load that address space. The task enters
 * user mode with arch_enter_user() and never comes back to its kernel
 * function: it leaves through process_exit(), from exit_group() or from a
 * fault the arch could not blame on the kernel.
 *
 * Teardown runs on the dying task itself, after it has switched to
 * init_mm, so no CPU has the address space loaded while its pages and
 * tables are freed.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/preempt.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>

struct process *process_create(const char *name)
{
	struct process *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	if (arch_mm_init(&p->mm)) {
		kfree(p);
		return NULL;
	}
	strlcpy(p->name, name, sizeof(p->name));
	arch_user_state_init(&p->ustate);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->all);
	process_files_init(p);
	itimer_init(p);
	init_waitqueue_head(&p->child_exit);
	init_waitqueue_head(&p->cr_wait);
	return p;
}

/* Unmap whatever pages of [start, end) are mapped, freeing them if ours. */
static void unmap_pages(struct process *p, u64 start, u64 end, bool ours)
{
	for (u64 a = start; a < end; a += PAGE_SIZE) {
		phys_addr_t pa;

		if (arch_lookup(&p->mm, a, &pa, NULL))
			continue;
		arch_unmap_range(&p->mm, a, PAGE_SIZE);
		if (ours)
			__free_page(pfn_to_page(PHYS_PFN(pa)));
	}
}

static void free_range(struct process *p, u64 start, u64 end)
{
	unmap_pages(p, start, end, true);
}

static void insert_vma(struct process *p, struct vm_area *vma)
{
	struct vm_area **link;

	for (link = &p->vmas; *link && (*link)->start < vma->start; link = &(*link)->next)
		;
	vma->next = *link;
	*link = vma;
}

int process_map_kernel_pages(struct process *p, u64 va, const phys_addr_t *pas,
			     unsigned int n, unsigned int prot, const char *name)
{
	struct vm_area *vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	unsigned int flags = prot | PROT_PRESENT | PROT_USER;
	int err = 0;

	if (!vma)
		return -ENOMEM;
	for (unsigned int i = 0; i < n && !err; i++) {
		err = arch_map_range(&p->mm, va + i * PAGE_SIZE, pas[i], PAGE_SIZE, flags);
		if (err)
			unmap_pages(p, va, va + i * PAGE_SIZE, false);
	}
	if (err) {
		kfree(vma);
		return err;
	}
	*vma = (struct vm_area){ .start = va, .end = va + n * PAGE_SIZE, .prot = flags,
				 .name = name };
	insert_vma(p, vma);
	return 0;
}

int process_map_anon(struct process *p, u64 va, u64 size, unsigned int prot)
{
	struct vm_area *vma;
	int err = 0;

	if (!size || !IS_ALIGNED(va, PAGE_SIZE) || !IS_ALIGNED(size, PAGE_SIZE))
		return -EINVAL;
	vma = kzalloc(sizeof(*vma), GFP_KERNEL);
	if (!vma)
		return -ENOMEM;
	for (u64 off = 0; off < size && !err; off += PAGE_SIZE) {
		struct page *pg = alloc_page(GFP_KERNEL | __GFP_ZERO);

		if (!pg) {
			err = -ENOMEM;
			break;
		}
		err = arch_map_range(&p->mm, va + off, page_to_phys(pg), PAGE_SIZE,
				     prot | PROT_PRESENT | PROT_USER);
		if (err) {
			__free_page(pg);
			/* The pages before this one are ours; a clash is not. */
			free_range(p, va, va + off);
		}
	}
	if (err) {
		kfree(vma);
		return err;
	}
	vma->start = va;
	vma->end = va + size;
	vma->prot = prot | PROT_PRESENT | PROT_USER;
	insert_vma(p, vma);
	return 0;
}

int process_unmap(struct process *p, u64 start, u64 end)
{
	struct vm_area **link = &p->vmas;

	if (!IS_ALIGNED(start, PAGE_SIZE) || !IS_ALIGNED(end, PAGE_SIZE) || end <= start ||
	    end > TASK_SIZE)
		return -EINVAL;
	while (*link) {
		struct vm_area *vma = *link;

		if (vma->end <= start || vma->start >= end) {
			link = &vma->next;
			continue;
		}
		if (start > vma->start && end < vma->end) {
			/* A hole in the middle: the tail becomes an area of its own. */
			struct vm_area *tail = kzalloc(sizeof(*tail), GFP_KERNEL);

			if (!tail)
				return -ENOMEM;
			unmap_pages(p, start, end, !vma->name);
			*tail = *vma;
			tail->start = end;
			vma->end = start;
			vma->next = tail;
			link = &tail->next;
			continue;
		}
		unmap_pages(p, MAX(start, vma->start), MIN(end, vma->end), !vma->name);
		if (start <= vma->start && end >= vma->end) {
			*link = vma->next;
			kfree(vma);
			continue;
		}
		if (start <= vma->start)
			vma->start = end;
		else
			vma->end = start;
		link = &vma->next;
	}
	return 0;
}

/* Make addr a boundary between areas, if an area spans it: 0 or -ENOMEM. */
static int split_at(struct process *p, u64 addr)
{
	for (struct vm_area *v = p->vmas; v; v = v->next) {
		struct vm_area *tail;

		if (addr <= v->start || addr >= v->end)
			continue;
		tail = kzalloc(sizeof(*tail), GFP_KERNEL);
		if (!tail)
			return -ENOMEM;
		*tail = *v;
		tail->start = addr;
		v->end = addr;
		v->next = tail;
		return 0;
	}
	return 0;
}

int process_protect(struct process *p, u64 start, u64 end, unsigned int prot)
{
	unsigned int flags = (prot & (PROT_WRITE | PROT_EXEC)) | PROT_PRESENT | PROT_USER;
	u64 covered = start;
	int err;

	if (!IS_ALIGNED(start, PAGE_SIZE) || !IS_ALIGNED(end, PAGE_SIZE) || end <= start ||
	    end > TASK_SIZE)
		return -EINVAL;
	/* Every page must be mapped, by the program's own areas (Linux: -ENOMEM). */
	for (struct vm_area *v = p->vmas; v && covered < end; v = v->next) {
		if (v->end <= covered)
			continue;
		if (v->start > covered)
			return -ENOMEM;
		if (v->name)
			return -EACCES;
		covered = v->end;
	}
	if (covered < end)
		return -ENOMEM;
	err = split_at(p, start);
	if (!err)
		err = split_at(p, end);
	if (err)
		return err;
	for (struct vm_area *v = p->vmas; v; v = v->next) {
		if (v->start < start || v->end > end)
			continue;
		err = arch_protect_range(&p->mm, v->start, v->end - v->start, flags);
		if (err)
			return err;
		v->prot = flags;
	}
	return 0;
}

/* Is [start, end) free of areas? */
static bool range_free(struct process *p, u64 start, u64 end)
{
	if (end > TASK_SIZE || end <= start)
		return false;
	for (struct vm_area *v = p->vmas; v; v = v->next)
		if (v->start < end && v->end > start)
			return false;
	return true;
}

/*
 * Move the area exactly covering [old, old + len) to dest, pages and all
 * (their physical pages stay: only the mapping moves). The vDSO keeps the
 * kernel's record of where it is.
 */
static int move_area(struct process *p, struct vm_area *v, u64 dest)
{
	u64 len = v->end - v->start;
	struct vm_area **link;
	int err = 0;

	u64 off;

	for (off = 0; off < len && !err; off += PAGE_SIZE) {
		phys_addr_t pa;

		if (arch_lookup(&p->mm, v->start + off, &pa, NULL))
			continue;
		err = arch_map_range(&p->mm, dest + off, pa, PAGE_SIZE, v->prot);
		if (!err)
			arch_unmap_range(&p->mm, v->start + off, PAGE_SIZE);
	}
	if (err) {
		/*
		 * Out of page-table pages at dest: put back what moved. The old
		 * range's tables are still there (unmapping frees no table),
		 * so mapping back needs no new one.
		 */
		while (off > PAGE_SIZE) {
			phys_addr_t pa;

			off -= PAGE_SIZE;
			if (arch_lookup(&p->mm, dest + off - PAGE_SIZE, &pa, NULL))
				continue;
			arch_map_range(&p->mm, v->start + off - PAGE_SIZE, pa, PAGE_SIZE, v->prot);
			arch_unmap_range(&p->mm, dest + off - PAGE_SIZE, PAGE_SIZE);
		}
		return err;
	}
	if (v->name && !strcmp(v->name, "[vdso]"))
		p->vdso_base = dest;
	for (link = &p->vmas; *link != v; link = &(*link)->next)
		;
	*link = v->next;
	v->start = dest;
	v->end = dest + len;
	insert_vma(p, v);
	return 0;
}

long process_mremap(struct process *p, u64 old, u64 old_len, u64 new_len, bool may_move,
		    bool fixed, u64 new_addr)
{
	struct vm_area *v;
	u64 dest;
	int err;

	if (!IS_ALIGNED(old, PAGE_SIZE) || !old_len || !new_len || (fixed && !may_move) ||
	    (fixed && !IS_ALIGNED(new_addr, PAGE_SIZE)))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	for (v = p->vmas; v && !(v->start <= old && old < v->end); v = v->next)
		;
	if (!v || old + old_len > v->end)
		return -EFAULT; /* Linux: the old range must lie in one mapping */
	if (v->name && new_len != old_len)
		return -EINVAL; /* the vDSO and vvar move whole, they do not grow */
	if (!fixed && new_len <= old_len) {
		if (new_len < old_len)
			process_unmap(p, old + new_len, old + old_len);
		return (long)old;
	}
	if (!fixed && range_free(p, old + old_len, old + new_len) && !v->name) {
		err = process_map_anon(p, old + old_len, new_len - old_len,
				       v->prot & (PROT_WRITE | PROT_EXEC));
		return err ? err : (long)old;
	}
	if (!may_move)
		return -ENOMEM;
	if (fixed) {
		if (new_addr < old + old_len && new_addr + new_len > old)
			return -EINVAL; /* overlapping source and destination */
		if (new_addr + new_len > TASK_SIZE)
			return -EINVAL;
		process_unmap(p, new_addr, new_addr + new_len);
		dest = new_addr;
	} else {
		dest = process_find_free(p, new_len);
		if (!dest)
			return -ENOMEM;
	}
	/* Move exactly the old range: split it out of its area first. */
	err = split_at(p, old);
	if (!err)
		err = split_at(p, old + old_len);
	if (err)
		return err;
	for (v = p->vmas; v && v->start != old; v = v->next)
		;
	err = move_area(p, v, dest);
	if (!err && new_len > old_len)
		err = process_map_anon(p, dest + old_len, new_len - old_len,
				       v->prot & (PROT_WRITE | PROT_EXEC));
	return err ? err : (long)dest;
}

u64 process_find_free(struct process *p, u64 len)
{
	u64 lo = ALIGN_UP(p->brk, PAGE_SIZE) + SZ_1M; /* room for the heap to grow */
	u64 cand;
	bool moved = true;

	if (!len || len > p->mmap_base)
		return 0;
	cand = p->mmap_base - len;
	while (moved) {
		moved = false;
		for (struct vm_area *v = p->vmas; v; v = v->next)
			if (v->start < cand + len && v->end > cand) {
				if (v->start < len)
					return 0;
				cand = v->start - len;
				moved = true;
			}
		if (cand < lo)
			return 0;
	}
	return cand;
}

int process_write(struct process *p, u64 va, const void *src, size_t n)
{
	const u8 *s = src;

	while (n) {
		size_t chunk = MIN(n, PAGE_SIZE - (va & (PAGE_SIZE - 1)));
		unsigned int prot;
		phys_addr_t pa;

		if (arch_lookup(&p->mm, va, &pa, &prot))
			return -EFAULT;
		memcpy(__va(pa), s, chunk);
		/* exec's text, restore's code: mapped before it was written */
		if (prot & PROT_EXEC)
			arch_sync_icache(__va(pa), chunk);
		va += chunk;
		s += chunk;
		n -= chunk;
	}
	return 0;
}

void process_free_memory(struct process *p)
{
	while (p->vmas) {
		struct vm_area *vma = p->vmas;

		p->vmas = vma->next;
		unmap_pages(p, vma->start, vma->end, !vma->name);
		kfree(vma);
	}
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
	p->task = t;
	p->pid = t->pid;
	/* Set before its first switch-in, which loads them. */
	t->mm = &p->mm;
	t->ustate = &p->ustate;
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
	kfree(p->fork_regs);
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

void process_exit(int status)
{
	struct process *p = current_process();

	if (!p)
		panic("process_exit() from kernel thread %s", current->name);
	preempt_disable();
	current->mm = NULL;
	current->ustate = NULL;
	arch_switch_mm(&init_mm);
	preempt_enable();
	itimer_exit(p); /* no SIGALRM to a process on its way out */
	process_free_memory(p);
	/* Pipe ends close here: a reader waiting on this writer sees end-of-file. */
	process_files_close(p);
	/* From here the parent (or the reaper) may collect p once this task is gone. */
	exit_notify(p, status);
	kthread_exit(status);
}

void process_exit_signal(int sig)
{
	/* From the arch's fault handler, interrupts still off. */
	arch_irq_enable();
	process_exit(sig);
}
