/* SPDX-License-Identifier: MIT */
/*
 * struct boot_info: everything the kernel learns from its loader.
 *
 * Each boot path (PVH start info, multiboot2 from GRUB under BIOS or UEFI,
 * and on arm64 a device tree) is turned into this one structure before
 * start_kernel() runs; nothing after that looks at loader formats again.
 */
#ifndef PAGODA_BOOT_INFO_H
#define PAGODA_BOOT_INFO_H

#include <pagoda/types.h>

/* Memory types, numbered as in the E820/ACPI address range map. */
enum boot_mem_type {
	BOOT_MEM_USABLE = 1,
	BOOT_MEM_RESERVED = 2,
	BOOT_MEM_ACPI = 3,
	BOOT_MEM_NVS = 4,
	BOOT_MEM_BAD = 5,
};

struct boot_mem_region {
	phys_addr_t base;
	u64 size;
	u32 type;
};

struct boot_module {
	phys_addr_t base;
	u64 size;
	char name[64];
};

#define BOOT_MAX_MEM 128
#define BOOT_MAX_MODULES 8
#define BOOT_CMDLINE_MAX 1024

/*
 * A memory-side cache (ACPI HMAT on x86): DRAM or HBM caching slower memory.
 * A direct-mapped one makes physical placement matter, which is when the
 * page allocator shuffles its free lists (mm/shuffle.c).
 */
struct boot_mem_side_cache {
	u64 size;        /* bytes; 0 when none is described */
	u32 line_size;   /* bytes */
	u8 level;
	u8 associativity; /* 0 none, 1 direct mapped, 2 complex (HMAT's codes) */
};

struct boot_info {
	const char *loader; /* "pvh", "multiboot2 (BIOS)", ... */
	char cmdline[BOOT_CMDLINE_MAX];
	u32 nr_mem;
	struct boot_mem_region mem[BOOT_MAX_MEM];
	u32 nr_modules;
	struct boot_module modules[BOOT_MAX_MODULES];
	phys_addr_t acpi_rsdp; /* 0 when none */
	phys_addr_t dtb;       /* 0 when none */
	phys_addr_t kernel_start, kernel_end; /* physical extent of the image */
	/* Top of ZONE_DMA: x86's 16 MiB ISA limit, or what the device tree's
	 * dma-ranges allow the most limited masters; 0 = no separate DMA zone. */
	phys_addr_t zone_dma_limit;
	struct boot_mem_side_cache mem_side_cache;
	bool truncated; /* a table did not fit: reported at boot */
};

extern struct boot_info boot_info;

/* Add a region, merging nothing; sets truncated when full. */
void boot_info_add_mem(struct boot_info *bi, phys_addr_t base, u64 size,
		       u32 type);
/* Sort the memory map by base address (loaders do not promise order). */
void boot_info_sort_mem(struct boot_info *bi);
const char *boot_mem_type_name(u32 type);
/* Total bytes of the given type. */
u64 boot_info_mem_total(const struct boot_info *bi, u32 type);

#endif
