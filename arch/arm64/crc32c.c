// SPDX-License-Identifier: MIT
/*
 * CRC-32C with the ARMv8 CRC32 extension (CRC32CX and friends: optional in
 * ARMv8.0, present on the Cortex-A72 of the Pi 4 and QEMU's virt). Used by
 * lib/crc32.c when ID_AA64ISAR0_EL1 says the CPU has it.
 */
#include <pagoda/crc32.h>
#include <pagoda/printk.h>
#include <pagoda/time.h>
#include <pagoda/string.h>
#include <asm/arm64.h>

static u32 crc32c_armv8(u32 crc, const void *p, size_t len)
{
	const u8 *b = p;

	for (; len && ((unsigned long)b & 7); len--, b++)
		__asm__(".arch_extension crc\n\tcrc32cb %w0, %w0, %w1" : "+r"(crc) : "r"((u32)*b));
	for (; len >= 8; len -= 8, b += 8) {
		u64 w;

		memcpy(&w, b, 8);
		__asm__(".arch_extension crc\n\tcrc32cx %w0, %w0, %x1" : "+r"(crc) : "r"(w));
	}
	for (; len; len--, b++)
		__asm__(".arch_extension crc\n\tcrc32cb %w0, %w0, %w1" : "+r"(crc) : "r"((u32)*b));
	return crc;
}

void arm64_crc32c_init(void)
{
	/* ID_AA64ISAR0_EL1.CRC32, bits 19:16: 1 when the instructions exist. */
	if ((read_sysreg(id_aa64isar0_el1) >> 16) & 0xf) {
		u64 insn, sw;
		const char *got = crc32c_pick(crc32c_armv8, "the ARMv8 CRC32C instructions",
					      ktime_get_ns, &insn, &sw);

		pr_info("crc32c: %s (instruction %llu MiB/s, table %llu MiB/s)\n", got,
			(unsigned long long)insn, (unsigned long long)sw);
	}
}
