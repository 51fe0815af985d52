/* SPDX-License-Identifier: MIT */
/* The host test build has no interrupts: nothing to save or restore. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

static inline unsigned long arch_irq_save(void) { return 0; }
static inline void arch_irq_restore(unsigned long flags) { (void)flags; }

#endif
