/* SPDX-License-Identifier: MIT */
/*
 * Saving and restoring the interrupt flag, inline: the page allocator's
 * per-CPU lists and every spin_lock_irqsave() do it on each call, and a
 * function call around three instructions cost more than they do (and
 * made the caller save its registers).
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

/* Disable and return the previous RFLAGS, for arch_irq_restore(). */
static inline unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
	if (flags & (1UL << 9)) /* IF was set */
		__asm__ volatile("sti" ::: "memory");
}

#endif
