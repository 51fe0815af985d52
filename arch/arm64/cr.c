// SPDX-License-Identifier: MIT
/*
 * Checkpoint/restore, arm64's part: rewinding a system call, checking a
 * frame that came from an image, and the jump a trampoline holds.
 */
#include <pagoda/arch.h>
#include <pagoda/string.h>
#include <asm/arm64.h>

#define PSR_MODE_MASK 0xf
/* The PSTATE bits a program may own: the condition flags (NZCV). */
#define PSR_USER_FLAGS (0xfUL << 28)

/* `svc #0` is four bytes; x0 held the first argument before the result overwrote it. */
void arch_cr_restart_syscall(struct pt_regs *regs, u64 nr, u64 arg0)
{
	regs->pc -= 4;
	regs->regs[0] = arg0;
	regs->regs[8] = nr;
}

u64 arch_cr_user_pc(const struct pt_regs *regs)
{
	return regs->pc;
}

/* EL0t with no exception masked, whatever the image says; user addresses only. */
int arch_cr_regs_check(struct pt_regs *regs, struct arch_user_state *us)
{
	(void)us; /* FPSR and FPCR ignore what they do not define */
	if (regs->pc >= TASK_SIZE || regs->sp >= TASK_SIZE || (regs->pc & 3))
		return -EINVAL;
	regs->pstate &= PSR_USER_FLAGS;
	regs->esr = 0;
	regs->far = 0;
	return 0;
}

/*
 * ldr x16, <literal>; br x16; the literal (8-byte aligned, with a nop
 * before it when needed). x16 is IP0, the register the ABI gives veneers
 * like this one: a callee may clobber it.
 */
unsigned int arch_cr_write_jump(u8 *code, unsigned int room, u64 at, u64 target)
{
	unsigned int lit = (at + 8) & 7 ? 12 : 8; /* where the literal goes */
	u32 insn[3];
	unsigned int n = 0;

	if (room < lit + 8 || (at & 3))
		return 0;
	insn[n++] = 0x58000010u | ((lit / 4) << 5); /* ldr x16, pc + lit */
	insn[n++] = 0xd61f0200u;                     /* br x16 */
	if (lit == 12)
		insn[n++] = 0xd503201fu;             /* nop */
	memcpy(code, insn, n * 4);
	memcpy(code + lit, &target, 8);
	return lit + 8;
}
