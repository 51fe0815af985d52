// SPDX-License-Identifier: MIT
/*
 * Instruction-cache coherency on arm64. The data and instruction caches
 * are separate and the instruction side does not snoop the data side: an
 * instruction stored by the CPU (a program's text copied in by exec, a
 * page copied by fork, a trampoline written by restore) may still sit in
 * the data cache when it is fetched, and the instruction cache may still
 * hold what that memory held before. So the new bytes are cleaned to the
 * point of unification (where both sides meet) and the instruction cache
 * lines for them are invalidated, each followed by a barrier. QEMU's TCG
 * does not model this; a Cortex-A72 (the Pi 4) does.
 *
 * CTR_EL0 tells what a CPU needs: IDC set means the clean is not needed,
 * DIC set means the invalidate is not; L1Ip tells whether the instruction
 * cache is indexed by physical address (then invalidating by the kernel's
 * alias reaches the user's lines) or may alias (then the whole cache goes).
 */
#include <pagoda/arch.h>

#define CTR_IDC (1ULL << 28)
#define CTR_DIC (1ULL << 29)
#define CTR_L1IP_SHIFT 14
#define CTR_L1IP_PIPT 3ULL

static u64 read_ctr(void)
{
	u64 ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	return ctr;
}

void arch_sync_icache(void *kaddr, size_t len)
{
	u64 ctr = read_ctr();
	u64 dline = 4ULL << ((ctr >> 16) & 0xf); /* DminLine: log2 of words */
	u64 iline = 4ULL << (ctr & 0xf);         /* IminLine */
	u64 end = (u64)kaddr + len;

	if (!len)
		return;
	if (!(ctr & CTR_IDC))
		for (u64 a = (u64)kaddr & ~(dline - 1); a < end; a += dline)
			__asm__ volatile("dc cvau, %0" ::"r"(a) : "memory");
	__asm__ volatile("dsb ish" ::: "memory");
	if (!(ctr & CTR_DIC)) {
		if (((ctr >> CTR_L1IP_SHIFT) & 3) == CTR_L1IP_PIPT)
			for (u64 a = (u64)kaddr & ~(iline - 1); a < end; a += iline)
				__asm__ volatile("ic ivau, %0" ::"r"(a) : "memory");
		else
			__asm__ volatile("ic ialluis" ::: "memory");
		__asm__ volatile("dsb ish" ::: "memory");
	}
	__asm__ volatile("isb" ::: "memory");
}
