// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the ELF checker (make fuzz-elf).
 *
 * Any input: elf_parse() must answer without a stray read (ASan and UBSan
 * watch). An input it accepts must keep every promise exec relies on:
 * each segment's file bytes inside the input, segments page-aligned, in
 * order, apart and below the limit, the entry point and the program
 * headers inside them. A broken promise aborts, so libFuzzer keeps it.
 */
#include <pagoda/elf.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#define LIMIT 0x00007ffffffff000ULL

static void check(const struct elf_info *info, size_t size)
{
	u64 prev_end = 0;

	if (!info->nr_segments || info->nr_segments > ELF_MAX_SEGMENTS)
		abort();
	for (unsigned int i = 0; i < info->nr_segments; i++) {
		const struct elf_segment *s = &info->seg[i];

		if (s->vaddr % 4096 || s->memsz % 4096 || !s->memsz)
			abort();
		if (s->vaddr < prev_end || s->vaddr + s->memsz > LIMIT || s->vaddr + s->memsz < s->vaddr)
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
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct elf_info info;
	const char *why;
	/* The checker may assume nothing about alignment: copy to an odd address. */
	u8 *copy = malloc(size + 1);

	if (!copy)
		return 0;
	for (size_t i = 0; i < size; i++)
		copy[i + 1] = data[i];
	if (!elf_parse(copy + 1, size, EM_X86_64, LIMIT, &info, &why))
		check(&info, size);
	if (!elf_parse(copy + 1, size, EM_AARCH64, LIMIT, &info, &why))
		check(&info, size);
	free(copy);
	return 0;
}
