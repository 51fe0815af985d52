// SPDX-License-Identifier: MIT
/*
 * The checkpoint image's checker: one forward pass over a buffer that
 * may be anything (a disk that never held an image, one cut short by a
 * power loss, a flipped bit, another kernel's). Restore builds nothing
 * until this has accepted every record, which is what makes "nothing is
 * half restored" cheap: no step of the build can meet a bad record.
 *
 * Pure code: the host fuzzer runs it on arbitrary bytes.
 */
#include <pagoda/crc32.h>
#include <pagoda/string.h>
#include "image.h"

u32 cr_header_crc(const struct cr_header *h)
{
	struct cr_header c = *h;

	c.header_crc = 0;
	return ~crc32_le(~0u, &c, sizeof(c));
}

/* What the pass remembers of the process whose records it is reading. */
struct check_state {
	const struct cr_limits *lim;
	struct cr_summary *sum;
	s32 pids[CR_MAX_PROCS];
	u32 proc_flags[CR_MAX_PROCS];
	s32 ppids[CR_MAX_PROCS];
	int cur;                    /* index of the process being read, -1 before any */
	struct cr_vma vmas[CR_MAX_VMAS];
	unsigned int nr_vmas;
	u64 last_page;              /* next page must lie above */
	int stage;                  /* the record type reached: order is enforced */
	u32 pipe_ids[CR_MAX_FILES];
	u32 file_ids[CR_MAX_FILES];
	u8 fd_used[CR_MAX_PROCS][CR_MAX_FDS];
};

/* Is id among the n pipe or file ids recorded so far? */
static bool id_listed(const u32 *ids, unsigned int n, u32 id)
{
	for (unsigned int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static int proc_index(const struct check_state *s, s32 pid)
{
	for (unsigned int i = 0; i < s->sum->nr_procs; i++)
		if (s->pids[i] == pid)
			return (int)i;
	return -1;
}

/* Every refusal: say why, for the log and the shell, and answer -EINVAL. */
static int refuse(const char **why, const char *what)
{
	*why = what;
	return -EINVAL;
}

static bool cstr_ok(const char *str, size_t n)
{
	return memchr(str, 0, n) != NULL;
}

static int check_symtab(struct check_state *s, const void *p, u32 len, const char **why)
{
	const struct cr_symtab *t = p;

	if (len != sizeof(*t) || s->stage != 0)
		return refuse(why, "vDSO symbol table misplaced or of the wrong size");
	if (t->nr > CR_MAX_SYMS || t->vdso_pages > 16)
		return refuse(why, "vDSO symbol table too large");
	for (u32 i = 0; i < t->nr; i++)
		if (!cstr_ok(t->sym[i].name, sizeof(t->sym[i].name)) || !t->sym[i].name[0] ||
		    t->sym[i].offset >= (u64)t->vdso_pages * CR_PAGE_SIZE)
			return refuse(why, "vDSO symbol without a name or outside the vDSO");
	s->sum->symtab = t;
	s->stage = CR_REC_SYMTAB;
	return 0;
}

static int check_proc(struct check_state *s, const void *p, u32 len, const char **why)
{
	const struct cr_proc *pr = p;
	unsigned int n = s->sum->nr_procs;

	if (len != sizeof(*pr) || s->stage > CR_REC_PAGE || s->stage < CR_REC_SYMTAB)
		return refuse(why, "process record misplaced or of the wrong size");
	if (n == CR_MAX_PROCS)
		return refuse(why, "more processes than restore takes (32)");
	if (pr->pid <= 0 || proc_index(s, pr->pid) >= 0 || pr->ppid < 0 || pr->ppid == pr->pid)
		return refuse(why,
			      "a process id that is not positive, repeated, or its own parent");
	if ((pr->flags & ~(CR_PROC_ZOMBIE | CR_PROC_VDSO)) || !cstr_ok(pr->name, sizeof(pr->name)))
		return refuse(why, "a process record with unknown flags or an unterminated name");
	if ((pr->flags & CR_PROC_VDSO) &&
	    (!pr->vdso_base || (pr->vdso_base & (CR_PAGE_SIZE - 1)) ||
	     pr->vdso_base >= s->lim->task_size ||
	     (pr->vvar_base && pr->vvar_base != pr->vdso_base - CR_PAGE_SIZE)))
		return refuse(why,
			      "vDSO or vvar position not page aligned, outside user space, or apart");
	if (!(pr->flags & CR_PROC_VDSO) && (pr->vdso_base || pr->vvar_base))
		return refuse(why, "vDSO position given for a process without one");
	if (pr->brk < pr->brk_start || pr->brk > s->lim->task_size ||
	    pr->mmap_base > s->lim->task_size || pr->stack > s->lim->task_size)
		return refuse(why, "heap, mmap base or stack outside user space");
	s->pids[n] = pr->pid;
	s->ppids[n] = pr->ppid;
	s->proc_flags[n] = pr->flags;
	s->cur = (int)n;
	s->nr_vmas = 0;
	s->last_page = 0;
	s->sum->nr_procs = n + 1;
	s->stage = CR_REC_PROC;
	return 0;
}

static int check_vma(struct check_state *s, const void *p, u32 len, const char **why)
{
	const struct cr_vma *v = p;
	const struct cr_vma *prev = s->nr_vmas ? &s->vmas[s->nr_vmas - 1] : NULL;

	bool file = len >= sizeof(*v) && v->kind == CR_VMA_FILE;
	const char *path = (const char *)(v + 1);

	if ((file ? len <= sizeof(*v) || len > sizeof(*v) + CR_PATH_MAX ||
		    path[len - sizeof(*v) - 1] != 0 || path[0] != '/' : len != sizeof(*v)) ||
	    (s->stage != CR_REC_PROC && s->stage != CR_REC_VMA) ||
	    s->cur < 0 || v->pid != s->pids[s->cur])
		return refuse(why,
			      "memory area record misplaced, of the wrong size or not its process's");
	if (s->proc_flags[s->cur] & CR_PROC_ZOMBIE)
		return refuse(why, "memory areas for a process that had ended");
	if (s->nr_vmas == CR_MAX_VMAS)
		return refuse(why, "more memory areas in one process than restore takes (64)");
	if (v->kind < CR_VMA_ANON || v->kind > CR_VMA_FILE || (v->start & (CR_PAGE_SIZE - 1)) ||
	    (v->end & (CR_PAGE_SIZE - 1)) || v->end <= v->start || v->end > s->lim->task_size ||
	    (v->prot & ~CR_PROT_MASK) || (prev && v->start < prev->end) || (v->pgoff && !file))
		return refuse(why,
			      "memory area unaligned, empty, overlapping, unordered or outside user space");
	s->vmas[s->nr_vmas++] = *v;
	s->sum->nr_vmas++;
	s->stage = CR_REC_VMA;
	return 0;
}

static int check_page(struct check_state *s, const void *p, u32 len, const char **why)
{
	const struct cr_page *pg = p;
	bool inside = false;

	if (len != sizeof(*pg) || (s->stage != CR_REC_VMA && s->stage != CR_REC_PAGE) ||
	    s->cur < 0 || pg->pid != s->pids[s->cur] || pg->pad)
		return refuse(why, "page record misplaced, of the wrong size or not its process's");
	if ((pg->va & (CR_PAGE_SIZE - 1)) || pg->va < s->last_page)
		return refuse(why, "page unaligned or out of order");
	for (unsigned int i = 0; i < s->nr_vmas; i++)
		if (pg->va >= s->vmas[i].start && pg->va < s->vmas[i].end &&
		    s->vmas[i].kind != CR_VMA_VVAR)
			inside = true;
	if (!inside)
		return refuse(why, "page outside its process's anonymous and vDSO areas");
	s->last_page = pg->va + CR_PAGE_SIZE;
	s->sum->nr_pages++;
	s->stage = CR_REC_PAGE;
	return 0;
}

static int check_pipe(struct check_state *s, const void *p, u32 len, const char **why)
{
	const struct cr_pipe *pp = p;
	unsigned int n = s->sum->nr_pipes;

	if (len < sizeof(*pp) || s->stage < CR_REC_PROC || s->stage > CR_REC_PIPE)
		return refuse(why, "pipe record misplaced or short");
	if (pp->len > CR_PIPE_MAX || len != sizeof(*pp) + pp->len || pp->readers > 1 ||
	    pp->writers > 1 || n == CR_MAX_FILES)
		return refuse(why,
			      "pipe with more bytes than its ring, a length that disagrees, or too many pipes");
	if (id_listed(s->pipe_ids, n, pp->id))
		return refuse(why, "pipe id repeated");
	s->pipe_ids[n] = pp->id;
	s->sum->nr_pipes = n + 1;
	s->stage = CR_REC_PIPE;
	return 0;
}

static int check_file(struct check_state *s, const void *p, u32 len, const char **why)
{
	const struct cr_file *f = p;
	unsigned int n = s->sum->nr_files;

	if (len != sizeof(*f) || s->stage < CR_REC_PROC || s->stage > CR_REC_FILE ||
	    n == CR_MAX_FILES)
		return refuse(why, "open file record misplaced, of the wrong size, or too many");
	if (id_listed(s->file_ids, n, f->id))
		return refuse(why, "open file id repeated");
	if (f->kind < CR_FILE_CONSOLE || f->kind > CR_FILE_PIPE ||
	    (f->flags & ~(CR_FILE_WRITE_END | CR_FILE_NONBLOCK)) ||
	    !cstr_ok(f->path, sizeof(f->path)) ||
	    (f->kind == CR_FILE_PIPE && !id_listed(s->pipe_ids, s->sum->nr_pipes, f->pipe_id)) ||
	    (f->kind == CR_FILE_RAMFS && !f->path[0]))
		return refuse(why,
			      "open file of unknown kind, a pipe end without its pipe, or a file without a path");
	s->file_ids[n] = f->id;
	s->sum->nr_files = n + 1;
	s->stage = CR_REC_FILE;
	return 0;
}

static int check_fd(struct check_state *s, const void *p, u32 len, const char **why)
{
	const struct cr_fd *fd = p;
	int pi = len == sizeof(*fd) ? proc_index(s, fd->pid) : -1;

	if (len != sizeof(*fd) || s->stage < CR_REC_PROC || pi < 0 || fd->fd >= CR_MAX_FDS ||
	    fd->pad || (s->proc_flags[pi] & CR_PROC_ZOMBIE))
		return refuse(why,
			      "descriptor record misplaced, of the wrong size, or for no live process");
	if (!id_listed(s->file_ids, s->sum->nr_files, fd->file_id) || s->fd_used[pi][fd->fd])
		return refuse(why, "descriptor naming no open file, or given twice");
	s->fd_used[pi][fd->fd] = 1;
	s->sum->nr_fds++;
	s->stage = CR_REC_FD;
	return 0;
}

/* After END: every parent is in the image, exactly one root, the one the header names. */
static int check_family(struct check_state *s, const char **why)
{
	unsigned int roots = 0;

	if (!s->sum->symtab || !s->sum->nr_procs)
		return refuse(why, "no vDSO symbol table or no process");
	for (unsigned int i = 0; i < s->sum->nr_procs; i++) {
		if (!s->ppids[i]) {
			roots++;
			if (s->pids[i] != (s32)s->sum->hdr->root_pid ||
			    (s->proc_flags[i] & CR_PROC_ZOMBIE))
				return refuse(why,
					      "the root is not the process the header names, or had ended");
		} else if (proc_index(s, s->ppids[i]) < 0 ||
			   (s->proc_flags[proc_index(s, s->ppids[i])] & CR_PROC_ZOMBIE))
			return refuse(why, "a parent that is not in the image, or had ended");
	}
	if (roots != 1)
		return refuse(why, "not exactly one root process");
	return 0;
}

static int check_header(const void *buf, size_t len, const struct cr_limits *lim,
			const char **why)
{
	struct cr_header h;

	if (len < sizeof(h))
		return refuse(why, "shorter than an image header");
	memcpy(&h, buf, sizeof(h));
	if (h.magic != CR_MAGIC)
		return refuse(why, "no checkpoint image here (bad magic)");
	if (cr_header_crc(&h) != h.header_crc)
		return refuse(why, "image header checksum mismatch");
	if (h.version != CR_VERSION || h.header_size != sizeof(h)) {
		*why = "image of another format version";
		return -EPROTO;
	}
	if (h.machine != lim->machine || h.regs_size != lim->regs_size ||
	    h.ustate_size != lim->ustate_size) {
		*why = "image of another architecture or register layout";
		return -EPROTO;
	}
	if (h.total_len > len || h.total_len < sizeof(h) + sizeof(struct cr_rec) ||
	    (h.total_len & 7))
		return refuse(why, "image truncated (shorter than its header says)");
	if (~crc32_le(~0u, (const u8 *)buf + sizeof(h), h.total_len - sizeof(h)) != h.body_crc)
		return refuse(why, "image body checksum mismatch (corrupt)");
	if (h.flags || !h.nr_records)
		return refuse(why, "image header with unknown flags or no records");
	return 0;
}

/* The check of each record type but END, which ends the walk. */
static int (*const record_checks[])(struct check_state *s, const void *p, u32 len,
				    const char **why) = {
	[CR_REC_SYMTAB] = check_symtab,
	[CR_REC_PROC] = check_proc,
	[CR_REC_VMA] = check_vma,
	[CR_REC_PAGE] = check_page,
	[CR_REC_PIPE] = check_pipe,
	[CR_REC_FILE] = check_file,
	[CR_REC_FD] = check_fd,
};

int cr_image_check(const void *buf, size_t len, const struct cr_limits *lim,
		   struct cr_summary *sum, const char **why)
{
	static struct check_state s; /* big: not on a kernel stack (callers hold cr_lock) */
	const struct cr_header *h = buf;
	size_t off = sizeof(*h);
	u32 seen = 0;
	int err;

	memset(sum, 0, sizeof(*sum));
	err = check_header(buf, len, lim, why);
	if (err)
		return err;
	memset(&s, 0, sizeof(s));
	s.lim = lim;
	s.sum = sum;
	s.cur = -1;
	sum->hdr = h;
	for (;;) {
		struct cr_rec r;
		const u8 *payload;

		if (off + sizeof(r) > h->total_len || seen == h->nr_records)
			return refuse(why, "image ends without an END record");
		memcpy(&r, (const u8 *)buf + off, sizeof(r));
		payload = (const u8 *)buf + off + sizeof(r);
		if (r.len > h->total_len - off - sizeof(r))
			return refuse(why, "a record runs past the image's end");
		seen++;
		if (r.type == CR_REC_END) {
			if (r.len || seen != h->nr_records ||
			    off + sizeof(r) != h->total_len)
				return refuse(why, "END record not last, or records after it");
			return check_family(&s, why);
		}
		if (r.type >= ARRAY_SIZE(record_checks) || !record_checks[r.type])
			return refuse(why, "a record of unknown type");
		err = record_checks[r.type](&s, payload, r.len, why);
		if (err)
			return err;
		off += sizeof(r) + ALIGN_UP((size_t)r.len, 8);
	}
}

const struct cr_rec *cr_image_next(const void *buf, size_t *off)
{
	const struct cr_rec *r = (const void *)((const u8 *)buf + *off);

	if (r->type == CR_REC_END)
		return NULL;
	*off += sizeof(*r) + ALIGN_UP((size_t)r->len, 8);
	return r;
}
