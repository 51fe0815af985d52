/* SPDX-License-Identifier: MIT */
#ifndef X86_64_BOOT_H
#define X86_64_BOOT_H

#include <pagoda/boot_info.h>

int pvh_parse(u64 info_pa, struct boot_info *bi);
int multiboot2_parse(u32 magic, u64 info_pa, struct boot_info *bi);

#endif
