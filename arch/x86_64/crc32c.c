// SPDX-License-Identifier: MIT
/*
 * CRC-32C with SSE4.2's CRC32 instruction (it computes exactly Castagnoli's
 * reflected CRC, eight bytes at a time, on general registers: no FP state
 * to save). Hibernation images are checksummed with it; lib/crc32.c uses
 * it whenever the CPU has it, and the crc32 suite checks it against the
 * table.
 */
#include <pagoda/crc32.h>
#include <pagoda/printk.h>
#include <pagoda/time.h>
#include <pagoda/string.h>
#include <asm/x86.h>

static u32 crc32c_sse42(u32 crc, const void *p, size_t len)
{
	const u8 *b = p;
	u64 c = crc;

	for (; len && ((unsigned long)b & 7); len--, b++)
		__asm__("crc32b %1, %k0" : "+r"(c) : "rm"(*b));
	for (; len >= 8; len -= 8, b += 8) {
		u64 w;

		memcpy(&w, b, 8);
		__asm__("crc32q %1, %0" : "+r"(c) : "rm"(w));
	}
	for (; len; len--, b++)
		__asm__("crc32b %1, %k0" : "+r"(c) : "rm"(*b));
	return (u32)c;
}

void x86_crc32c_init(void)
{
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	if (c & (1u << 20)) { /* SSE4.2 */
		u64 insn, sw;
		const char *got = crc32c_pick(crc32c_sse42, "the SSE4.2 instruction",
					      ktime_get_ns, &insn, &sw);

		pr_info("crc32c: %s (instruction %llu MiB/s, table %llu MiB/s)\n", got,
			(unsigned long long)insn, (unsigned long long)sw);
	}
}
