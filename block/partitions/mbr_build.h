/* SPDX-License-Identifier: MIT */
/*
 * Writing MBR entries, for the tests that make partitioned disks: the
 * parsers' own (partitions_test.c, on images in memory) and the block
 * layer's (blk_test.c, on a null_blk disk). The layout is msdos.c's:
 * four 16-byte entries at offset 446, the 0x55 0xaa signature at 510.
 */
#ifndef BLOCK_PARTITIONS_MBR_BUILD_H
#define BLOCK_PARTITIONS_MBR_BUILD_H

#include <pagoda/types.h>
#include <pagoda/unaligned.h>

/* Entry i of the table in block: type (0x83 Linux, 0x05 extended...), start and length in sectors. */
static inline void mbr_entry(u8 *block, unsigned int i, u8 type, u32 start, u32 count)
{
	u8 *e = block + 446 + 16 * i;

	e[0] = 0;
	e[4] = type;
	put_unaligned_le32(start, e + 8);
	put_unaligned_le32(count, e + 12);
	block[510] = 0x55;
	block[511] = 0xaa;
}

#endif
