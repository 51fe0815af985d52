// SPDX-License-Identifier: MIT
/*
 * The PVH boot protocol (Xen's x86/HVM direct boot ABI, which QEMU's
 * -kernel uses for an ELF with a PHYS32_ENTRY note): EBX points at an
 * hvm_start_info with the command line, modules, the ACPI RSDP and, from
 * version 1 on, an E820-style memory map.
 */
#include <pagoda/boot_info.h>
#include <pagoda/string.h>
#include "boot.h"

#define PVH_START_MAGIC 0x336ec578

struct hvm_start_info {
	u32 magic;
	u32 version;
	u32 flags;
	u32 nr_modules;
	u64 modlist_paddr;
	u64 cmdline_paddr;
	u64 rsdp_paddr;
	u64 memmap_paddr; /* version >= 1 */
	u32 memmap_entries;
	u32 reserved;
};

struct hvm_modlist_entry {
	u64 paddr, size, cmdline_paddr, reserved;
};

struct hvm_memmap_entry {
	u64 addr, size;
	u32 type, reserved;
};

/* Runs on the early identity map: physical addresses are pointers. */
int pvh_parse(u64 info_pa, struct boot_info *bi)
{
	const struct hvm_start_info *si = (const void *)info_pa;

	if (!info_pa || si->magic != PVH_START_MAGIC)
		return -EINVAL;
	bi->loader = "pvh";
	if (si->cmdline_paddr)
		strlcpy(bi->cmdline, (const char *)si->cmdline_paddr,
			sizeof(bi->cmdline));
	bi->acpi_rsdp = si->rsdp_paddr;
	if (si->version >= 1 && si->memmap_paddr) {
		const struct hvm_memmap_entry *e = (const void *)si->memmap_paddr;

		for (u32 i = 0; i < si->memmap_entries; i++)
			boot_info_add_mem(bi, e[i].addr, e[i].size, e[i].type);
	}
	if (si->nr_modules && si->modlist_paddr) {
		const struct hvm_modlist_entry *m = (const void *)si->modlist_paddr;

		for (u32 i = 0; i < si->nr_modules; i++) {
			struct boot_module *bm;

			if (bi->nr_modules == BOOT_MAX_MODULES) {
				bi->truncated = true;
				break;
			}
			bm = &bi->modules[bi->nr_modules++];
			bm->base = m[i].paddr;
			bm->size = m[i].size;
			if (m[i].cmdline_paddr)
				strlcpy(bm->name, (const char *)m[i].cmdline_paddr,
					sizeof(bm->name));
		}
	}
	return bi->nr_mem ? 0 : -ENOENT;
}
