// SPDX-License-Identifier: MIT
/*
 * The vDSO at restore: the seed's rework, in the kernel.
 *
 * A process's code may hold addresses inside its vDSO (a libc looks the
 * functions up once and keeps the pointers), so after restore something
 * must answer at exactly the old addresses. Three cases:
 *
 *  - it had none (it unmapped it): it gets none. CRIU once left the
 *    restorer's vDSO behind in such a task (the seed's vdso02 bug).
 *  - the image's vDSO is the running kernel's (equal symbol tables):
 *    map [vvar] and [vdso] straight at the image's addresses, as
 *    arch_prctl(ARCH_MAP_VDSO_64) does. Nothing moves, nothing is parsed.
 *  - another kernel's vDSO (another layout): the old vDSO's bytes come
 *    back from the image as ordinary memory at the old place, and each
 *    exported entry point gets a jump to the same function of the
 *    running vDSO, which is mapped with its own vvar wherever it fits.
 *    The old vvar is not mapped again: nothing runs the old code past
 *    its jumps. After a second restore the jumps are only memory that
 *    the image carried, and the vDSO it pointed at gets jumps in turn:
 *    there is one [vvar], always the live one (the seed's vdso-proxy
 *    bugs: a stale vvar kept, the live one unmapped).
 *
 * Which table is "the running kernel's": cr.vdso=kdat (default) keeps it
 * from boot (CRIU's kdat); cr.vdso=legacy is the seed's "before",
 * parsing the vDSO's ELF symbols at every restore and mapping it at a
 * parking place first, then moving vvar and vDSO into position.
 */
#include <pagoda/init.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include <pagoda/vdso.h>
#include "cr.h"

struct cr_stats cr_stats;
bool cr_vdso_kdat = true;
const char *cr_last_vdso = "none";

static int mode_param;
static const char *const mode_names[] = { "kdat", "legacy", NULL };
PARAM_ENUM("cr.vdso", mode_param, mode_names,
	   "vDSO at restore: kdat (symbol table kept from boot, mapped in place) "
	   "or legacy (parsed and moved each time)");

static struct cr_symtab kdat;

void cr_init(void)
{
	const char *why;
	size_t len = (size_t)(vdso_image_end - vdso_image_start);

	if (cr_vdso_symtab_parse(vdso_image_start, len, &kdat, &why))
		pr_err("cr: cannot read the vDSO's symbols (%s): restore will refuse images with one\n", why);
	cr_stats.symtab_parses++;
}

bool cr_vdso_boot_mode_kdat(void)
{
	return mode_param == 0;
}

const struct cr_symtab *cr_kdat_symtab(void)
{
	return &kdat;
}

static bool symtab_equal(const struct cr_symtab *a, const struct cr_symtab *b)
{
	if (a->nr != b->nr || a->vdso_pages != b->vdso_pages)
		return false;
	for (u32 i = 0; i < a->nr; i++)
		if (strcmp(a->sym[i].name, b->sym[i].name) || a->sym[i].offset != b->sym[i].offset)
			return false;
	return true;
}

bool cr_symtab_equal(const struct cr_symtab *a, const struct cr_symtab *b)
{
	return symtab_equal(a, b);
}

int cr_vdso_running(struct cr_symtab *out, const char **why)
{
	if (cr_vdso_kdat) {
		*out = kdat;
		return 0;
	}
	cr_stats.symtab_parses++;
	return cr_vdso_symtab_parse(vdso_image_start,
				    (size_t)(vdso_image_end - vdso_image_start), out, why);
}

static unsigned int vdso_pages(void)
{
	return (unsigned int)((vdso_image_end - vdso_image_start) / PAGE_SIZE);
}

/* The seed's "after": one mapping, at the image's address. */
static int map_in_place(struct process *p, u64 base, const char **why)
{
	long r = vdso_remap(p, base);

	if (r < 0) {
		*why = "the vDSO's place is taken in the restored address space";
		return (int)r;
	}
	cr_stats.vdso_maps++;
	cr_stats.pte_updates += vdso_pages() + 1;
	return 0;
}

/*
 * A free range of len bytes below the mmap base that also keeps clear of
 * [avoid, avoid + len): CRIU's restorer parks the vDSO where its own
 * blob is not, which is never where the vDSO belongs.
 */
static u64 find_park(struct process *p, u64 len, u64 avoid)
{
	u64 cand = p->mmap_base - len;
	bool moved = true;

	while (moved && cand > len) {
		moved = false;
		if (cand < avoid + len && cand + len > avoid) {
			cand = avoid - len;
			moved = true;
		}
		for (struct vm_area *v = p->vmas; v; v = v->next)
			if (v->start < cand + len && v->end > cand && v->start > len) {
				cand = v->start - len;
				moved = true;
			}
	}
	return cand > len && cand > p->brk ? cand : 0;
}

/* The seed's "before": map at a parking place, then move vvar and vDSO into position. */
static int park_and_move(struct process *p, u64 base, const char **why)
{
	unsigned int n = vdso_pages();
	u64 len = (n + 1) * PAGE_SIZE, park = find_park(p, len, base - PAGE_SIZE);
	long r;

	if (!park || vdso_remap(p, park + PAGE_SIZE) < 0) {
		*why = "no room to park the vDSO";
		return -ENOMEM;
	}
	cr_stats.vdso_maps++;
	cr_stats.pte_updates += n + 1;
	r = process_mremap(p, park, PAGE_SIZE, PAGE_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED,
			   base - PAGE_SIZE);
	if (r >= 0)
		r = process_mremap(p, park + PAGE_SIZE, n * PAGE_SIZE, n * PAGE_SIZE,
				   MREMAP_MAYMOVE | MREMAP_FIXED, base);
	if (r < 0) {
		*why = "could not move the vDSO from its parking place";
		return (int)r;
	}
	cr_stats.vdso_moves += 2;
	cr_stats.pte_updates += 2 * (n + 1);
	return 0;
}

/* Bytes from off to the next exported symbol or the image's end: room for a jump. */
static unsigned int room_at(const struct cr_symtab *t, u64 off)
{
	u64 end = (u64)t->vdso_pages * PAGE_SIZE;

	for (u32 i = 0; i < t->nr; i++)
		if (t->sym[i].offset > off && t->sym[i].offset < end)
			end = t->sym[i].offset;
	return (unsigned int)MIN(end - off, (u64)64);
}

/*
 * Was p stopped inside its old vDSO's code? Its area holds the image's
 * bytes by now; the PC is in the saved frame. The freeze steps a process
 * out first (freeze.c) and stops one there only past its bounds. The test is the PC
 * against the image's vDSO pages, not against the area around the PC:
 * the bytes of a vDSO from two restores back (its jumps) come back as
 * ordinary memory too, and when they sit right above, the two areas are
 * one. A process stopped on one of those jumps (an interrupt is taken
 * where a translated block starts, and a jump is one) was then refused
 * for a PC outside the vDSO: CI's system-cr-vdso-alt failures.
 */
static bool stopped_in_old_vdso(struct process *p, const struct cr_proc *pr,
				const struct cr_symtab *img)
{
	u64 pc = arch_cr_user_pc(p->main.fork_regs);

	return pc >= pr->vdso_base && pc - pr->vdso_base < (u64)img->vdso_pages * PAGE_SIZE;
}

/* Another kernel's vDSO: ours where it fits, jumps at the old entry points. */
static int map_with_trampolines(struct process *p, const struct cr_proc *pr,
				const struct cr_symtab *img, const struct cr_symtab *run,
				const char **why)
{
	unsigned int n = vdso_pages();
	u64 free, base;
	int err;

	/*
	 * Its next instructions are the old kernel's, reading clock data at
	 * the old [vvar]'s place, which is not mapped again (or is something
	 * else now): it would fault or spin. Refuse rather than run them.
	 */
	if (stopped_in_old_vdso(p, pr, img)) {
		*why = "a process was stopped inside the vDSO, and this kernel's differs: "
		       "restore it on the kernel that made the image";
		return -EINVAL;
	}
	free = process_find_free(p, (n + 1) * PAGE_SIZE);
	if (!free) {
		*why = "no room for the running vDSO";
		return -ENOMEM;
	}
	base = free + PAGE_SIZE;
	err = map_in_place(p, base, why);
	if (err)
		return err;
	for (u32 i = 0; i < img->nr; i++) {
		u64 at = pr->vdso_base + img->sym[i].offset;
		unsigned int room = room_at(img, img->sym[i].offset), len;
		u8 code[64];
		phys_addr_t pa;
		const struct cr_sym *to = NULL;

		for (u32 j = 0; j < run->nr; j++)
			if (!strcmp(run->sym[j].name, img->sym[i].name))
				to = &run->sym[j];
		if (!to)
			continue; /* a function this kernel lacks: its old code stays, without vvar */
		/* Within one page, so one lookup writes it (entry points are aligned). */
		room = MIN(room, (unsigned int)(PAGE_SIZE - (at & (PAGE_SIZE - 1))));
		len = arch_cr_write_jump(code, room, at, base + to->offset);
		if (!len || arch_lookup(&p->mm, at, &pa, NULL)) {
			*why = "no room for a jump at an old vDSO entry point";
			return -ENOSPC;
		}
		memcpy(__va(pa), code, len);
		arch_sync_icache(__va(pa), len);
		cr_stats.trampolines++;
	}
	return 0;
}

int cr_vdso_restore(struct process *p, const struct cr_proc *pr, const struct cr_symtab *img,
		    const struct cr_symtab *run, const char **why)
{
	p->vdso_base = 0;
	if (!(pr->flags & CR_PROC_VDSO))
		return 0; /* it had none: it gets none */
	if (!symtab_equal(img, run)) {
		cr_last_vdso = "another kernel's: ours mapped apart, jumps at the old entry points";
		return map_with_trampolines(p, pr, img, run, why);
	}
	if (!cr_vdso_kdat) {
		cr_last_vdso = "the same: parked, then moved into place (legacy)";
		return park_and_move(p, pr->vdso_base, why);
	}
	cr_last_vdso = "the same: mapped in place (kdat)";
	return map_in_place(p, pr->vdso_base, why);
}
