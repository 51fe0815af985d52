// SPDX-License-Identifier: MIT
/*
 * User FP/SIMD state and the FS base on x86-64 (asm/fpu.h).
 *
 * The kernel is compiled without SSE or x87 code, so once a CPU allows
 * them (x86_fpu_cpu_init()) the registers belong to whichever user task
 * ran last. The scheduler saves them with FXSAVE when a user task leaves
 * the CPU and loads the next one's with FXRSTOR: eager switching, simple
 * and right for a handful of processes (Linux too switches eagerly since
 * 4.6). FXSAVE covers x87 and SSE; AVX state would need XSAVE, and since
 * CR4.OSXSAVE stays clear, CPUID tells programs AVX is not available, so a
 * libc never uses it.
 */
#include <pagoda/arch.h>
#include <pagoda/string.h>
#include <asm/x86.h>

#define CR0_MP (1 << 1)
#define CR0_EM (1 << 2)
#define CR0_TS (1 << 3)
#define CR0_NE (1 << 5)
#define CR4_OSXMMEXCPT (1 << 10)
#define MSR_FS_BASE 0xc0000100

/* Each CPU: x87 and SSE instructions run (no emulation, no lazy trap). */
void x86_fpu_cpu_init(void)
{
	write_cr0((read_cr0() & ~(u64)(CR0_EM | CR0_TS)) | CR0_MP | CR0_NE);
	write_cr4(read_cr4() | CR4_OSFXSR | CR4_OSXMMEXCPT);
	__asm__ volatile("fninit");
}

void arch_user_state_init(struct arch_user_state *s)
{
	u16 fcw = 0x37f;	/* x87: all exceptions masked, 64-bit precision */
	u32 mxcsr = 0x1f80;	/* SSE: all exceptions masked, round to nearest */

	memset(s, 0, sizeof(*s));
	memcpy(s->fxsave, &fcw, sizeof(fcw));
	memcpy(s->fxsave + 24, &mxcsr, sizeof(mxcsr));
}

/*
 * FXSAVE and FXRSTOR fault on an area that is not 16-byte aligned, and
 * where a struct process lands is the slab's business (slab.debug shifts
 * objects by its red zone): go through an aligned buffer on the stack.
 */
void arch_user_state_save(struct arch_user_state *s)
{
	u8 area[512] __attribute__((aligned(64)));

	__asm__ volatile("fxsave64 %0" : "=m"(area));
	memcpy(s->fxsave, area, sizeof(area));
	/* Only arch_prctl() changes it (no FSGSBASE for user mode), but reading is cheap. */
	s->fs_base = rdmsr(MSR_FS_BASE);
}

void arch_user_state_load(const struct arch_user_state *s)
{
	u8 area[512] __attribute__((aligned(64)));

	memcpy(area, s->fxsave, sizeof(area));
	__asm__ volatile("fxrstor64 %0" : : "m"(area));
	wrmsr(MSR_FS_BASE, s->fs_base);
}

void arch_set_tls(u64 tp)
{
	wrmsr(MSR_FS_BASE, tp);
}

void arch_user_state_set_tls(struct arch_user_state *s, u64 tp)
{
	s->fs_base = tp;
}
