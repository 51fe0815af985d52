// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for what exec reads from a program file (make fuzz-elf):
 * the same bytes go through each reader kernel/exec.c and restore use.
 *
 *  - fs/binfmt_script.c's script_args() (Linux's load_script()): a "#!"
 *    line gives the interpreter, at most one argument, then the path and
 *    the caller's arguments after argv[0], all inside the line.
 *  - lib/elf.c's elf_parse() (Linux's load_elf_binary() checks), for
 *    both machines and two user-space sizes: an accepted image must keep
 *    every promise exec relies on: each segment's file bytes inside the
 *    input, segments page-aligned, in order, apart and below the limit,
 *    the entry point and the program headers inside them, the loader's
 *    path (PT_INTERP) one string inside the file, as find_interp() opens it.
 *  - kernel/cr/vdso_symtab.c's cr_vdso_symtab_parse(), the section-header
 *    reader restore runs on a vDSO (Linux's vdso2c reads the same
 *    .dynsym): every symbol it keeps is named, exported and inside.
 *
 * A broken promise aborts, so libFuzzer keeps the input.
 */
#include <pagoda/elf.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <stdlib.h>

#include "../../kernel/cr/cr.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);
int script_args(const char *data, u64 size, const char *path, int argc,
		const char *const *argv, int max_args, char ***nargv, int *nargc);

#define LIMIT 0x00007ffffffff000ULL  /* 47-bit user space (x86-64, arm64 48-bit VA) */
#define LIMIT39 0x0000007ffffff000ULL /* arm64 with 39-bit user addresses */

/* exec's allocator, for script_args(): the C library's. */
void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

static void check(const struct elf_info *info, const u8 *image, size_t size, u64 limit)
{
	u64 prev_end = 0;

	if (!info->nr_segments || info->nr_segments > ELF_MAX_SEGMENTS)
		abort();
	for (unsigned int i = 0; i < info->nr_segments; i++) {
		const struct elf_segment *s = &info->seg[i];

		if (s->vaddr % 4096 || s->memsz % 4096 || !s->memsz)
			abort();
		if (s->vaddr < prev_end || s->vaddr + s->memsz > limit || s->vaddr + s->memsz < s->vaddr)
			abort();
		if (s->filesz && (s->offset > size || s->filesz > size - s->offset))
			abort();
		if (s->start < s->vaddr || s->start - s->vaddr + s->filesz > s->memsz)
			abort();
		prev_end = s->vaddr + s->memsz;
	}
	if (info->entry < info->lo || info->entry >= info->hi)
		abort();
	if (info->phdr < info->lo || info->phdr >= info->hi)
		abort();
	if (info->interp_len) {
		/* find_interp() opens this path as a C string */
		const char *path = (const char *)image + info->interp_off;

		if (info->interp_off > size || info->interp_len > size - info->interp_off ||
		    info->interp_len < 2 || strlen(path) + 1 != info->interp_len)
			abort();
	}
}

static void parse(const u8 *image, size_t size, u16 machine, u64 limit)
{
	static struct elf_info info;
	const char *why;

	if (elf_parse(image, size, machine, limit, &info, &why)) {
		if (!why[0])
			abort(); /* every refusal says why */
		return;
	}
	check(&info, image, size, limit);
}

/* A "#!" line: the new vector is inside the line, the path and the caller's words after it. */
static void script(const u8 *image, size_t size)
{
	static const char *const argv[] = { "prog", "one", "two" };
	char **v;
	int n, r, argc = image[size - 1] % 4; /* 0 to 3 words from the caller */

	r = script_args((const char *)image, size, "/bin/s", argc, argv, argc + 2, &v, &n);
	if (r == 1 && size >= 2 && image[0] == '#' && image[1] == '!')
		abort();
	if (r)
		return;
	if (n < 2 || n > argc + 2 || !v[0][0] || strchr(v[0], ' ') || strchr(v[0], '\t') ||
	    strcmp(v[n - (argc > 1 ? argc : 1)], "/bin/s") ||
	    (argc > 1 && strcmp(v[n - 1], argv[argc - 1])))
		abort();
	if (n == 3 + (argc > 1 ? argc - 1 : 0) &&
	    (!v[1][0] || v[1][strlen(v[1]) - 1] == ' ' || v[1][strlen(v[1]) - 1] == '\t'))
		abort(); /* the one argument: the rest of the line, no trailing blank */
	kfree(v);
}

static void vdso_symbols(const u8 *image, size_t size)
{
	static struct cr_symtab t;
	const char *why = NULL;

	if (cr_vdso_symtab_parse(image, size, &t, &why)) {
		if (!why)
			abort();
		return;
	}
	if (t.nr > CR_MAX_SYMS || t.vdso_pages * (u64)CR_PAGE_SIZE < size)
		abort();
	for (u32 i = 0; i < t.nr; i++)
		if (t.sym[i].offset >= size || !memchr(t.sym[i].name, 0, sizeof(t.sym[i].name)) ||
		    (strncmp(t.sym[i].name, "__vdso_", 7) && strncmp(t.sym[i].name, "__kernel_", 9)))
			abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* The readers may assume nothing about alignment: copy to an odd address. */
	u8 *copy = malloc(size + 1);

	if (!copy)
		return 0;
	for (size_t i = 0; i < size; i++)
		copy[i + 1] = data[i];
	if (size)
		script(copy + 1, size);
	parse(copy + 1, size, EM_X86_64, LIMIT);
	parse(copy + 1, size, EM_AARCH64, LIMIT);
	parse(copy + 1, size, EM_AARCH64, LIMIT39);
	vdso_symbols(copy + 1, size);
	free(copy);
	return 0;
}
