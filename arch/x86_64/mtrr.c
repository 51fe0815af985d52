// SPDX-License-Identifier: MIT
/*
 * Memory types. Firmware normally programs the MTRRs so that RAM is
 * write-back; when we are started without firmware doing so (QEMU's PVH
 * entry under KVM leaves them disabled) every access is uncached and the
 * machine runs tens of times slower. If the MTRRs are off we turn them on
 * with write-back as the default type and the 32-bit PCI hole
 * (3 GiB - 4 GiB, where device registers live) uncached.
 */
#include <pagoda/printk.h>
#include <asm/x86.h>

#define MSR_MTRRCAP 0xfe
#define MSR_MTRR_DEF_TYPE 0x2ff
#define MSR_MTRR_PHYSBASE0 0x200
#define MSR_MTRR_PHYSMASK0 0x201
#define MTRR_ENABLE (1 << 11)
#define MTRR_FIXED_ENABLE (1 << 10)
#define MTRR_TYPE_UC 0
#define MTRR_TYPE_WB 6

static const char *mtrr_state = "not supported";

const char *mtrr_describe(void) { return mtrr_state; }

void mtrr_init(void)
{
	u32 a, b, c, d;
	u64 def, cr0, mask;
	u32 phys_bits = 36;

	cpuid(1, 0, &a, &b, &c, &d);
	if (!(d & (1 << 12)))
		return;
	def = rdmsr(MSR_MTRR_DEF_TYPE);
	if (def & MTRR_ENABLE) {
		mtrr_state = "set by firmware";
		return;
	}
	if ((rdmsr(MSR_MTRRCAP) & 0xff) == 0) {
		mtrr_state = "no variable ranges";
		return;
	}
	if (cpu.max_ext_leaf >= 0x80000008) {
		cpuid(0x80000008, 0, &a, &b, &c, &d);
		phys_bits = a & 0xff;
	}
	mask = ((1ULL << phys_bits) - 1) & ~(SZ_1G - 1);

	/* The architected sequence: caches off and flushed while we change. */
	cr0 = read_cr0();
	write_cr0(cr0 | (1ULL << 30));
	__asm__ volatile("wbinvd" ::: "memory");
	wrmsr(MSR_MTRR_PHYSBASE0, 3 * SZ_1G | MTRR_TYPE_UC);
	wrmsr(MSR_MTRR_PHYSMASK0, mask | (1 << 11));
	wrmsr(MSR_MTRR_DEF_TYPE, MTRR_ENABLE | MTRR_TYPE_WB);
	__asm__ volatile("wbinvd" ::: "memory");
	write_cr0(cr0);
	mtrr_state = "enabled by Pagoda (RAM write-back, 3-4 GiB uncached)";
}
