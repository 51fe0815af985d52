// SPDX-License-Identifier: MIT
/*
 * Multiboot2 information, as GRUB hands it over (under BIOS or UEFI): a
 * sequence of 8-byte-aligned tags after an 8-byte header. We take the
 * command line, the memory map, modules and the ACPI RSDP (the tag holds a
 * copy of the RSDP itself, so we record the copy's address).
 */
#include <pagoda/boot_info.h>
#include <pagoda/string.h>
#include "boot.h"

#define MB2_BOOTLOADER_MAGIC 0x36d76289

enum {
	MB2_TAG_END = 0,
	MB2_TAG_CMDLINE = 1,
	MB2_TAG_LOADER_NAME = 2,
	MB2_TAG_MODULE = 3,
	MB2_TAG_MMAP = 6,
	MB2_TAG_EFI64 = 12,
	MB2_TAG_ACPI_OLD = 14,
	MB2_TAG_ACPI_NEW = 15,
};

struct mb2_tag {
	u32 type, size;
};

struct mb2_mmap {
	u32 type, size, entry_size, entry_version;
	/* entries follow */
};

struct mb2_mmap_entry {
	u64 addr, len;
	u32 type, reserved;
};

struct mb2_module {
	u32 type, size, mod_start, mod_end;
	char cmdline[];
};

static void parse_mmap(const struct mb2_mmap *m, struct boot_info *bi)
{
	const u8 *p = (const u8 *)(m + 1), *end = (const u8 *)m + m->size;

	if (m->entry_size < sizeof(struct mb2_mmap_entry))
		return;
	for (; p + m->entry_size <= end; p += m->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;

		boot_info_add_mem(bi, e->addr, e->len, e->type);
	}
}

int multiboot2_parse(u32 magic, u64 info_pa, struct boot_info *bi)
{
	const u8 *info = (const u8 *)info_pa;
	u32 total;
	bool efi = false;

	if (magic != MB2_BOOTLOADER_MAGIC || !info_pa)
		return -EINVAL;
	total = *(const u32 *)info;
	for (u32 off = 8; off + sizeof(struct mb2_tag) <= total;) {
		const struct mb2_tag *tag = (const void *)(info + off);

		if (tag->type == MB2_TAG_END || tag->size < 8)
			break;
		switch (tag->type) {
		case MB2_TAG_CMDLINE:
			strlcpy(bi->cmdline, (const char *)(tag + 1),
				MIN((size_t)(tag->size - 8 + 1), sizeof(bi->cmdline)));
			break;
		case MB2_TAG_MMAP:
			parse_mmap((const void *)tag, bi);
			break;
		case MB2_TAG_MODULE: {
			const struct mb2_module *m = (const void *)tag;
			struct boot_module *bm;

			if (bi->nr_modules == BOOT_MAX_MODULES) {
				bi->truncated = true;
				break;
			}
			bm = &bi->modules[bi->nr_modules++];
			bm->base = m->mod_start;
			bm->size = m->mod_end - m->mod_start;
			strlcpy(bm->name, m->cmdline, sizeof(bm->name));
			break;
		}
		case MB2_TAG_EFI64:
			efi = true;
			break;
		case MB2_TAG_ACPI_NEW:
			bi->acpi_rsdp = info_pa + off + 8;
			break;
		case MB2_TAG_ACPI_OLD:
			if (!bi->acpi_rsdp)
				bi->acpi_rsdp = info_pa + off + 8;
			break;
		}
		off += ALIGN_UP(tag->size, 8);
	}
	bi->loader = efi ? "multiboot2 (GRUB, UEFI)" : "multiboot2 (GRUB, BIOS)";
	/*
	 * The information block itself (and the RSDP copy inside it) must
	 * survive until memory management has read it: record it as a module.
	 */
	if (bi->nr_modules < BOOT_MAX_MODULES) {
		struct boot_module *bm = &bi->modules[bi->nr_modules++];

		bm->base = info_pa;
		bm->size = total;
		strlcpy(bm->name, "multiboot2-info", sizeof(bm->name));
	}
	return bi->nr_mem ? 0 : -ENOENT;
}
