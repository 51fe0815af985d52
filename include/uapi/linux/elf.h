/* SPDX-License-Identifier: MIT */
/*
 * The ELF64 file format, as the System V ABI and Linux's uapi <linux/elf.h>
 * define it: the one copy that the kernel (through <pagoda/elf.h>) and the
 * user programs in user/ (built with -Iinclude/uapi) both read, so that
 * the exec loader, the vDSO's symbol reader and the programs that parse
 * the vDSO cannot drift apart. Only <stdint.h> types, as user/ has no
 * kernel types.
 */
#ifndef UAPI_LINUX_ELF_H
#define UAPI_LINUX_ELF_H

#include <stdint.h>

typedef struct {
	unsigned char e_ident[16];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf64_Ehdr;

typedef struct {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} Elf64_Phdr;

typedef struct {
	uint32_t sh_name, sh_type;
	uint64_t sh_flags, sh_addr, sh_offset, sh_size;
	uint32_t sh_link, sh_info;
	uint64_t sh_addralign, sh_entsize;
} Elf64_Shdr;

typedef struct {
	uint32_t st_name;
	unsigned char st_info, st_other;
	uint16_t st_shndx;
	uint64_t st_value, st_size;
} Elf64_Sym;

/* Symbol versions (the GNU extension the vDSO's LINUX_2.6 version uses). */
typedef struct {
	uint16_t vd_version, vd_flags, vd_ndx, vd_cnt;
	uint32_t vd_hash, vd_aux, vd_next;
} Elf64_Verdef;

typedef struct {
	uint32_t vda_name, vda_next;
} Elf64_Verdaux;

#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_EXEC 2
#define ET_DYN 3
#define EM_X86_64 62
#define EM_AARCH64 183

#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PT_INTERP 3
#define PT_PHDR 6
#define PT_TLS 7
#define PT_GNU_STACK 0x6474e551

#define PF_X 1
#define PF_W 2
#define PF_R 4

#define SHT_DYNSYM 11

#define STB_GLOBAL 1
#define STB_WEAK 2
#define STT_FUNC 2

/* PT_DYNAMIC's tags: {tag, value} pairs up to DT_NULL. */
#define DT_NULL 0
#define DT_HASH 4
#define DT_STRTAB 5
#define DT_SYMTAB 6
#define DT_GNU_HASH 0x6ffffef5
#define DT_VERSYM 0x6ffffff0
#define DT_VERDEF 0x6ffffffc

#endif
