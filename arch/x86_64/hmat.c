// SPDX-License-Identifier: MIT
/*
 * ACPI HMAT (Heterogeneous Memory Attribute Table): we read only its
 * Memory Side Cache Information structures (type 2), which describe a
 * cache in front of a memory proximity domain: its size, line size and
 * associativity. A direct-mapped one is what turns the page allocator's
 * shuffle on (mm/policy_shuffle.c), and the allocator-policy lab models it.
 *
 * Layout (ACPI 6.3, 5.2.27): the table header, 4 reserved bytes, then
 * structures of { u16 type, u16 reserved, u32 length, ... }. Type 2 has
 * the proximity domain at 8, the cache size (u64) at 16 and the cache
 * attributes (u32) at 24: bits 3:0 total levels, 7:4 this level, 11:8
 * associativity (0 none, 1 direct mapped, 2 complex), 15:12 write policy,
 * 31:16 line size in bytes.
 */
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include "acpi.h"

#define HMAT_TYPE_CACHE 2

static const char *const assoc_names[] = { "no associativity", "direct-mapped",
					   "complex-indexed" };

void hmat_init(void)
{
	const struct acpi_header *h = acpi_find_table("HMAT");
	const u8 *p, *end;

	if (!h)
		return;
	p = (const u8 *)(h + 1) + 4;
	end = (const u8 *)h + h->length;
	while (p + 8 <= end) {
		u16 type;
		u32 len;

		memcpy(&type, p, 2);
		memcpy(&len, p + 4, 4);
		if (len < 8 || len > (u32)(end - p)) {
			pr_warn("hmat: structure at offset %u has bad length %u; rest ignored\n",
				(unsigned int)(p - (const u8 *)h), len);
			return;
		}
		if (type == HMAT_TYPE_CACHE && len >= 28) {
			u32 domain, attr;
			u64 size;
			struct boot_mem_side_cache *msc = &boot_info.mem_side_cache;

			memcpy(&domain, p + 8, 4);
			memcpy(&size, p + 16, 8);
			memcpy(&attr, p + 24, 4);
			pr_info("hmat: memory-side cache for domain %u: %llu MiB, level %u, %s, %u-byte lines\n",
				domain, (unsigned long long)(size >> 20), (attr >> 4) & 0xf,
				((attr >> 8) & 0xf) < 3 ? assoc_names[(attr >> 8) & 0xf] : "unknown",
				attr >> 16);
			/* Keep the first level-1 cache: the one next to the memory. */
			if (!msc->size && ((attr >> 4) & 0xf) == 1) {
				msc->size = size;
				msc->level = 1;
				msc->associativity = (u8)((attr >> 8) & 0xf);
				msc->line_size = attr >> 16;
			}
		}
		p += len;
	}
}
