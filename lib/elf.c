// SPDX-License-Identifier: MIT
/*
 * The ELF64 checker behind exec: it trusts nothing in the image. Every
 * offset and size is checked against the buffer and every address against
 * the user range, with overflow in mind, before a single byte is mapped,
 * so a malformed file fails that exec with a reason and nothing else. It
 * takes what Linux's binfmt_elf takes: ET_EXEC or ET_DYN, little-endian,
 * 64-bit, static or with an interpreter (PT_INTERP: the dynamic loader,
 * whose path it checks and records; kernel/exec.c loads it).
 */
#include <pagoda/elf.h>
#include <pagoda/string.h>

#define ELF_PAGE 4096ULL

static int refuse(const char **why, const char *msg, int err)
{
	*why = msg;
	return err;
}

/* [off, off + len) inside a buffer of size bytes. */
static bool within(u64 off, u64 len, u64 size)
{
	return off <= size && len <= size - off;
}

static int check_header(const Elf64_Ehdr *eh, size_t size, u16 machine, const char **why)
{
	if (memcmp(eh->e_ident, "\177ELF", 4))
		return refuse(why, "not an ELF file", -ENOEXEC);
	if (eh->e_ident[4] != ELFCLASS64 || eh->e_ident[5] != ELFDATA2LSB ||
	    eh->e_ident[6] != EV_CURRENT)
		return refuse(why, "not a little-endian 64-bit ELF file", -ENOEXEC);
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return refuse(why, "neither an executable nor a position-independent one", -ENOEXEC);
	if (eh->e_machine != machine)
		return refuse(why, "built for another machine", -ENOEXEC);
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || !eh->e_phnum)
		return refuse(why, "no usable program headers", -ENOEXEC);
	if (!within(eh->e_phoff, (u64)eh->e_phnum * sizeof(Elf64_Phdr), size))
		return refuse(why, "program headers outside the file", -ENOEXEC);
	return 0;
}

static int add_load(struct elf_info *info, const Elf64_Phdr *ph, size_t size, u64 limit,
		    const char **why)
{
	struct elf_segment *s;
	u64 start, end;

	if (!ph->p_memsz)
		return 0;
	if (info->nr_segments == ELF_MAX_SEGMENTS)
		return refuse(why, "too many loadable segments", -E2BIG);
	if (ph->p_filesz > ph->p_memsz)
		return refuse(why, "a segment's file part is larger than the segment", -ENOEXEC);
	/* A segment of bss alone may name any offset: nothing is read from it. */
	if (ph->p_filesz && !within(ph->p_offset, ph->p_filesz, size))
		return refuse(why, "a segment lies outside the file", -ENOEXEC);
	if ((ph->p_vaddr - ph->p_offset) % ELF_PAGE)
		return refuse(why, "a segment's address and file offset disagree modulo the page",
			      -ENOEXEC);
	if (ph->p_vaddr > limit || ph->p_memsz > limit - ph->p_vaddr)
		return refuse(why, "a segment reaches beyond user space", -ENOEXEC);
	start = ph->p_vaddr & ~(ELF_PAGE - 1);
	end = (ph->p_vaddr + ph->p_memsz + ELF_PAGE - 1) & ~(ELF_PAGE - 1);
	if (end > limit)
		return refuse(why, "a segment reaches beyond user space", -ENOEXEC);
	/* Segments come in address order and do not share pages with a different protection. */
	if (info->nr_segments && start < info->seg[info->nr_segments - 1].vaddr +
					    info->seg[info->nr_segments - 1].memsz)
		return refuse(why, "segments overlap or are out of order", -ENOEXEC);
	s = &info->seg[info->nr_segments++];
	s->vaddr = start;
	s->memsz = end - start;
	s->start = ph->p_vaddr;
	s->offset = ph->p_offset;
	s->filesz = ph->p_filesz;
	s->prot = ph->p_flags & (PF_R | PF_W | PF_X);
	if (info->nr_segments == 1)
		info->lo = start;
	info->hi = end;
	return 0;
}

/*
 * The interpreter's path: a string inside the file, NUL-terminated and
 * with no NUL before its end, as Linux's load_elf_binary() demands (it
 * takes the first PT_INTERP; a second one is refused here).
 */
static int check_interp(struct elf_info *info, const Elf64_Phdr *ph, const void *image,
			size_t size, const char **why)
{
	const char *path;

	if (info->interp_len)
		return refuse(why, "more than one interpreter (PT_INTERP)", -ENOEXEC);
	if (ph->p_filesz < 2 || ph->p_filesz > ELF_INTERP_MAX ||
	    !within(ph->p_offset, ph->p_filesz, size))
		return refuse(why, "the interpreter's path (PT_INTERP) is not in the file",
			      -ENOEXEC);
	/* Only now: an offset past the file would make the pointer itself undefined. */
	path = (const char *)image + ph->p_offset;
	if (path[ph->p_filesz - 1] || strlen(path) != ph->p_filesz - 1)
		return refuse(why, "the interpreter's path (PT_INTERP) is not one string",
			      -ENOEXEC);
	info->interp_off = ph->p_offset;
	info->interp_len = (u32)ph->p_filesz;
	return 0;
}

int elf_parse(const void *image, size_t size, u16 machine, u64 limit,
	      struct elf_info *info, const char **why)
{
	Elf64_Ehdr ehdr, *eh = &ehdr;
	bool have_phdr = false;
	int err;

	/* Copies: an image in a cpio archive is only 4-byte aligned. */
	memset(info, 0, sizeof(*info));
	*why = "";
	if (size < sizeof(ehdr))
		return refuse(why, "shorter than an ELF header", -ENOEXEC);
	memcpy(&ehdr, image, sizeof(ehdr));
	err = check_header(eh, size, machine, why);
	if (err)
		return err;
	for (u16 i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr phdr;

		memcpy(&phdr, (const u8 *)image + eh->e_phoff + i * sizeof(phdr), sizeof(phdr));
		switch (phdr.p_type) {
		case PT_INTERP:
			err = check_interp(info, &phdr, image, size, why);
			if (err)
				return err;
			break;
		case PT_LOAD:
			err = add_load(info, &phdr, size, limit, why);
			if (err)
				return err;
			break;
		case PT_PHDR:
			info->phdr = phdr.p_vaddr;
			have_phdr = true;
			break;
		case PT_GNU_STACK:
			info->exec_stack = phdr.p_flags & PF_X;
			break;
		}
	}
	if (!info->nr_segments)
		return refuse(why, "nothing to load", -ENOEXEC);
	/* Without PT_PHDR, the headers are wherever the segment holding them maps them. */
	for (unsigned int i = 0; i < info->nr_segments && !have_phdr; i++) {
		const struct elf_segment *s = &info->seg[i];
		u64 len = (u64)eh->e_phnum * sizeof(Elf64_Phdr);

		if (eh->e_phoff >= s->offset && eh->e_phoff - s->offset + len <= s->filesz) {
			info->phdr = s->start + (eh->e_phoff - s->offset);
			have_phdr = true;
		}
	}
	if (!have_phdr || info->phdr < info->lo || info->phdr > info->hi ||
	    (u64)eh->e_phnum * sizeof(Elf64_Phdr) > info->hi - info->phdr)
		return refuse(why, "the program headers are not in any loaded segment", -ENOEXEC);
	if (eh->e_entry < info->lo || eh->e_entry >= info->hi)
		return refuse(why, "the entry point is outside the loaded segments", -ENOEXEC);
	info->pie = eh->e_type == ET_DYN;
	info->entry = eh->e_entry;
	info->phnum = eh->e_phnum;
	info->phentsize = eh->e_phentsize;
	return 0;
}
