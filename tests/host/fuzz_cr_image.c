// SPDX-License-Identifier: MIT
/*
 * libFuzzer on the checkpoint image checker (kernel/cr/image.c), then on
 * restore's walk of what it accepted (kernel/cr/restore.c's build_all(),
 * Linux's CRIU reading its images in the order restore needs them).
 * Restore builds processes only from images the checker accepted, so it
 * must accept nothing that would lead restore outside the buffer or into
 * a record it does not expect. Byte 0 picks what the fuzzer makes right
 * after mutating, so that mutations reach the record checks: bit 1, the
 * header's record count and length (from walking the records to END),
 * as a tool splicing records would; bit 0, the checksums. Whatever the
 * input: no read outside it (ASan), and for an accepted image:
 *  - its records all lie inside it, in the order the format gives, and
 *    end with END;
 *  - restore's walk finds what build_all() relies on: every memory area,
 *    page and descriptor belongs to a process already read, a page lies
 *    in one of its process's areas that is not [vvar], a FILE area's
 *    path is a string, a pipe end names a pipe read before it, and a
 *    descriptor an open file read before it;
 *  - the image cut anywhere before its end is refused.
 * `make fuzz-cr-image` runs it FUZZ_SECONDS.
 */
#include <pagoda/crc32.h>
#include <pagoda/string.h>

#include "../../kernel/cr/image.h"

#include "fuzz.h"

/* Bit 1: the header's count and length made to match the records, up to END. */
static void fix_counts(u8 *buf, size_t len)
{
	struct cr_header *h = (struct cr_header *)buf;
	size_t off = sizeof(*h);
	u32 n = 0;

	while (off + sizeof(struct cr_rec) <= len) {
		const struct cr_rec *r = (const void *)(buf + off);

		n++;
		off += sizeof(*r);
		if (r->type == CR_REC_END)
			break;
		off += ALIGN_UP((size_t)r->len, 8);
	}
	h->nr_records = n;
	h->total_len = MIN(off, len);
}

/* What build_all() keeps while it walks: the processes, the current one's areas, ids. */
struct walk {
	s32 pids[CR_MAX_PROCS];
	bool zombie[CR_MAX_PROCS];
	unsigned int nr_procs;
	const struct cr_vma *vmas[CR_MAX_VMAS];
	unsigned int nr_vmas;
	u32 pipes[CR_MAX_FILES], files[CR_MAX_FILES];
	unsigned int nr_pipes, nr_files;
	unsigned int refused; /* pipe ends described twice: build_file() refuses those */
	u8 ends[CR_MAX_FILES];
};

static int proc_of(const struct walk *w, s32 pid)
{
	for (unsigned int i = 0; i < w->nr_procs; i++)
		if (w->pids[i] == pid)
			return (int)i;
	return -1;
}

static bool listed(const u32 *ids, unsigned int n, u32 id)
{
	for (unsigned int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* One record, as build_all() dispatches it. */
static void restore_step(struct walk *w, const struct cr_rec *r)
{
	const void *p = r + 1;
	int cur = (int)w->nr_procs - 1;

	switch (r->type) {
	case CR_REC_PROC: {
		const struct cr_proc *pr = p;

		if (w->nr_procs == CR_MAX_PROCS || proc_of(w, pr->pid) >= 0 || pr->pid <= 0)
			abort();
		w->zombie[w->nr_procs] = pr->flags & CR_PROC_ZOMBIE;
		w->pids[w->nr_procs++] = pr->pid;
		w->nr_vmas = 0;
		break;
	}
	case CR_REC_VMA: {
		const struct cr_vma *v = p;

		if (cur < 0 || v->pid != w->pids[cur] || w->zombie[cur] || w->nr_vmas == CR_MAX_VMAS)
			abort();
		/* build_vma() looks a FILE area's path up as a C string */
		if (v->kind == CR_VMA_FILE && (r->len <= sizeof(*v) ||
					       !memchr(v + 1, 0, r->len - sizeof(*v))))
			abort();
		w->vmas[w->nr_vmas++] = v;
		break;
	}
	case CR_REC_PAGE: {
		const struct cr_page *pg = p;
		bool in = false;

		if (cur < 0 || pg->pid != w->pids[cur] || pg->va % CR_PAGE_SIZE)
			abort();
		for (unsigned int i = 0; i < w->nr_vmas; i++)
			in |= pg->va >= w->vmas[i]->start && pg->va < w->vmas[i]->end &&
			      w->vmas[i]->kind != CR_VMA_VVAR;
		if (!in)
			abort();
		break;
	}
	case CR_REC_PIPE: {
		const struct cr_pipe *pp = p;

		if (w->nr_pipes == CR_MAX_FILES || pp->len > CR_PIPE_MAX ||
		    r->len != sizeof(*pp) + pp->len)
			abort(); /* pipe_fill() copies len bytes from after it */
		w->ends[w->nr_pipes] = 0;
		w->pipes[w->nr_pipes++] = pp->id;
		break;
	}
	case CR_REC_FILE: {
		const struct cr_file *f = p;

		if (w->nr_files == CR_MAX_FILES || !memchr(f->path, 0, sizeof(f->path)))
			abort();
		if (f->kind == CR_FILE_PIPE) {
			u8 end = f->flags & CR_FILE_WRITE_END ? 2 : 1;
			unsigned int i = 0;

			while (i < w->nr_pipes && w->pipes[i] != f->pipe_id)
				i++;
			if (i == w->nr_pipes)
				abort();
			w->refused += !!(w->ends[i] & end);
			w->ends[i] |= end;
		}
		w->files[w->nr_files++] = f->id;
		break;
	}
	case CR_REC_FD: {
		const struct cr_fd *fd = p;
		int pi = proc_of(w, fd->pid);

		if (pi < 0 || w->zombie[pi] || fd->fd >= CR_MAX_FDS ||
		    !listed(w->files, w->nr_files, fd->file_id))
			abort();
		break;
	}
	case CR_REC_SYMTAB:
		if (w->nr_procs)
			abort();
		break;
	default:
		abort();
	}
}


static const struct cr_limits lim = { .machine = 62, .regs_size = 176, .ustate_size = 520,
				      .task_size = 0x00007ffffffff000ULL };

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct cr_summary sum;
	const char *why = NULL;
	size_t off = sizeof(struct cr_header), len = size ? size - 1 : 0;
	u8 *buf;
	const struct cr_rec *r;
	unsigned int n = 0, procs = 0;
	static struct walk w;

	if (!size)
		return 0;
	buf = malloc(len ? len : 1); /* its own aligned copy, exactly len bytes */
	memcpy(buf, data + 1, len);
	if ((data[0] & 2) && len >= sizeof(struct cr_header))
		fix_counts(buf, len);
	if ((data[0] & 1) && len >= sizeof(struct cr_header)) {
		struct cr_header *h = (struct cr_header *)buf;

		if (h->total_len >= sizeof(*h) && h->total_len <= len)
			h->body_crc = ~crc32_le(~0u, buf + sizeof(*h), h->total_len - sizeof(*h));
		h->header_crc = cr_header_crc(h);
	}
	if (cr_image_check(buf, len, &lim, &sum, &why)) {
		if (!why)
			abort(); /* every refusal says why */
		free(buf);
		return 0;
	}
	memset(&w, 0, sizeof(w));
	while ((r = cr_image_next(buf, &off))) {
		if ((const u8 *)r < buf || off > sum.hdr->total_len || r->type == 0 ||
		    r->type > CR_REC_END)
			abort();
		restore_step(&w, r);
		procs += r->type == CR_REC_PROC;
		n++;
	}
	if (off + sizeof(*r) != sum.hdr->total_len || n + 1 != sum.hdr->nr_records ||
	    procs != sum.nr_procs || !procs || !sum.symtab)
		abort();
	/* cut short (a power loss during the write): refused, whatever the cut */
	if (!cr_image_check(buf, sum.hdr->total_len * data[size - 1] / 256, &lim, &sum, &why))
		abort();
	free(buf);
	return 0;
}
