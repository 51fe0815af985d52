// SPDX-License-Identifier: MIT
/* TEMPORARY until the fdt branch lands: a fixed memory map per platform. */
#include <pagoda/boot_info.h>
#include <pagoda/string.h>
#include "platform.h"

int arm64_read_dtb(void *fdt, size_t size, struct boot_info *bi)
{
	if (!strcmp(platform->name, "pi4"))
		boot_info_add_mem(bi, 0x0, 0x3b400000, BOOT_MEM_USABLE);
	else
		boot_info_add_mem(bi, 0x40000000, 0x40000000, BOOT_MEM_USABLE);
	return 0;
}
