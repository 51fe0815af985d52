// SPDX-License-Identifier: MIT
/*
 * Tests for lib/elf.c, on the host and in the kernel: a well-formed static
 * executable, a static-PIE and a dynamic program's interpreter path are
 * described right, and each way an image can be wrong is refused with -ENOEXEC (or -E2BIG) and a reason.
 */
#include <pagoda/elf.h>
#include <pagoda/ktest.h>
#include <pagoda/string.h>

#define LIMIT 0x00007ffffffff000ULL

/* Headers, two program headers (text at 0x400000, data+bss at 0x401000), code. */
struct image {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[4];
	u8 body[0x1000 + 64];
};

static struct image img;

static void build(u16 type, u64 base)
{
	memset(&img, 0, sizeof(img));
	memcpy(img.eh.e_ident, "\177ELF", 4);
	img.eh.e_ident[4] = ELFCLASS64;
	img.eh.e_ident[5] = ELFDATA2LSB;
	img.eh.e_ident[6] = EV_CURRENT;
	img.eh.e_type = type;
	img.eh.e_machine = EM_X86_64;
	img.eh.e_version = EV_CURRENT;
	img.eh.e_phoff = offsetof(struct image, ph);
	img.eh.e_phentsize = sizeof(Elf64_Phdr);
	img.eh.e_phnum = 3;
	img.eh.e_ehsize = sizeof(Elf64_Ehdr);
	img.eh.e_entry = base + 0x200;
	/* text: the first page of the file, headers included */
	img.ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0,
				  .p_vaddr = base, .p_filesz = 0x1000, .p_memsz = 0x1000,
				  .p_align = 0x1000 };
	/* data: 64 bytes from the file, then 0x3000 of bss */
	img.ph[1] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = 0x1000,
				  .p_vaddr = base + 0x1000, .p_filesz = 64, .p_memsz = 0x3000,
				  .p_align = 0x1000 };
	img.ph[2] = (Elf64_Phdr){ .p_type = PT_GNU_STACK, .p_flags = PF_R | PF_W };
}

static int parse(struct elf_info *info)
{
	const char *why;

	return elf_parse(&img, sizeof(img), EM_X86_64, LIMIT, info, &why);
}

/* The interpreter's path at the body's end: offset of its first byte. */
static u64 put_interp(const char *path, size_t len)
{
	u64 off = offsetof(struct image, body) + sizeof(img.body) - len;

	memcpy((u8 *)&img + off, path, len);
	img.ph[2] = (Elf64_Phdr){ .p_type = PT_INTERP, .p_flags = PF_R, .p_offset = off,
				  .p_filesz = len, .p_memsz = len };
	return off;
}

/* PT_INTERP: a dynamic program is taken, its loader's path recorded; a bad path is refused. */
static void test_interp(struct ktest *t)
{
	static const char ld[] = "/lib64/ld-linux-x86-64.so.2";
	struct elf_info info;
	const char *why;
	u64 off;

	build(ET_DYN, 0);
	off = put_interp(ld, sizeof(ld));
	KASSERT_EQ(t, parse(&info), 0);
	KEXPECT_EQ(t, info.interp_off, off);
	KEXPECT_EQ(t, info.interp_len, sizeof(ld));
	KEXPECT_TRUE(t, info.pie);
	build(ET_EXEC, 0x400000);
	put_interp(ld, sizeof(ld));
	KEXPECT_EQ(t, parse(&info), 0);
	KEXPECT_EQ(t, info.interp_len, sizeof(ld));
	/* Without its NUL, with a NUL inside, reaching past the file, or twice. */
	build(ET_EXEC, 0x400000);
	put_interp(ld, sizeof(ld) - 1);
	KEXPECT_EQ(t, elf_parse(&img, sizeof(img), EM_X86_64, LIMIT, &info, &why), -ENOEXEC);
	KEXPECT_TRUE(t, strstr(why, "PT_INTERP") != NULL);
	build(ET_EXEC, 0x400000);
	put_interp("/lib\0/ld.so", 12);
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	put_interp(ld, sizeof(ld));
	img.ph[2].p_filesz += 1;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	/* An offset near 2^64: refused before any pointer is made from it (fuzz-elf). */
	build(ET_EXEC, 0x400000);
	put_interp(ld, sizeof(ld));
	img.ph[2].p_offset = ~0ULL - 4;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	put_interp(ld, sizeof(ld));
	img.ph[3] = img.ph[2];
	img.eh.e_phnum = 4;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
}

static void test_static_executable(struct ktest *t)
{
	struct elf_info info;

	build(ET_EXEC, 0x400000);
	KASSERT_EQ(t, parse(&info), 0);
	KEXPECT_FALSE(t, info.pie);
	KEXPECT_EQ(t, info.entry, 0x400200);
	KEXPECT_EQ(t, info.phdr, 0x400000 + offsetof(struct image, ph));
	KEXPECT_EQ(t, info.phnum, 3);
	KEXPECT_EQ(t, info.nr_segments, 2);
	KEXPECT_EQ(t, info.lo, 0x400000);
	KEXPECT_EQ(t, info.hi, 0x404000);
	KEXPECT_EQ(t, info.seg[1].vaddr, 0x401000);
	KEXPECT_EQ(t, info.seg[1].memsz, 0x3000);
	KEXPECT_EQ(t, info.seg[1].filesz, 64);
	KEXPECT_EQ(t, info.seg[1].prot, PF_R | PF_W);
	KEXPECT_FALSE(t, info.exec_stack);
}

static void test_static_pie(struct ktest *t)
{
	struct elf_info info;

	build(ET_DYN, 0);
	KASSERT_EQ(t, parse(&info), 0);
	KEXPECT_TRUE(t, info.pie);
	KEXPECT_EQ(t, info.entry, 0x200);
	KEXPECT_EQ(t, info.lo, 0);
}

/* Each case breaks one thing in a good image. */
static void test_refusals(struct ktest *t)
{
	struct elf_info info;
	const char *why;

	build(ET_EXEC, 0x400000);
	img.eh.e_ident[0] = 0;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.eh.e_ident[4] = 1; /* 32-bit */
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.eh.e_machine = EM_AARCH64;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(1, 0x400000); /* ET_REL */
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.eh.e_phoff = sizeof(img) - 8;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.eh.e_phnum = 0xffff;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.ph[2] = (Elf64_Phdr){ .p_type = PT_INTERP }; /* an empty path */
	KEXPECT_EQ(t, elf_parse(&img, sizeof(img), EM_X86_64, LIMIT, &info, &why), -ENOEXEC);
	KEXPECT_TRUE(t, strstr(why, "PT_INTERP") != NULL);
	build(ET_EXEC, 0x400000);
	img.ph[1].p_filesz = 0x4000; /* more file than segment */
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.ph[1].p_offset = ~0ULL - 8; /* offset + size wraps */
	img.ph[1].p_vaddr = 0x401000 + ((~0ULL - 8) & 0xfff);
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.ph[1].p_vaddr = 0x401010; /* address and offset disagree */
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.ph[1].p_vaddr = LIMIT - 0x1000; /* into the kernel */
	img.ph[1].p_memsz = 0x2000;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.ph[1].p_vaddr = ~0ULL - 0xfff; /* wraps */
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.ph[1].p_vaddr = 0x400000; /* overlaps the text */
	img.ph[1].p_offset = 0;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.eh.e_entry = 0x500000;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC);
	build(ET_EXEC, 0x400000);
	img.ph[0].p_type = 4 /* PT_NOTE */;
	img.ph[1].p_type = 4 /* PT_NOTE */;
	KEXPECT_EQ(t, parse(&info), -ENOEXEC); /* nothing to load */
	/* Truncated: shorter than its own header. */
	build(ET_EXEC, 0x400000);
	KEXPECT_EQ(t, elf_parse(&img, 20, EM_X86_64, LIMIT, &info, &why), -ENOEXEC);
	/* Truncated: the data segment's bytes are gone. */
	KEXPECT_EQ(t, elf_parse(&img, 0x1010, EM_X86_64, LIMIT, &info, &why), -ENOEXEC);
}

static void test_too_many_segments(struct ktest *t)
{
	static u8 big[sizeof(Elf64_Ehdr) + 20 * sizeof(Elf64_Phdr)] __aligned(8);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)big;
	Elf64_Phdr *ph = (Elf64_Phdr *)(big + sizeof(*eh));
	struct elf_info info;
	const char *why;

	build(ET_EXEC, 0x400000);
	memcpy(eh, &img.eh, sizeof(*eh));
	eh->e_phoff = sizeof(*eh);
	eh->e_phnum = 20;
	for (int i = 0; i < 20; i++)
		ph[i] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R,
				      .p_vaddr = 0x400000 + i * 0x1000ULL, .p_memsz = 0x10 };
	KEXPECT_EQ(t, elf_parse(big, sizeof(big), EM_X86_64, LIMIT, &info, &why), -E2BIG);
}

static struct ktest_case elf_cases[] = {
	KTEST_CASE(test_static_executable),
	KTEST_CASE(test_static_pie),
	KTEST_CASE(test_refusals),
	KTEST_CASE(test_interp),
	KTEST_CASE(test_too_many_segments),
	{}
};
KTEST_SUITE(elf, elf_cases);
