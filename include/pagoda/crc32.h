/* SPDX-License-Identifier: MIT */
/* CRC-32 (IEEE 802.3, reflected, polynomial 0xedb88320), as Linux's crc32_le, and CRC-32C. */
#ifndef PAGODA_CRC32_H
#define PAGODA_CRC32_H

#include <pagoda/types.h>

/* No pre- or post-inversion: zlib's/UEFI's CRC is ~crc32_le(~0, p, len). */
u32 crc32_le(u32 crc, const void *p, size_t len);
/* CRC-32C (Castagnoli, reflected, 0x82f63b78), the same convention: ~crc32c(~0, ...) is iSCSI's. */
u32 crc32c(u32 crc, const void *p, size_t len);
/* The table way, whatever the CPU has (the tests compare the two). */
u32 crc32c_sw(u32 crc, const void *p, size_t len);
/* Set at boot when the CPU computes CRC-32C itself (SSE4.2, ARMv8 CRC32) faster than the table. */
extern u32 (*crc32c_arch)(u32 crc, const void *p, size_t len);
/* The CPU's routine, chosen or not (the crc32 suite checks it either way). */
extern u32 (*crc32c_insn)(u32 crc, const void *p, size_t len);
/*
 * Time the CPU's routine against the table on 64 KiB and keep the faster
 * in crc32c_arch; returns the chosen one's name and both speeds (MiB/s).
 */
const char *crc32c_pick(u32 (*insn)(u32 crc, const void *p, size_t len), const char *name,
			u64 (*now_ns)(void), u64 *insn_mib_s, u64 *sw_mib_s);

#endif
