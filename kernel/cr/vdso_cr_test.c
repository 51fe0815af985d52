// SPDX-License-Identifier: MIT
/*
 * The vDSO side of restore, in the kernel: the table kept from boot
 * (kdat) names every function this arch's vDSO exports, at the offsets
 * its dynamic section gives when read the way a libc reads it (DT_HASH,
 * DT_SYMTAB, DT_STRTAB: another path through the ELF than the section
 * headers cr_vdso_symtab_parse() follows); parsing again (legacy) gives
 * the same table; damaged copies are refused; and the jumps written at
 * old entry points are the instructions the architecture defines, or
 * nothing when they do not fit.
 */
#include <pagoda/arch.h>
#include <pagoda/elf.h>
#include <pagoda/ktest.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/vdso.h>
#include "cr.h"

/* A libc's lookup: program headers, PT_DYNAMIC, DT_HASH's count; -1 if absent. */
static s64 dyn_lookup(const u8 *base, const char *name)
{
	const u64 *dyn = NULL;
	const Elf64_Sym *syms = NULL;
	const char *strs = NULL;
	u64 nsyms = 0;
	Elf64_Ehdr eh;

	memcpy(&eh, base, sizeof(eh));
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, base + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_DYNAMIC)
			dyn = (const u64 *)(base + ph.p_offset);
	}
	for (; dyn && dyn[0] != DT_NULL; dyn += 2) {
		if (dyn[0] == DT_HASH)
			nsyms = ((const u32 *)(base + dyn[1]))[1];
		else if (dyn[0] == DT_STRTAB)
			strs = (const char *)(base + dyn[1]);
		else if (dyn[0] == DT_SYMTAB)
			syms = (const Elf64_Sym *)(base + dyn[1]);
	}
	for (u64 i = 1; syms && strs && i < nsyms; i++)
		if (syms[i].st_shndx && !strcmp(strs + syms[i].st_name, name))
			return (s64)syms[i].st_value;
	return -1;
}

static void test_kdat_names_every_export(struct ktest *t)
{
	static const char *const names[] = { VDSO_SYMBOLS };
	const struct cr_symtab *k = cr_kdat_symtab();
	size_t len = (size_t)(vdso_image_end - vdso_image_start);

	KEXPECT_EQ(t, k->nr, ARRAY_SIZE(names));
	KEXPECT_EQ(t, (u64)k->vdso_pages * PAGE_SIZE, len);
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++) {
		unsigned int found = 0;
		s64 want = dyn_lookup((const u8 *)vdso_image_start, names[i]);

		KEXPECT_GE(t, want, 0);
		for (u32 j = 0; j < k->nr; j++)
			if (!strcmp(k->sym[j].name, names[i])) {
				found++;
				KEXPECT_EQ(t, (s64)k->sym[j].offset, want);
			}
		KEXPECT_EQ(t, found, 1);
	}
}

static void test_legacy_parse_equals_kdat(struct ktest *t)
{
	struct cr_symtab again;
	const char *why = "";

	KASSERT_EQ(t, cr_vdso_symtab_parse(vdso_image_start,
					   (size_t)(vdso_image_end - vdso_image_start), &again, &why),
		   0);
	KEXPECT_TRUE(t, cr_symtab_equal(&again, cr_kdat_symtab()));
	again.sym[0].offset += 16; /* another layout: not equal */
	KEXPECT_FALSE(t, cr_symtab_equal(&again, cr_kdat_symtab()));
}

static void test_damaged_vdso_refused(struct ktest *t)
{
	size_t len = (size_t)(vdso_image_end - vdso_image_start);
	u8 *copy = kmalloc(len, GFP_KERNEL);
	struct cr_symtab out;
	const char *why;
	u64 shoff;

	KASSERT_TRUE(t, copy != NULL);
	memcpy(copy, vdso_image_start, len);
	KEXPECT_NE(t, cr_vdso_symtab_parse(copy, 40, &out, &why), 0); /* cut short */
	shoff = len; /* section headers past the end */
	memcpy(copy + 40, &shoff, 8);
	KEXPECT_NE(t, cr_vdso_symtab_parse(copy, len, &out, &why), 0);
	memcpy(copy, vdso_image_start, len);
	copy[0] = 0; /* not ELF */
	KEXPECT_NE(t, cr_vdso_symtab_parse(copy, len, &out, &why), 0);
	kfree(copy);
}

#ifdef __x86_64__
/* movabs $target, %r11 (REX.WB B8+3, imm64); jmp *%r11 (REX.B FF /4). */
static void test_jump_encoding(struct ktest *t)
{
	u8 code[64];
	u64 target = 0x7ffc12345678ULL, imm;

	memset(code, 0, sizeof(code));
	KASSERT_EQ(t, arch_cr_write_jump(code, sizeof(code), 0x7ffc00000540ULL, target), 13);
	KEXPECT_EQ(t, code[0], 0x49);
	KEXPECT_EQ(t, code[1], 0xbb);
	memcpy(&imm, code + 2, 8);
	KEXPECT_EQ(t, imm, target);
	KEXPECT_EQ(t, code[10], 0x41);
	KEXPECT_EQ(t, code[11], 0xff);
	KEXPECT_EQ(t, code[12], 0xe3);
	KEXPECT_EQ(t, arch_cr_write_jump(code, 12, 0x7ffc00000540ULL, target), 0);
}
#else
/* ldr x16, #lit (LDR literal, 64-bit: 0x58000000 | imm19 << 5 | Rt); br x16. */
static void test_jump_encoding(struct ktest *t)
{
	u8 code[64];
	u32 insn[3];
	u64 target = 0xfffc12345678ULL, lit;

	KASSERT_EQ(t, arch_cr_write_jump(code, sizeof(code), 0xfffc00000540ULL, target), 16);
	memcpy(insn, code, 8);
	KEXPECT_EQ(t, insn[0] & 0xff00001fu, 0x58000010u);
	KEXPECT_EQ(t, (insn[0] >> 5) & 0x7ffff, 2);     /* the literal 8 bytes on */
	KEXPECT_EQ(t, insn[1], 0xd61f0200u);
	memcpy(&lit, code + 8, 8);
	KEXPECT_EQ(t, lit, target);
	/* An entry 4 mod 8: a nop keeps the literal 8-byte aligned in the process. */
	KASSERT_EQ(t, arch_cr_write_jump(code, sizeof(code), 0xfffc00000544ULL, target), 20);
	memcpy(insn, code, 12);
	KEXPECT_EQ(t, (insn[0] >> 5) & 0x7ffff, 3);
	KEXPECT_EQ(t, insn[2], 0xd503201fu);
	memcpy(&lit, code + 12, 8);
	KEXPECT_EQ(t, lit, target);
	KEXPECT_EQ(t, arch_cr_write_jump(code, 15, 0xfffc00000540ULL, target), 0);
	KEXPECT_EQ(t, arch_cr_write_jump(code, 64, 0xfffc00000542ULL, target), 0);
}
#endif

static struct ktest_case cr_vdso_cases[] = {
	KTEST_CASE(test_kdat_names_every_export),
	KTEST_CASE(test_legacy_parse_equals_kdat),
	KTEST_CASE(test_damaged_vdso_refused),
	KTEST_CASE(test_jump_encoding),
	{}
};
KTEST_SUITE_FULL(cr_vdso, .cases = cr_vdso_cases, .kernel_only = true);
