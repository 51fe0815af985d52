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
/*
 * CRC-32C eight bytes at a time ("slicing by 8"): slice[k][b] is the CRC of
 * byte b followed by k zero bytes, so eight lookups fold a whole word in.
 */
static u32 crc32c_slice[8][256];
static bool crc32c_slice_ready;

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
u32 (*crc32c_insn)(u32 crc, const void *p, size_t len);

static void init_slices(void)
{
	init_table(crc32c_table, CRC32C_POLY_LE, &crc32c_table_ready);
	for (int i = 0; i < 256; i++) {
		crc32c_slice[0][i] = crc32c_table[i];
		for (int k = 1; k < 8; k++)
			crc32c_slice[k][i] = (crc32c_slice[k - 1][i] >> 8) ^
					     crc32c_table[crc32c_slice[k - 1][i] & 0xff];
	}
	smp_store_release(&crc32c_slice_ready, true);
}

static u32 le32(const u8 *b)
{
	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

u32 crc32c_sw(u32 crc, const void *p, size_t len)
{
	const u32 (*t)[256] = crc32c_slice;
	const u8 *b = p;

	if (!smp_load_acquire(&crc32c_slice_ready))
		init_slices();
	for (; len >= 8; len -= 8, b += 8) {
		u32 lo = crc ^ le32(b), hi = le32(b + 4);

		crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^
		      t[4][lo >> 24] ^ t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		      t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
	}
	return crc_bytes(crc32c_table, crc, b, len);
}

/*
 * Take the CPU's instruction only where it is the faster: it always is on
 * hardware, but under QEMU's TCG each one is a call into the emulator, and
 * the tables (plain loads and shifts, translated once) can win. As Linux
 * picks its RAID-6 routines, by timing each on the machine it runs on.
 */
const char *crc32c_pick(u32 (*insn)(u32 crc, const void *p, size_t len), const char *name,
			u64 (*now_ns)(void), u64 *insn_mib_s, u64 *sw_mib_s)
{
	static u8 buf[16384];
	u64 t0, t1, t2;
	u32 a = ~0U, b = ~0U;

	crc32c_insn = insn;
	for (unsigned int i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)(i * 131 + 7);
	crc32c_sw(~0U, buf, 64); /* the tables built before the clock starts */
	t0 = now_ns();
	for (int r = 0; r < 4; r++)
		a = insn(a, buf, sizeof(buf));
	t1 = now_ns();
	for (int r = 0; r < 4; r++)
		b = crc32c_sw(b, buf, sizeof(buf));
	t2 = now_ns();
	*insn_mib_s = t1 > t0 ? 4 * sizeof(buf) * 1000000000ULL / (t1 - t0) >> 20 : 0;
	*sw_mib_s = t2 > t1 ? 4 * sizeof(buf) * 1000000000ULL / (t2 - t1) >> 20 : 0;
	if (a != b)
		return "the table (the instruction disagreed with it!)";
	if (t1 - t0 <= t2 - t1) {
		crc32c_arch = insn;
		return name;
	}
	return "the table (slicing by 8)";
}

u32 crc32c(u32 crc, const void *p, size_t len)
{
	/* An image is hundreds of MiB: the CPU's instruction is many times the table. */
	if (crc32c_arch)
		return crc32c_arch(crc, p, len);
	return crc32c_sw(crc, p, len);
}
