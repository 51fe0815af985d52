/* SPDX-License-Identifier: MIT */
/*
 * Saving and restoring the interrupt mask (DAIF), inline: the page
 * allocator's per-CPU lists and every spin_lock_irqsave() do it on each
 * call, and a function call around two instructions cost more than they
 * do (and made the caller save its registers).
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

/* Mask IRQ and FIQ (as arch_irq_disable()) and return the previous DAIF. */
static inline unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #3" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
	__asm__ volatile("msr daif, %0" : : "r"(flags) : "memory");
}

#endif
