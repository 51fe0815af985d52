// SPDX-License-Identifier: MIT
/* Helpers shared by every loader's translation into struct boot_info. */
#include <pagoda/boot_info.h>

struct boot_info boot_info;

void boot_info_add_mem(struct boot_info *bi, phys_addr_t base, u64 size,
		       u32 type)
{
	if (!size)
		return;
	if (bi->nr_mem == BOOT_MAX_MEM) {
		bi->truncated = true;
		return;
	}
	bi->mem[bi->nr_mem++] = (struct boot_mem_region){ base, size, type };
}

/* Insertion sort: the map is short and usually sorted already. */
void boot_info_sort_mem(struct boot_info *bi)
{
	for (u32 i = 1; i < bi->nr_mem; i++) {
		struct boot_mem_region r = bi->mem[i];
		u32 j = i;

		while (j > 0 && bi->mem[j - 1].base > r.base) {
			bi->mem[j] = bi->mem[j - 1];
			j--;
		}
		bi->mem[j] = r;
	}
}

const char *boot_mem_type_name(u32 type)
{
	switch (type) {
	case BOOT_MEM_USABLE: return "usable";
	case BOOT_MEM_RESERVED: return "reserved";
	case BOOT_MEM_ACPI: return "ACPI data";
	case BOOT_MEM_NVS: return "ACPI NVS";
	case BOOT_MEM_BAD: return "bad";
	case BOOT_MEM_FW_RESERVED: return "firmware reserved";
	default: return "unknown";
	}
}

u64 boot_info_mem_total(const struct boot_info *bi, u32 type)
{
	u64 sum = 0;

	for (u32 i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type == type)
			sum += bi->mem[i].size;
	return sum;
}
