// SPDX-License-Identifier: MIT
/*
 * Checkpoint/restore, x86-64's part: rewinding a system call, checking a
 * frame that came from an image, and the jump a trampoline holds.
 */
#include <pagoda/arch.h>
#include <pagoda/string.h>
#include <asm/x86.h>

#define USER_DS (0x20 | 3)
#define USER_CS (0x28 | 3)
/* The flags a program may own (as rt_sigreturn allows): CF PF AF ZF SF TF DF OF AC. */
#define MXCSR_MASK 0xffbfu
#define USER_EFLAGS (0x1 | 0x4 | 0x10 | 0x40 | 0x80 | 0x100 | 0x400 | 0x800 | 0x40000)

/* `syscall` is two bytes; the number goes back in RAX, the arguments were never changed. */
void arch_cr_restart_syscall(struct pt_regs *regs, u64 nr, u64 arg0)
{
	(void)arg0;
	regs->rip -= 2;
	regs->rax = nr;
}

u64 arch_cr_user_pc(const struct pt_regs *regs)
{
	return regs->rip;
}

/*
 * An image is data, so its frame gets user segments and only the flags
 * a program may set (interrupts on, IOPL 0): whatever it says, the
 * process comes back in ring 3. The addresses must be user ones.
 */
int arch_cr_regs_check(struct pt_regs *regs, struct arch_user_state *us)
{
	u32 mxcsr;

	if (regs->rip >= TASK_SIZE || regs->rsp >= TASK_SIZE)
		return -EINVAL;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags = (regs->rflags & USER_EFLAGS) | 0x200 | 0x2;
	regs->vector = 0;
	regs->error_code = 0;
	/* FXRSTOR faults on a reserved MXCSR bit: keep the ones the CPU defines. */
	memcpy(&mxcsr, us->fxsave + 24, 4);
	mxcsr &= MXCSR_MASK;
	memcpy(us->fxsave + 24, &mxcsr, 4);
	return 0;
}

/*
 * movabs $target, %r11; jmp *%r11. R11 is free at any call into the
 * vDSO: the ABI says a callee may clobber it (and `syscall` does).
 */
unsigned int arch_cr_write_jump(u8 *code, unsigned int room, u64 at, u64 target)
{
	static const u8 jmp_r11[3] = { 0x41, 0xff, 0xe3 };

	(void)at;
	if (room < 13)
		return 0;
	code[0] = 0x49;
	code[1] = 0xbb;
	memcpy(code + 2, &target, 8);
	memcpy(code + 10, jmp_r11, 3);
	return 13;
}
