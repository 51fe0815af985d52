// SPDX-License-Identifier: MIT
/*
 * A vDSO's exported functions, read from its ELF image: the section
 * headers lead to .dynsym and the string table it links to; every
 * defined global or weak function whose name starts with "__vdso_" or
 * "__kernel_" is kept, with its offset from the image's start (the vDSO
 * is linked at 0, so a symbol's value is that offset).
 *
 * This is the work the seed moved out of every restore: CRIU's "before"
 * parsed the running vDSO at each one; its "after" does it once, at boot
 * (vdso_cr.c). Pure code, every offset checked against len.
 */
#include <pagoda/elf.h>
#include <pagoda/string.h>
#include "cr.h"

static bool inside(u64 off, u64 size, size_t len)
{
	return off <= len && size <= len - off;
}

static bool exported(const char *name)
{
	return !strncmp(name, "__vdso_", 7) || !strncmp(name, "__kernel_", 9);
}

int cr_vdso_symtab_parse(const void *image, size_t len, struct cr_symtab *out,
			 const char **why)
{
	const u8 *b = image;
	Elf64_Ehdr eh;
	Elf64_Shdr sym, str;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(eh) || memcmp(b, "\177ELF", 4)) {
		*why = "the vDSO is not an ELF image";
		return -EINVAL;
	}
	memcpy(&eh, b, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    !inside(eh.e_shoff, (u64)eh.e_shnum * sizeof(Elf64_Shdr), len)) {
		*why = "the vDSO's section headers are outside it";
		return -EINVAL;
	}
	sym.sh_type = 0;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		memcpy(&sym, b + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof(sym));
		if (sym.sh_type == SHT_DYNSYM)
			break;
	}
	if (sym.sh_type != SHT_DYNSYM || sym.sh_link >= eh.e_shnum ||
	    sym.sh_entsize != sizeof(Elf64_Sym) || !inside(sym.sh_offset, sym.sh_size, len)) {
		*why = "the vDSO has no usable .dynsym";
		return -EINVAL;
	}
	memcpy(&str, b + eh.e_shoff + sym.sh_link * sizeof(Elf64_Shdr), sizeof(str));
	if (!inside(str.sh_offset, str.sh_size, len) || !str.sh_size ||
	    b[str.sh_offset + str.sh_size - 1]) {
		*why = "the vDSO's symbol names are outside it or unterminated";
		return -EINVAL;
	}
	out->vdso_pages = (u32)(ALIGN_UP((u64)len, (u64)CR_PAGE_SIZE) / CR_PAGE_SIZE);
	for (u64 off = 0; off + sizeof(Elf64_Sym) <= sym.sh_size; off += sizeof(Elf64_Sym)) {
		Elf64_Sym s;
		const char *name;
		unsigned int bind;

		memcpy(&s, b + sym.sh_offset + off, sizeof(s));
		bind = s.st_info >> 4;
		if ((s.st_info & 0xf) != STT_FUNC || (bind != STB_GLOBAL && bind != STB_WEAK) ||
		    !s.st_shndx || s.st_name >= str.sh_size || s.st_value >= len)
			continue;
		name = (const char *)b + str.sh_offset + s.st_name;
		if (!exported(name) || strlen(name) >= sizeof(out->sym[0].name))
			continue;
		if (out->nr == CR_MAX_SYMS) {
			*why = "the vDSO exports more functions than an image records";
			return -E2BIG;
		}
		strlcpy(out->sym[out->nr].name, name, sizeof(out->sym[0].name));
		out->sym[out->nr].offset = s.st_value;
		out->nr++;
	}
	return 0;
}
