// SPDX-License-Identifier: MIT
/*
 * CRC-32, one byte at a time through a 256-entry table. GPT headers and
 * partition arrays carry the IEEE polynomial; hibernation images carry
 * Castagnoli's (CRC32C, as Linux's crc32c), which detects more of the
 * error patterns storage produces. Each table is built on first use; two
 * CPUs racing to build it write the same values, so no lock is needed.
 */
#include <pagoda/atomic.h>
#include <pagoda/crc32.h>

#define CRC32_POLY_LE 0xedb88320U
#define CRC32C_POLY_LE 0x82f63b78U

static u32 crc32_table[256], crc32c_table[256];
static bool crc32_table_ready, crc32c_table_ready;

static void init_table(u32 *table, u32 poly, bool *ready)
{
	for (u32 i = 0; i < 256; i++) {
		u32 c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ ((c & 1) ? poly : 0);
		table[i] = c;
	}
	smp_store_release(ready, true);
}

static u32 crc_bytes(const u32 *table, u32 crc, const u8 *b, size_t len)
{
	while (len--)
		crc = (crc >> 8) ^ table[(crc ^ *b++) & 0xff];
	return crc;
}

u32 crc32_le(u32 crc, const void *p, size_t len)
{
	if (!smp_load_acquire(&crc32_table_ready))
		init_table(crc32_table, CRC32_POLY_LE, &crc32_table_ready);
	return crc_bytes(crc32_table, crc, p, len);
}

u32 (*crc32c_arch)(u32 crc, const void *p, size_t len);

u32 crc32c_sw(u32 crc, const void *p, size_t len)
{
	if (!smp_load_acquire(&crc32c_table_ready))
		init_table(crc32c_table, CRC32C_POLY_LE, &crc32c_table_ready);
	return crc_bytes(crc32c_table, crc, p, len);
}

u32 crc32c(u32 crc, const void *p, size_t len)
{
	/* An image is hundreds of MiB: the CPU's instruction is many times the table. */
	if (crc32c_arch)
		return crc32c_arch(crc, p, len);
	return crc32c_sw(crc, p, len);
}
