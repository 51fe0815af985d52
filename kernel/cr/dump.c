// SPDX-License-Identifier: MIT
/*
 * The dump: a frozen set of processes written as one image (image.h).
 * Per process its registers as the entry code saved them, FP/SIMD and
 * the thread pointer, signal actions and masks, family, areas and the
 * contents of their pages; then the open files the set shares, each
 * once, so that a description two processes hold (a pipe end inherited
 * across fork, a dup) is one description again after restore.
 *
 * Pages that are all zeroes are left out: restore maps zeroed pages
 * anyway, and a program's 128 KiB stack is mostly untouched. [vvar] is
 * the kernel's page of clock data, never dumped; [vdso] is, because a
 * kernel with another vDSO needs the old code's bytes around its
 * trampolines (vdso_cr.c).
 */
#include <pagoda/crc32.h>
#include <pagoda/file.h>
#include <pagoda/initramfs.h>
#include <pagoda/mm.h>
#include <pagoda/pipe.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/ramfs.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/vmalloc.h>
#include "cr.h"

void cr_buf_free(struct cr_buf *b)
{
	vfree(b->data);
	*b = (struct cr_buf){ 0 };
}

static int buf_reserve(struct cr_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 64 * 1024;
	u8 *n;

	if (b->len + more <= b->cap)
		return 0;
	while (cap < b->len + more)
		cap *= 2;
	n = vmalloc(cap);
	if (!n)
		return -ENOMEM;
	if (b->data)
		memcpy(n, b->data, b->len);
	vfree(b->data);
	b->data = n;
	b->cap = cap;
	return 0;
}

/* Append a record: payload a, then b (either may be NULL), padded to 8. */
static int put(struct cr_buf *out, u32 type, const void *a, u32 alen, const void *b, u32 blen,
	       u32 *nr)
{
	struct cr_rec r = { .type = type, .len = alen + blen };
	size_t pad = ALIGN_UP((size_t)r.len, 8) - r.len;

	if (buf_reserve(out, sizeof(r) + r.len + pad))
		return -ENOMEM;
	memcpy(out->data + out->len, &r, sizeof(r));
	out->len += sizeof(r);
	if (alen)
		memcpy(out->data + out->len, a, alen);
	out->len += alen;
	if (blen)
		memcpy(out->data + out->len, b, blen);
	out->len += blen;
	memset(out->data + out->len, 0, pad);
	out->len += pad;
	(*nr)++;
	return 0;
}

static bool in_set(const struct cr_set *set, const struct process *p)
{
	for (unsigned int i = 0; i < set->n; i++)
		if (set->p[i] == p)
			return true;
	return false;
}

static u32 vma_kind(const struct vm_area *v)
{
	if (!v->name)
		return v->rf ? CR_VMA_FILE : CR_VMA_ANON;
	return strcmp(v->name, "[vdso]") ? CR_VMA_VVAR : CR_VMA_VDSO;
}

static bool page_is_zero(const u8 *pg)
{
	const u64 *w = (const u64 *)pg;

	for (unsigned int i = 0; i < PAGE_SIZE / 8; i++)
		if (w[i])
			return false;
	return true;
}

static int dump_memory(struct process *p, struct cr_buf *out, u32 *nr)
{
	static struct cr_page page; /* a page and its header: not on the stack (cr_lock) */
	int err = 0;

	for (const struct vm_area *v = p->vmas; v && !err; v = v->next) {
		struct cr_vma rv = { .pid = p->pid, .kind = vma_kind(v), .start = v->start,
				     .end = v->end, .prot = v->prot & (PROT_WRITE | PROT_EXEC) };
		char path[CR_PATH_MAX];
		u32 plen = 0;

		if (v->rf) {
			/* The file by its path: restore maps it again from its initramfs. */
			plen = (u32)snprintf(path, sizeof(path), "/%s", v->rf->path) + 1;
			if (plen > sizeof(path) || v->pgoff > U32_MAX) {
				err = -ENAMETOOLONG;
				break;
			}
			rv.pgoff = (u32)v->pgoff;
		}
		err = put(out, CR_REC_VMA, &rv, sizeof(rv), plen ? path : NULL, plen, nr);
	}
	for (const struct vm_area *v = p->vmas; v && !err; v = v->next) {
		if (vma_kind(v) == CR_VMA_VVAR)
			continue;
		for (u64 a = v->start; a < v->end && !err; a += PAGE_SIZE) {
			phys_addr_t pa;

			if (!arch_lookup(&p->mm, a, &pa, NULL)) {
				memcpy(page.data, __va(pa), PAGE_SIZE);
			} else if (v->rf) {
				/*
				 * A file page not touched yet: the image holds what a
				 * touch would have read, since restore maps memory, not
				 * files (past the end there is nothing to read).
				 */
				u64 off = (v->pgoff << PAGE_SHIFT) + (a - v->start);

				if (off >= v->rf->size)
					continue;
				memset(page.data, 0, PAGE_SIZE);
				memcpy(page.data, (const u8 *)v->rf->data + off,
				       MIN(PAGE_SIZE, v->rf->size - off));
			} else {
				continue;
			}
			if (page_is_zero(page.data))
				continue;
			page.pid = p->pid;
			page.va = a;
			cr_stats.pages_copied++;
			err = put(out, CR_REC_PAGE, &page, sizeof(page), NULL, 0, nr);
		}
	}
	return err;
}

static int dump_proc(const struct cr_set *set, struct process *p, struct cr_buf *out, u32 *nr,
		     const char **why)
{
	static struct cr_proc pr;
	const struct vm_area *vdso = NULL, *vvar = NULL;

	memset(&pr, 0, sizeof(pr));
	pr.pid = p->pid;
	pr.ppid = p != set->p[0] && p->parent ? p->parent->pid : 0;
	if (p != set->p[0] && (!p->parent || !in_set(set, p->parent))) {
		*why = "a process left its parent during the freeze (orphaned)";
		return -EAGAIN;
	}
	for (const struct vm_area *v = p->vmas; v; v = v->next) {
		if (v->shm) {
			/*
			 * Its pages belong to every process mapping it, or to a
			 * tmpfs file (a private mapping's untouched pages): no
			 * record says so yet.
			 */
			*why = "a process maps shared memory or a tmpfs file, not in the image format";
			return -EOPNOTSUPP;
		}
	}
	if (!p->zombie && (READ_ONCE(p->nr_threads) > 1 || p->main.dead)) {
		/* An image holds one thread's registers: the first thread's. */
		*why = "a process runs threads (a checkpoint takes single-threaded ones)";
		return -EOPNOTSUPP;
	}
	strlcpy(pr.name, p->name, sizeof(pr.name));
	if (p->zombie) {
		pr.flags = CR_PROC_ZOMBIE;
		pr.exit_status = p->exit_status;
		return put(out, CR_REC_PROC, &pr, sizeof(pr), NULL, 0, nr);
	}
	for (const struct vm_area *v = p->vmas; v; v = v->next) {
		if (vma_kind(v) == CR_VMA_VDSO && !vdso)
			vdso = v;
		if (vma_kind(v) == CR_VMA_VVAR && !vvar)
			vvar = v;
	}
	/* Only a whole vDSO is one; what is left of one partly unmapped is plain memory. */
	if (vdso && vdso->end - vdso->start == (u64)cr_kdat_symtab()->vdso_pages * PAGE_SIZE) {
		pr.flags |= CR_PROC_VDSO;
		pr.vdso_base = vdso->start;
		if (vvar && vvar->end == vdso->start)
			pr.vvar_base = vvar->start;
	}
	pr.brk_start = p->brk_start;
	pr.brk = p->brk;
	pr.mmap_base = p->mmap_base;
	pr.stack = p->stack;
	pr.sigmask = p->main.sigmask;
	pr.sigpending = p->sigpending;
	pr.nr_syscalls = p->nr_syscalls;
	for (int s = 0; s < CR_NSIG; s++)
		memcpy(&pr.act[s], &p->sigaction[s], sizeof(pr.act[s]));
	memcpy(pr.regs, p->cr_regs, arch_pt_regs_size);
	memcpy(pr.ustate, &p->main.ustate, sizeof(p->main.ustate));
	return put(out, CR_REC_PROC, &pr, sizeof(pr), NULL, 0, nr) ?: dump_memory(p, out, nr);
}

/* The distinct descriptions the set holds, and the distinct pipes behind them. */
struct file_table {
	struct file *f[CR_MAX_FILES];
	unsigned int nf;
	struct file *pipe_end[CR_MAX_FILES]; /* one description per pipe, to name it */
	unsigned int np;
};

static int file_id(struct file_table *t, struct file *f)
{
	for (unsigned int i = 0; i < t->nf; i++)
		if (t->f[i] == f)
			return (int)i;
	if (t->nf == CR_MAX_FILES)
		return -1;
	t->f[t->nf] = f;
	return (int)t->nf++;
}

static int pipe_id(struct file_table *t, struct file *f)
{
	for (unsigned int i = 0; i < t->np; i++)
		if (t->pipe_end[i]->pipe == f->pipe)
			return (int)i;
	t->pipe_end[t->np] = f;
	return (int)t->np++;
}

static int dump_files(const struct cr_set *set, struct cr_buf *out, u32 *nr, const char **why)
{
	static struct file_table t;
	static u8 bytes[CR_PIPE_MAX];
	int err = 0;

	memset(&t, 0, sizeof(t));
	for (unsigned int i = 0; i < set->n; i++)
		for (int fd = 0; fd < NR_OPEN && !set->p[i]->zombie; fd++)
			if (set->p[i]->fds[fd] && file_id(&t, set->p[i]->fds[fd]) < 0) {
				*why = "more open files than an image holds";
				return -E2BIG;
			}
	for (unsigned int i = 0; i < t.nf; i++) {
		if (t.f[i]->kind != FILE_PIPE)
			continue;
		/* The image keeps a pipe's bytes, not where its packets end. */
		if (pipe_is_packets(t.f[i])) {
			*why = "a process holds a packet-mode pipe (O_DIRECT), not in the image format";
			return -EINVAL;
		}
		pipe_id(&t, t.f[i]);
	}
	for (unsigned int i = 0; i < t.np && !err; i++) {
		struct cr_pipe rp = { .id = i };

		/* Which ends the image holds: an end held outside it is closed after restore. */
		for (unsigned int j = 0; j < t.nf; j++)
			if (t.f[j]->kind == FILE_PIPE && t.f[j]->pipe == t.pipe_end[i]->pipe) {
				if (t.f[j]->write_end)
					rp.writers = 1;
				else
					rp.readers = 1;
			}
		rp.len = (u32)pipe_peek(t.pipe_end[i], bytes, sizeof(bytes));
		err = put(out, CR_REC_PIPE, &rp, sizeof(rp), bytes, rp.len, nr);
	}
	for (unsigned int i = 0; i < t.nf && !err; i++) {
		struct file *f = t.f[i];
		struct cr_file rf = { .id = i };

		switch (f->kind) {
		case FILE_CONSOLE:
			rf.kind = CR_FILE_CONSOLE;
			break;
		case FILE_RAMFS:
			rf.kind = CR_FILE_RAMFS;
			rf.pos = f->pos;
			if (strlen(f->rf->path) >= sizeof(rf.path)) {
				*why = "an open file's path is longer than an image holds";
				return -ENAMETOOLONG;
			}
			strlcpy(rf.path, f->rf->path, sizeof(rf.path));
			break;
		case FILE_PIPE:
			rf.kind = CR_FILE_PIPE;
			rf.pipe_id = (u32)pipe_id(&t, f);
			rf.flags = f->write_end ? CR_FILE_WRITE_END : 0;
			break;
		case FILE_CHR:
			/* An image has no record for one yet: refused, not dropped. */
			*why = "an open device (/dev/null and the like) is not in the image format";
			return -EOPNOTSUPP;
		case FILE_OPS:
			*why = "an open file of /tmp, /proc or /dev is not in the image format";
			return -EOPNOTSUPP;
		}
		if (f->nonblock)
			rf.flags |= CR_FILE_NONBLOCK;
		err = put(out, CR_REC_FILE, &rf, sizeof(rf), NULL, 0, nr);
	}
	for (unsigned int i = 0; i < set->n && !err; i++)
		for (int fd = 0; fd < NR_OPEN && !err && !set->p[i]->zombie; fd++) {
			struct cr_fd rd = { .pid = set->p[i]->pid, .fd = (u32)fd };

			if (!set->p[i]->fds[fd])
				continue;
			rd.file_id = (u32)file_id(&t, set->p[i]->fds[fd]);
			err = put(out, CR_REC_FD, &rd, sizeof(rd), NULL, 0, nr);
		}
	return err;
}

int cr_dump(const struct cr_set *set, struct cr_buf *out, const char **why)
{
	struct cr_header h = { .magic = CR_MAGIC, .version = CR_VERSION,
			       .header_size = sizeof(h), .machine = ELF_MACHINE,
			       .regs_size = arch_pt_regs_size,
			       .ustate_size = sizeof(struct arch_user_state),
			       .root_pid = (u32)set->p[0]->pid };
	u32 nr = 0;
	int err;

	*out = (struct cr_buf){ 0 };
	if (set->p[0]->zombie) {
		*why = "the process ended before it could be frozen";
		return -ESRCH;
	}
	err = buf_reserve(out, sizeof(h));
	if (err)
		goto nomem;
	out->len = sizeof(h);
	err = put(out, CR_REC_SYMTAB, cr_kdat_symtab(), sizeof(struct cr_symtab), NULL, 0, &nr);
	for (unsigned int i = 0; i < set->n && !err; i++)
		err = dump_proc(set, set->p[i], out, &nr, why);
	if (!err)
		err = dump_files(set, out, &nr, why);
	if (!err)
		err = put(out, CR_REC_END, NULL, 0, NULL, 0, &nr);
	if (err) {
		cr_buf_free(out);
		if (err == -ENOMEM)
			goto nomem;
		return err;
	}
	h.nr_records = nr;
	h.total_len = out->len;
	h.mono_ns = ktime_get_ns();
	h.body_crc = ~crc32_le(~0u, out->data + sizeof(h), out->len - sizeof(h));
	h.header_crc = cr_header_crc(&h);
	memcpy(out->data, &h, sizeof(h));
	return 0;
nomem:
	*why = "out of memory for the image";
	return -ENOMEM;
}
