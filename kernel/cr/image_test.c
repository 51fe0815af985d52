// SPDX-License-Identifier: MIT
/*
 * The image checker (image.c) on images laid out by hand here: a whole
 * small one is accepted and summarised; then each way an image goes bad
 * (cut short anywhere, a flipped bit, another version or arch, and, with
 * the checksums made right again, each broken rule of the format) is
 * refused, with the error and reason the restore command would print.
 * Runs on the host (ASan) and in the kernel.
 */
#include <pagoda/crc32.h>
#include <pagoda/ktest.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include "image.h"

#define IMG_MAX 32768
#define TASK_TOP 0x00007ffffffff000ULL

static u8 *img;
static size_t img_len;
static u32 nrec;

static const struct cr_limits lim = { .machine = 62, .regs_size = 176, .ustate_size = 520,
				      .task_size = TASK_TOP };

static void *add(u32 type, u32 len)
{
	struct cr_rec r = { .type = type, .len = len };
	void *p = img + img_len + sizeof(r);

	memcpy(img + img_len, &r, sizeof(r));
	memset(p, 0, ALIGN_UP((size_t)len, 8));
	img_len += sizeof(r) + ALIGN_UP((size_t)len, 8);
	nrec++;
	return p;
}

/* Make both checksums right for what the image holds now. */
static void seal(void)
{
	struct cr_header *h = (struct cr_header *)img;

	h->nr_records = nrec;
	h->total_len = img_len;
	h->body_crc = ~crc32_le(~0u, img + sizeof(*h), img_len - sizeof(*h));
	h->header_crc = cr_header_crc(h);
}

static struct cr_proc *add_proc(s32 pid, s32 ppid)
{
	struct cr_proc *p = add(CR_REC_PROC, sizeof(*p));

	p->pid = pid;
	p->ppid = ppid;
	strlcpy(p->name, "t", sizeof(p->name));
	p->flags = CR_PROC_VDSO;
	p->vdso_base = 0x7f0000001000ULL;
	p->vvar_base = 0x7f0000000000ULL;
	p->brk_start = p->brk = 0x600000;
	p->mmap_base = 0x7f0000000000ULL;
	p->stack = 0x7ff000000000ULL;
	return p;
}

static void add_vma(s32 pid, u32 kind, u64 start, u64 end)
{
	struct cr_vma *v = add(CR_REC_VMA, sizeof(*v));

	*v = (struct cr_vma){ .pid = pid, .kind = kind, .prot = 2, .start = start, .end = end };
}

static void add_page(s32 pid, u64 va)
{
	struct cr_page *pg = add(CR_REC_PAGE, sizeof(*pg));

	pg->pid = pid;
	pg->va = va;
	memset(pg->data, 0x5a, sizeof(pg->data));
}

/*
 * Two processes (8, its child 9), each with an area and a page, the
 * vDSO, a pipe with 5 bytes in it, the console and the pipe's ends held.
 * Extra rules a case breaks are written by the case between the parts.
 */
static void build(void)
{
	struct cr_header *h = (struct cr_header *)img;
	struct cr_symtab *t;
	struct cr_pipe *pp;
	struct cr_file *f;
	struct cr_fd *fd;

	memset(img, 0, IMG_MAX);
	*h = (struct cr_header){ .magic = CR_MAGIC, .version = CR_VERSION, .header_size = sizeof(*h),
				 .machine = 62, .regs_size = 176, .ustate_size = 520,
				 .root_pid = 8 };
	img_len = sizeof(*h);
	nrec = 0;
	t = add(CR_REC_SYMTAB, sizeof(*t));
	t->nr = 1;
	t->vdso_pages = 2;
	strlcpy(t->sym[0].name, "__vdso_clock_gettime", sizeof(t->sym[0].name));
	t->sym[0].offset = 0x540;
	add_proc(8, 0);
	add_vma(8, CR_VMA_ANON, 0x400000, 0x402000);
	add_vma(8, CR_VMA_VVAR, 0x7f0000000000ULL, 0x7f0000001000ULL);
	add_vma(8, CR_VMA_VDSO, 0x7f0000001000ULL, 0x7f0000003000ULL);
	add_page(8, 0x401000);
	add_proc(9, 8);
	add_vma(9, CR_VMA_ANON, 0x400000, 0x401000);
	add_page(9, 0x400000);
	pp = add(CR_REC_PIPE, sizeof(*pp) + 5);
	*pp = (struct cr_pipe){ .id = 3, .len = 5, .readers = 1, .writers = 1 };
	memcpy(pp + 1, "hello", 5);
	f = add(CR_REC_FILE, sizeof(*f));
	*f = (struct cr_file){ .id = 0, .kind = CR_FILE_CONSOLE };
	f = add(CR_REC_FILE, sizeof(*f));
	*f = (struct cr_file){ .id = 1, .kind = CR_FILE_PIPE, .pipe_id = 3 };
	f = add(CR_REC_FILE, sizeof(*f));
	*f = (struct cr_file){ .id = 2, .kind = CR_FILE_PIPE, .pipe_id = 3,
			       .flags = CR_FILE_WRITE_END };
	fd = add(CR_REC_FD, sizeof(*fd));
	*fd = (struct cr_fd){ .pid = 8, .fd = 1, .file_id = 0 };
	fd = add(CR_REC_FD, sizeof(*fd));
	*fd = (struct cr_fd){ .pid = 8, .fd = 3, .file_id = 1 };
	fd = add(CR_REC_FD, sizeof(*fd));
	*fd = (struct cr_fd){ .pid = 9, .fd = 4, .file_id = 2 };
	add(CR_REC_END, 0);
	seal();
}

static int check(const char **why)
{
	struct cr_summary sum;

	*why = "";
	return cr_image_check(img, img_len, &lim, &sum, why);
}

static int setup(struct ktest *t)
{
	img = kzalloc(IMG_MAX, GFP_KERNEL);
	return img ? 0 : -ENOMEM;
}

static void teardown(struct ktest *t)
{
	kfree(img);
}

static void test_whole_image_accepted(struct ktest *t)
{
	struct cr_summary sum;
	const char *why = "";
	size_t off = sizeof(struct cr_header);
	unsigned int n = 0;

	build();
	KASSERT_EQ(t, cr_image_check(img, img_len, &lim, &sum, &why), 0);
	KEXPECT_EQ(t, sum.nr_procs, 2);
	KEXPECT_EQ(t, sum.nr_vmas, 4);
	KEXPECT_EQ(t, sum.nr_pages, 2);
	KEXPECT_EQ(t, sum.nr_pipes, 1);
	KEXPECT_EQ(t, sum.nr_files, 3);
	KEXPECT_EQ(t, sum.nr_fds, 3);
	KEXPECT_EQ(t, sum.symtab->sym[0].offset, 0x540);
	while (cr_image_next(img, &off))
		n++;
	KEXPECT_EQ(t, n, nrec - 1); /* every record but END */
}

static void test_every_truncation_refused(struct ktest *t)
{
	struct cr_summary sum;
	const char *why;
	unsigned int accepted = 0;

	build();
	for (size_t len = 0; len < img_len; len++)
		accepted += cr_image_check(img, len, &lim, &sum, &why) == 0;
	KEXPECT_EQ(t, accepted, 0);
	KEXPECT_EQ(t, cr_image_check(img, img_len - 1, &lim, &sum, &why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "truncated") != NULL);
}

/* One bit flipped anywhere in the header or the first pages of records. */
static void test_flipped_bits_refused(struct ktest *t)
{
	const char *why;
	unsigned int accepted = 0;

	build();
	for (size_t i = 0; i < MIN(img_len, (size_t)1024); i++) {
		img[i] ^= 0x10;
		accepted += check(&why) == 0;
		img[i] ^= 0x10;
	}
	KEXPECT_EQ(t, accepted, 0);
	img[img_len - 20] ^= 1;
	KEXPECT_EQ(t, check(&why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "checksum") != NULL);
}

static void test_bad_magic(struct ktest *t)
{
	const char *why;

	build();
	memset(img, 0, 8);
	KEXPECT_EQ(t, check(&why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, "bad magic") != NULL);
}

static void test_other_version_or_arch(struct ktest *t)
{
	struct cr_header *h;
	const char *why;

	build();
	h = (struct cr_header *)img;
	h->version = CR_VERSION + 1;
	seal();
	KEXPECT_EQ(t, check(&why), -EPROTO);
	KEXPECT_TRUE(t, strstr(why, "version") != NULL);
	build();
	h->machine = 183;
	seal();
	KEXPECT_EQ(t, check(&why), -EPROTO);
	build();
	h->regs_size = 304;
	seal();
	KEXPECT_EQ(t, check(&why), -EPROTO);
}

/* Find the n-th record of a type in the built image (its payload). */
static void *nth(u32 type, unsigned int n)
{
	size_t off = sizeof(struct cr_header);
	const struct cr_rec *r;

	while ((r = cr_image_next(img, &off)))
		if (r->type == type && !n--)
			return (void *)(r + 1);
	return NULL;
}

static void expect_refused(struct ktest *t, const char *what)
{
	const char *why;

	seal();
	KEXPECT_EQ(t, check(&why), -EINVAL);
	KEXPECT_TRUE(t, strstr(why, what) != NULL);
}

static void test_broken_rules_refused(struct ktest *t)
{
	build();
	((struct cr_page *)nth(CR_REC_PAGE, 1))->va = 0x500000; /* outside its areas */
	expect_refused(t, "page outside");
	build();
	((struct cr_page *)nth(CR_REC_PAGE, 0))->va = 0x7f0000000000ULL; /* in [vvar] */
	expect_refused(t, "page outside");
	build();
	((struct cr_vma *)nth(CR_REC_VMA, 1))->start = 0x401000; /* overlaps the one before */
	expect_refused(t, "overlapping");
	build();
	((struct cr_vma *)nth(CR_REC_VMA, 0))->end = TASK_TOP + 0x1000;
	expect_refused(t, "outside user space");
	build();
	((struct cr_proc *)nth(CR_REC_PROC, 1))->ppid = 0; /* two roots */
	expect_refused(t, "root");
	build();
	((struct cr_proc *)nth(CR_REC_PROC, 1))->ppid = 77; /* a parent not in the image */
	expect_refused(t, "parent");
	build();
	((struct cr_proc *)nth(CR_REC_PROC, 1))->pid = 8; /* the same pid twice */
	expect_refused(t, "repeated");
	build();
	((struct cr_proc *)nth(CR_REC_PROC, 0))->vvar_base = 0x7e0000000000ULL;
	expect_refused(t, "apart");
	build();
	((struct cr_fd *)nth(CR_REC_FD, 2))->file_id = 9; /* no such file */
	expect_refused(t, "naming no open file");
	build();
	((struct cr_fd *)nth(CR_REC_FD, 1))->fd = 1; /* fd 1 of 8 twice */
	expect_refused(t, "twice");
	build();
	((struct cr_file *)nth(CR_REC_FILE, 1))->pipe_id = 4; /* a pipe end without its pipe */
	expect_refused(t, "without its pipe");
	build();
	((struct cr_pipe *)nth(CR_REC_PIPE, 0))->len = 6; /* disagrees with the record */
	expect_refused(t, "disagrees");
	build();
	((struct cr_symtab *)nth(CR_REC_SYMTAB, 0))->sym[0].offset = 0x2000; /* past the vDSO */
	expect_refused(t, "outside the vDSO");
	build();
	((struct cr_rec *)((u8 *)nth(CR_REC_PROC, 0) - sizeof(struct cr_rec)))->len = 0x7fffffff;
	expect_refused(t, "past the image's end");
	build();
	((struct cr_rec *)((u8 *)nth(CR_REC_PIPE, 0) - sizeof(struct cr_rec)))->type = 99;
	expect_refused(t, "unknown type");
}

static struct ktest_case cr_image_cases[] = {
	KTEST_CASE(test_whole_image_accepted),
	KTEST_CASE(test_every_truncation_refused),
	KTEST_CASE(test_flipped_bits_refused),
	KTEST_CASE(test_bad_magic),
	KTEST_CASE(test_other_version_or_arch),
	KTEST_CASE(test_broken_rules_refused),
	{}
};
KTEST_SUITE_FULL(cr_image, .cases = cr_image_cases, .init = setup, .exit = teardown);
