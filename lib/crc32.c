// SPDX-License-Identifier: MIT
/*
 * CRC-32, one byte at a time through a 256-entry table. GPT headers and
 * partition arrays carry it. The table is built on first use; two CPUs
 * racing to build it write the same values, so no lock is needed.
 */
#include <pagoda/atomic.h>
#include <pagoda/crc32.h>

#define CRC32_POLY_LE 0xedb88320U

static u32 crc32_table[256];
static bool crc32_table_ready;

static void crc32_init_table(void)
{
	for (u32 i = 0; i < 256; i++) {
		u32 c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ ((c & 1) ? CRC32_POLY_LE : 0);
		crc32_table[i] = c;
	}
	smp_store_release(&crc32_table_ready, true);
}

u32 crc32_le(u32 crc, const void *p, size_t len)
{
	const u8 *b = p;

	if (!smp_load_acquire(&crc32_table_ready))
		crc32_init_table();
	while (len--)
		crc = (crc >> 8) ^ crc32_table[(crc ^ *b++) & 0xff];
	return crc;
}
