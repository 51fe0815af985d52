// SPDX-License-Identifier: MIT
/*
 * Hibernation on arm64: the C half of the jump into an image (the assembly
 * half is hibernate_asm.S).
 *
 * The temporary TTBR0 tables map, with 1 GiB blocks of normal cacheable
 * memory that EL1 may execute, every GiB holding usable RAM at its own
 * physical address: the relocated copy runs there and reaches every
 * frame by its physical address. The kernel's half (TTBR1) is left alone
 * until the copy is done, then given the image's root.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/string.h>
#include <pagoda/suspend.h>
#include <asm/arm64.h>

#include <asm/pgtable-hwdef.h>

extern char restore_image_code[], restore_image_code_end[];
extern char hibernate_resume_entry[];
void hibernate_jump(u64 pbe_pa, u64 temp_ttbr0, u64 restore_pgd, u64 entry, u64 code_pa);

#define IDMAP_MAX (512ULL * SZ_1G) /* one level-1 table */

unsigned long arch_hibernation_extra_pages(void)
{
	return 3; /* level-0 and level-1 tables, the code page */
}

void arch_hibernation_header(u64 *restore_pgd, u64 *resume_entry)
{
	/* The root may be in the image (boot pool), not the direct map: ask the CPU. */
	*restore_pgd = read_sysreg(ttbr1_el1) & PTE_ADDR_MASK;
	*resume_entry = (u64)hibernate_resume_entry;
}

void arch_hibernation_resumed(void)
{
	/*
	 * The boot kernel of the same build left this CPU's vector base,
	 * MAIR/TCR/SCTLR, GIC CPU interface and timer control as this kernel
	 * had them; the timer's deadline is reprogrammed by the caller.
	 */
}

int swsusp_arch_resume(u64 pbe_pa, u64 restore_pgd, u64 resume_entry,
		       void *(*safe_page)(void *ctx), void *ctx)
{
	u64 *l0 = safe_page(ctx), *l1 = safe_page(ctx);
	void *code = safe_page(ctx);
	size_t size = restore_image_code_end - restore_image_code;

	if (!l0 || !l1 || !code || resume_entry != (u64)hibernate_resume_entry)
		return -EINVAL;
	for (u32 i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *r = &boot_info.mem[i];

		if (r->type != BOOT_MEM_USABLE)
			continue;
		if (r->base + r->size > IDMAP_MAX)
			return -ERANGE;
		for (u64 g = r->base / SZ_1G; g < (r->base + r->size + SZ_1G - 1) / SZ_1G; g++)
			l1[g] = (g * SZ_1G) | PTE_VALID | PTE_AF | PTE_SH_INNER |
				PTE_ATTR(MT_NORMAL);
	}
	l0[0] = __pa(l1) | PTE_VALID | PTE_TABLE;
	memcpy(code, restore_image_code, size);
	/* The copy is about to be executed: clean it to where instructions are fetched from. */
	for (u64 a = (u64)code; a < (u64)code + size; a += 16)
		asm volatile("dc cvau, %0" :: "r"(a) : "memory");
	asm volatile("dsb ish; ic iallu; dsb ish; isb" ::: "memory");
	/* The table walker must see the new tables too. */
	asm volatile("dsb ish" ::: "memory");
	hibernate_jump(pbe_pa, __pa(l0), restore_pgd, resume_entry, __pa(code));
	return -EFAULT; /* not reached */
}
