// SPDX-License-Identifier: MIT
/*
 * Single-stepping a task at EL0, arm64's part (Linux: the software step
 * of arch/arm64/kernel/debug-monitors.c). Two bits make a step:
 * MDSCR_EL1.SS turns software step on for EL0, and SPSR_EL1.SS, loaded
 * into PSTATE.SS by the return, lets one instruction run before the
 * Software Step exception (EC 0x32) comes back to EL1. MDSCR_EL1 is the
 * CPU's, so it follows the task: set while a stepped task runs, clear
 * for every other, whose first instruction would otherwise trap at once.
 * The kernel is never stepped (MDSCR_EL1.KDE stays 0).
 */
#include <pagoda/arch.h>
#include <pagoda/sched.h>
#include <asm/arm64.h>

#define DBG_MDSCR_SS (1UL << 0)
#define DBG_SPSR_SS (1UL << 21)

/*
 * Each CPU at boot: the OS Lock, which QEMU and the hardware set at
 * reset, holds back every debug exception, software step among them.
 */
void arm64_debug_cpu_init(void)
{
	write_sysreg(osdlr_el1, 0UL);
	write_sysreg(oslar_el1, 0UL);
	isb();
}

void arm64_step_switch(const struct task *next)
{
	u64 m = read_sysreg(mdscr_el1);

	if (!!(m & DBG_MDSCR_SS) == next->user_step)
		return;
	write_sysreg(mdscr_el1, m ^ DBG_MDSCR_SS);
	isb();
}

/* current->user_step is already on or off (freeze.c): MDSCR_EL1 follows it. */
void arch_user_single_step(struct pt_regs *regs, bool on)
{
	regs->pstate = on ? regs->pstate | DBG_SPSR_SS : regs->pstate & ~DBG_SPSR_SS;
	arm64_step_switch(current);
}
