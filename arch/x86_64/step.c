// SPDX-License-Identifier: MIT
/*
 * Single-stepping a task in user mode, x86-64's part (Linux:
 * arch/x86/kernel/step.c). With the trap flag set in the flags a return
 * to user mode loads, the CPU raises #DB after one instruction; the
 * #DB handler (traps.c) asks cr_step_trap() whether the step was the
 * kernel's. `syscall` clears TF on the way in (SFMASK, user.c), and
 * sysretq is not used while it is set (entry.asm), so the kernel itself
 * is never stepped.
 */
#include <pagoda/arch.h>
#include <asm/x86.h>

#define X86_EFLAGS_TF (1UL << 8)

void arch_user_single_step(struct pt_regs *regs, bool on)
{
	regs->rflags = on ? regs->rflags | X86_EFLAGS_TF : regs->rflags & ~X86_EFLAGS_TF;
}
