// SPDX-License-Identifier: MIT
/*
 * Restore: an image back into running processes, all or nothing.
 *
 * The checker (image.c) has accepted every record before anything is
 * built, and every pid is known free. Then each process is built whole
 * without running: address space, areas, page contents, vDSO, registers,
 * signals, descriptors, each with its task created under its old pid but
 * not woken. Any failure there (memory, a pid taken meanwhile, an
 * initramfs file this kernel lacks) takes every built process apart
 * again, so a refused image leaves no trace. Only when all are built are
 * they joined into a family and woken; each enters user mode with its
 * saved frame, exactly where it stopped, through the same exit fork's
 * children take.
 *
 * An ended child that its parent had not collected comes back as a
 * zombie with its status, so the parent's wait4() still finds it.
 */
#include <pagoda/err.h>
#include <pagoda/file.h>
#include <pagoda/initramfs.h>
#include <pagoda/pipe.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "cr.h"

struct built {
	struct process *p;
	const struct cr_proc *pr;
	bool vdso_same;         /* its [vdso] is mapped by vdso_cr.c, not from pages */
};

struct restore_state {
	struct cr_symtab run;   /* the running vDSO's exports */
	bool vdso_same;         /* the image's vDSO is the running one */
	struct built b[CR_MAX_PROCS];
	unsigned int n;
	struct file *pipe_r[CR_MAX_FILES], *pipe_w[CR_MAX_FILES];
	bool pipe_r_used[CR_MAX_FILES], pipe_w_used[CR_MAX_FILES];
	u32 pipe_ids[CR_MAX_FILES];
	unsigned int np;
	struct file *files[CR_MAX_FILES];
	u32 file_ids[CR_MAX_FILES];
	unsigned int nf;
};

void cr_limits(struct cr_limits *lim)
{
	*lim = (struct cr_limits){ .machine = ELF_MACHINE, .regs_size = arch_pt_regs_size,
				   .ustate_size = sizeof(struct arch_user_state),
				   .task_size = TASK_SIZE };
}

static struct built *find(struct restore_state *s, s32 pid)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (s->b[i].p->pid == pid)
			return &s->b[i];
	return NULL;
}

/* The task's first act: enter user mode where the image stopped (or end, if undone). */
static int restored_thread(void *arg)
{
	struct process *c = arg;

	if (c->zombie || !c->main.fork_regs)
		return c->exit_status; /* a zombie's task only needs to have ended */
	arch_enter_user_regs(c->main.fork_regs);
}

static int build_proc(struct restore_state *s, const struct cr_proc *pr, const char **why)
{
	struct process *c = process_create(pr->name);
	struct built *b = &s->b[s->n];

	if (!c) {
		*why = "out of memory for a process";
		return -ENOMEM;
	}
	process_files_close(c); /* the image says what it had open */
	b->p = c;
	b->pr = pr;
	s->n++;
	c->pid = pr->pid;
	c->autoreap = true;
	if (pr->flags & CR_PROC_ZOMBIE) {
		c->zombie = true;
		c->exit_status = pr->exit_status;
		return 0;
	}
	c->brk_start = pr->brk_start;
	c->brk = pr->brk;
	c->mmap_base = pr->mmap_base;
	c->stack = pr->stack;
	c->nr_syscalls = pr->nr_syscalls;
	c->main.sigmask = pr->sigmask & ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	c->sigpending = pr->sigpending;
	for (int i = 0; i < CR_NSIG; i++)
		memcpy(&c->sigaction[i], &pr->act[i], sizeof(c->sigaction[i]));
	memcpy(&c->main.ustate, pr->ustate, sizeof(c->main.ustate));
	c->main.fork_regs = kmalloc(arch_pt_regs_size, GFP_KERNEL);
	if (!c->main.fork_regs) {
		*why = "out of memory for a process";
		return -ENOMEM;
	}
	memcpy(c->main.fork_regs, pr->regs, arch_pt_regs_size);
	if (arch_cr_regs_check(c->main.fork_regs, &c->main.ustate)) {
		*why = "saved registers point outside user space";
		return -EINVAL;
	}
	return 0;
}

static int build_vma(struct restore_state *s, const struct cr_vma *v, const char **why)
{
	struct built *b = &s->b[s->n - 1];
	int err;

	if (v->kind == CR_VMA_VVAR)
		return 0; /* the kernel's page: vdso_cr.c maps the live one, or none */
	if (v->kind == CR_VMA_VDSO && b->vdso_same && (b->pr->flags & CR_PROC_VDSO) &&
	    v->start == b->pr->vdso_base)
		return 0; /* the same vDSO: vdso_cr.c maps the kernel's pages there */
	if (v->kind == CR_VMA_FILE) {
		/* The image checker saw the path NUL-terminated after the record. */
		const struct ramfs_file *rf = ramfs_lookup((const char *)(v + 1));

		if (!rf) {
			*why = "a mapped file is not in this kernel's initramfs";
			return -ENOENT;
		}
		err = process_map_file(b->p, v->start, v->end - v->start,
				       v->prot & (PROT_WRITE | PROT_EXEC), 0, rf, v->pgoff);
	} else {
		err = process_map_anon(b->p, v->start, v->end - v->start,
				       v->prot & (PROT_WRITE | PROT_EXEC));
	}
	if (err)
		*why = err == -ENOMEM ? "out of memory for a process's pages" :
					"a memory area could not be mapped";
	else if (v->start <= b->p->stack && b->p->stack < v->end)
		find_vma(b->p, v->start)->flags |= VM_GROWSDOWN; /* the stack grows again */
	return err;
}

static int build_page(struct restore_state *s, const struct cr_page *pg, const char **why)
{
	struct built *b = &s->b[s->n - 1];

	struct vm_area *v = find_vma(b->p, pg->va);

	/* A page of a vDSO mapped live (or of a skipped area) has nowhere to go: fine. */
	if (!v || v->start > pg->va || v->name)
		return 0;
	cr_stats.pages_copied++;
	if (process_write(b->p, pg->va, pg->data, CR_PAGE_SIZE)) {
		*why = "a page could not be written";
		return -EFAULT;
	}
	return 0;
}

static int build_pipe(struct restore_state *s, const struct cr_pipe *pp, const char **why)
{
	unsigned int i = s->np;
	int err = pipe_create(&s->pipe_r[i], &s->pipe_w[i], false);

	if (err) {
		*why = "out of memory for a pipe";
		return err;
	}
	s->pipe_ids[i] = pp->id;
	s->np++;
	return pipe_fill(s->pipe_r[i], pp + 1, pp->len);
}

static int build_file(struct restore_state *s, const struct cr_file *rf, const char **why)
{
	struct file *f = NULL;

	if (rf->kind == CR_FILE_CONSOLE) {
		f = file_console();
	} else if (rf->kind == CR_FILE_RAMFS) {
		const struct ramfs_file *r = ramfs_lookup(rf->path);

		if (!r) {
			*why = "an open file is not in this kernel's initramfs";
			return -ENOENT;
		}
		f = file_alloc(FILE_RAMFS);
		if (f) {
			f->rf = r;
			f->pos = rf->pos;
		}
	} else {
		bool w = rf->flags & CR_FILE_WRITE_END;

		for (unsigned int i = 0; i < s->np; i++) {
			bool *used = w ? &s->pipe_w_used[i] : &s->pipe_r_used[i];

			if (s->pipe_ids[i] != rf->pipe_id)
				continue;
			if (*used) {
				*why = "two descriptions of one pipe end";
				return -EINVAL;
			}
			*used = true;
			f = w ? s->pipe_w[i] : s->pipe_r[i];
			file_get(f);
		}
	}
	if (!f) {
		*why = "out of memory for an open file";
		return -ENOMEM;
	}
	f->nonblock = rf->flags & CR_FILE_NONBLOCK;
	s->files[s->nf] = f;
	s->file_ids[s->nf++] = rf->id;
	return 0;
}

static int build_fd(struct restore_state *s, const struct cr_fd *fd)
{
	struct built *b = find(s, fd->pid);

	for (unsigned int i = 0; i < s->nf; i++)
		if (s->file_ids[i] == fd->file_id) {
			file_get(s->files[i]);
			b->p->fds[fd->fd] = s->files[i];
		}
	return 0;
}

/* Drop the build's own references: what no descriptor holds goes (an unheld pipe end closes). */
static void put_tables(struct restore_state *s)
{
	for (unsigned int i = 0; i < s->nf; i++)
		file_put(s->files[i]);
	for (unsigned int i = 0; i < s->np; i++) {
		file_put(s->pipe_r[i]);
		file_put(s->pipe_w[i]);
	}
	s->nf = s->np = 0;
}

/* Undo: every built process goes, its never-run task ended and joined. */
static void undo(struct restore_state *s)
{
	put_tables(s);
	for (unsigned int i = 0; i < s->n; i++) {
		struct process *c = s->b[i].p;

		kfree(c->main.fork_regs);
		c->main.fork_regs = NULL;
		c->zombie = true; /* its thread, if made, returns at once */
		if (c->task) {
			wake_up_process(c->task);
			kthread_join(c->task);
		}
		process_destroy(c);
	}
	s->n = 0;
}

static int build_all(struct restore_state *s, const void *img, const struct cr_summary *sum,
		     const char **why)
{
	size_t off = sizeof(struct cr_header);
	const struct cr_rec *r;
	u64 t0 = ktime_get_ns();
	int err = cr_vdso_running(&s->run, why);

	s->vdso_same = !err && cr_symtab_equal(sum->symtab, &s->run);
	cr_stats.vdso_ns += ktime_get_ns() - t0;
	while (!err && (r = cr_image_next(img, &off))) {
		const void *payload = r + 1;

		switch (r->type) {
		case CR_REC_PROC:
			err = build_proc(s, payload, why);
			if (!err)
				s->b[s->n - 1].vdso_same = s->vdso_same;
			break;
		case CR_REC_VMA:
			err = build_vma(s, payload, why);
			break;
		case CR_REC_PAGE:
			err = build_page(s, payload, why);
			break;
		case CR_REC_PIPE:
			err = build_pipe(s, payload, why);
			break;
		case CR_REC_FILE:
			err = build_file(s, payload, why);
			break;
		case CR_REC_FD:
			err = build_fd(s, payload);
			break;
		}
	}
	t0 = ktime_get_ns();
	for (unsigned int i = 0; !err && i < s->n; i++) {
		struct built *b = &s->b[i];

		if (!b->p->zombie)
			err = cr_vdso_restore(b->p, b->pr, sum->symtab, &s->run, why);
	}
	cr_stats.vdso_ns += ktime_get_ns() - t0;
	for (unsigned int i = 0; !err && i < s->n; i++) {
		struct built *b = &s->b[i];
		struct task *t = kthread_create_pid(b->pr->pid, restored_thread, b->p, b->p->name);

		if (IS_ERR(t)) {
			err = (int)PTR_ERR(t);
			*why = err == -EEXIST ? "a process id was taken while restoring" :
						"out of memory for a task";
			break;
		}
		b->p->task = b->p->main.task = t;
		b->p->main.tid = t->pid;
		if (!b->p->zombie) {
			b->p->nr_threads = 1;
			t->mm = &b->p->mm;
			t->ustate = &b->p->main.ustate;
			t->user_thread = &b->p->main;
		}
	}
	return err;
}

/*
 * Join the family and start everyone: nothing can fail from here.
 * before_start runs once they are all in place and none has run (the
 * shell says "running again" before their output can begin).
 */
static void commit(struct restore_state *s, void (*before_start)(void))
{
	mutex_lock(&process_lock);
	for (unsigned int i = 0; i < s->n; i++) {
		struct built *b = &s->b[i];
		struct built *parent = b->pr->ppid ? find(s, b->pr->ppid) : NULL;

		if (parent) {
			b->p->parent = parent->p;
			list_add_tail(&b->p->sibling, &parent->p->children);
		}
		list_add_tail(&b->p->all, &process_list);
	}
	mutex_unlock(&process_lock);
	if (before_start)
		before_start();
	for (unsigned int i = 0; i < s->n; i++) {
		if (s->b[i].p->zombie)
			process_free_memory(s->b[i].p);
		wake_up_process(s->b[i].p->task);
	}
}

/*
 * CLOCK_MONOTONIC restarts near zero at boot, and a restored program
 * that read it before must not see it go back: wait (a minute at most)
 * until this boot's clock passes the dump's.
 */
static void wait_for_clock(u64 mono_ns)
{
	u64 now = ktime_get_ns();

	if (now >= mono_ns)
		return;
	if (mono_ns - now > 60 * NSEC_PER_SEC) {
		pr_warn("cr: the image was dumped %llu s into its boot: restored clocks will go back\n",
			(unsigned long long)(mono_ns / NSEC_PER_SEC));
		return;
	}
	pr_info("cr: waiting %llu ms for CLOCK_MONOTONIC to pass the dump's\n",
		(unsigned long long)((mono_ns - now) / 1000000));
	while (ktime_get_ns() < mono_ns)
		msleep(10);
}

int cr_restore(const void *img, size_t len, void (*before_start)(void), const char **why)
{
	static struct restore_state s; /* large: cr_lock makes it ours */
	struct cr_limits lim;
	struct cr_summary sum;
	size_t off = sizeof(struct cr_header);
	const struct cr_rec *r;
	int err;

	cr_limits(&lim);
	cr_last_vdso = "none";
	err = cr_image_check(img, len, &lim, &sum, why);
	if (err)
		return err;
	while ((r = cr_image_next(img, &off)))
		if (r->type == CR_REC_PROC && pid_in_use(((const struct cr_proc *)(r + 1))->pid)) {
			*why = "a process id in the image is in use (end that process first)";
			return -EEXIST;
		}
	wait_for_clock(sum.hdr->mono_ns);
	memset(&s, 0, sizeof(s));
	err = build_all(&s, img, &sum, why);
	if (err) {
		undo(&s);
		return err;
	}
	put_tables(&s);
	commit(&s, before_start);
	return 0;
}
