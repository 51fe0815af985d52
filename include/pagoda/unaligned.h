/* SPDX-License-Identifier: MIT */
/*
 * Little-endian numbers at any byte address, as Linux's <linux/unaligned.h>
 * names them: on-disk formats (partition tables, dm-snapshot's COW store)
 * are little-endian whatever the CPU, and their fields need not be
 * aligned. Byte by byte, so the same code runs in the kernel and on the
 * host.
 */
#ifndef PAGODA_UNALIGNED_H
#define PAGODA_UNALIGNED_H

#include <pagoda/types.h>

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static inline u64 get_unaligned_le64(const void *p)
{
	return get_unaligned_le32(p) | (u64)get_unaligned_le32((const u8 *)p + 4) << 32;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = p;

	for (int i = 0; i < 4; i++)
		b[i] = (u8)(v >> (8 * i));
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	put_unaligned_le32((u32)v, p);
	put_unaligned_le32((u32)(v >> 32), (u8 *)p + 4);
}

#endif
