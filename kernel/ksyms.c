// SPDX-License-Identifier: MIT
/*
 * Symbolization: which function holds a given text address. The table is
 * generated from the first link of the kernel (tools/gen-ksyms.py) and is
 * sorted, so a lookup is a binary search for the last symbol <= addr.
 */
#include <pagoda/ksyms.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>

const char *ksym_lookup_in(const struct ksym_table *tab, u64 addr, u64 *offset)
{
	u32 lo = 0, hi = tab->count;

	if (!tab->count || addr < tab->addrs[0] || addr >= tab->text_end)
		return NULL;
	/* Invariant: addrs[lo] <= addr, and every index >= hi is > addr. */
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (tab->addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (offset)
		*offset = addr - tab->addrs[lo];
	return tab->names + tab->name_offsets[lo];
}

const char *ksym_lookup(u64 addr, u64 *offset)
{
	return ksym_lookup_in(&kernel_ksyms, addr, offset);
}

u64 ksym_address(const char *name)
{
	for (u32 i = 0; i < kernel_ksyms.count; i++)
		if (!strcmp(kernel_ksyms.names + kernel_ksyms.name_offsets[i], name))
			return kernel_ksyms.addrs[i];
	return 0;
}

size_t ksym_format(char *buf, size_t size, uptr addr)
{
	u64 off;
	const char *name = ksym_lookup(addr, &off);

	if (!name)
		return 0;
	return scnprintf(buf, size, "%s+0x%llx", name, (unsigned long long)off);
}
