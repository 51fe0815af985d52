// SPDX-License-Identifier: MIT
/*
 * Hibernation on x86-64: the C half of the jump into an image (the
 * assembly half, and why it is split so, is in hibernate_asm.asm).
 *
 * The temporary page tables map, with 2 MiB pages and nothing
 * non-executable, every physical address up to the end of the direct map
 * three ways: at itself (the relocated copy runs there and addresses
 * frames by their physical addresses), at PAGE_OFFSET (the direct map,
 * so the C caller's view of those pages stays valid), and the first GiB at
 * KERNEL_VIRT (hibernate_jump and hibernate_resume_entry are kernel text,
 * the same bytes in both kernels of one build). One PDPT serves both the
 * identity and the direct map: PAGE_OFFSET is 512 GiB aligned.
 */
#include <pagoda/arch.h>
#include <pagoda/mm.h>
#include <pagoda/string.h>
#include <pagoda/suspend.h>
#include <asm/x86.h>

#define TP_P (1ULL << 0)
#define TP_W (1ULL << 1)
#define TP_PS (1ULL << 7)

extern char restore_image_code[], restore_image_code_end[];
extern char hibernate_resume_entry[];
void hibernate_jump(u64 pbe_pa, u64 pml4_pa, u64 code_pa, u64 entry);

static unsigned int gib_covered(void)
{
	return (unsigned int)((arch_direct_map_end() + SZ_1G - 1) / SZ_1G);
}

unsigned long arch_hibernation_extra_pages(void)
{
	/* PML4, two PDPTs, a PD per GiB, the code page. */
	return 4 + gib_covered();
}

void arch_hibernation_header(u64 *restore_pgd, u64 *resume_entry)
{
	*restore_pgd = __pa(init_mm.pgd);
	*resume_entry = (u64)hibernate_resume_entry;
}

void arch_hibernation_resumed(void)
{
	/*
	 * The boot kernel of the same build set up this CPU exactly as this
	 * kernel had (descriptor tables at the same addresses, MSRs, PAT, the
	 * local APIC in TSC-deadline mode); only the timer's deadline belongs
	 * to the boot kernel's clock, and the caller programs it again.
	 */
}

int swsusp_arch_resume(u64 pbe_pa, u64 restore_pgd, u64 resume_entry,
		       void *(*safe_page)(void *ctx), void *ctx)
{
	unsigned int ngib = gib_covered();
	u64 *pml4 = safe_page(ctx), *pdpt = safe_page(ctx), *pdpt_k = safe_page(ctx);
	u64 *pd0 = NULL;
	void *code;

	(void)restore_pgd; /* hibernate_resume_entry loads the CR3 it saved */
	if (!pml4 || !pdpt || !pdpt_k || ngib > 512 ||
	    resume_entry != (u64)hibernate_resume_entry)
		return -EINVAL;
	for (unsigned int g = 0; g < ngib; g++) {
		u64 *pd = safe_page(ctx);

		if (!pd)
			return -ENOMEM;
		for (unsigned int i = 0; i < 512; i++)
			pd[i] = ((u64)g << 30 | (u64)i << 21) | TP_P | TP_W | TP_PS;
		pdpt[g] = __pa(pd) | TP_P | TP_W;
		if (!g)
			pd0 = pd;
	}
	pml4[0] = __pa(pdpt) | TP_P | TP_W;
	pml4[(PAGE_OFFSET >> 39) & 511] = __pa(pdpt) | TP_P | TP_W;
	pml4[(KERNEL_VIRT >> 39) & 511] = __pa(pdpt_k) | TP_P | TP_W;
	pdpt_k[(KERNEL_VIRT >> 30) & 511] = __pa(pd0) | TP_P | TP_W;

	code = safe_page(ctx);
	if (!code)
		return -ENOMEM;
	memcpy(code, restore_image_code, restore_image_code_end - restore_image_code);
	hibernate_jump(pbe_pa, __pa(pml4), __pa(code), resume_entry);
	return -EFAULT; /* not reached */
}
