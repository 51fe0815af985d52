// SPDX-License-Identifier: MIT
/*
 * Signal frames on x86-64, in Linux's layout (arch/x86/include/asm/
 * sigframe.h and uapi sigcontext.h), so a libc's handlers and its
 * sa_restorer work unchanged. From the new stack pointer up:
 *
 *	pretcode     the handler's return address: sa_restorer, which
 *	             calls rt_sigreturn (SA_RESTORER is required, as on Linux)
 *	ucontext     uc_flags, uc_link, uc_stack, the sigcontext (every
 *	             register, a pointer to the FP state), uc_sigmask
 *	siginfo      128 bytes
 *	FP state     FXSAVE's 512 bytes, 64-byte aligned
 *
 * The handler starts with rdi = signal, rsi = &siginfo, rdx = &ucontext
 * and a stack aligned as just after a call. rt_sigreturn reads it all back
 * from the stack pointer it is called with, trusting nothing: segments are
 * the user ones whatever the frame says, only the flags a program may
 * change are taken, and MXCSR's reserved bits are cleared (FXRSTOR would
 * fault on them).
 */
#include <pagoda/arch.h>
#include <pagoda/process.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <asm/x86.h>

#define USER_DS (0x20 | 3)
#define USER_CS (0x28 | 3)
/* The flags a program may set: CF PF AF ZF SF TF DF OF AC and the always-one bit. */
#define FIX_EFLAGS (0x1 | 0x4 | 0x10 | 0x40 | 0x80 | 0x100 | 0x400 | 0x800 | 0x40000)
#define UC_SIGCONTEXT_SS 2
#define UC_STRICT_RESTORE_SS 4
#define MXCSR_MASK 0xffbf

struct sigcontext64 {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp;
	u64 rip, eflags;
	u16 cs, gs, fs, ss;
	u64 err, trapno, oldmask, cr2;
	u64 fpstate;
	u64 reserved1[8];
};

struct ucontext64 {
	u64 uc_flags;
	u64 uc_link;
	struct sigstack uc_stack;
	struct sigcontext64 mc;
	u64 sigmask;
};

struct rt_sigframe64 {
	u64 pretcode;
	struct ucontext64 uc;
	u8 info[128];
};

_Static_assert(sizeof(struct sigcontext64) == 256, "Linux's struct sigcontext");
_Static_assert(sizeof(struct ucontext64) == 304, "Linux's struct ucontext (kernel part)");

int arch_setup_rt_frame(struct pt_regs *regs, const struct k_sigaction *ka,
			const struct ksiginfo *info, u64 oldmask, struct arch_user_state *fp,
			u64 alt_top, const struct sigstack *uc_stack)
{
	struct rt_sigframe64 f;
	/* Below the red zone the interrupted code may use, or at the alternate stack's top. */
	u64 sp = alt_top ? alt_top : regs->rsp - 128;
	u64 fpstate, frame;

	if (!(ka->flags & SA_RESTORER) || !ka->restorer)
		return -EINVAL; /* nowhere for the handler to return to */
	sp = (sp - sizeof(fp->fxsave)) & ~63ULL;
	fpstate = sp;
	/* After `call`: rsp + 8 is 16-byte aligned when the handler starts. */
	frame = ((sp - sizeof(f)) & ~15ULL) - 8;
	memset(&f, 0, sizeof(f));
	f.pretcode = ka->restorer;
	f.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	f.uc.uc_stack = *uc_stack;
	f.uc.mc = (struct sigcontext64){
		.r8 = regs->r8, .r9 = regs->r9, .r10 = regs->r10, .r11 = regs->r11,
		.r12 = regs->r12, .r13 = regs->r13, .r14 = regs->r14, .r15 = regs->r15,
		.rdi = regs->rdi, .rsi = regs->rsi, .rbp = regs->rbp, .rbx = regs->rbx,
		.rdx = regs->rdx, .rax = regs->rax, .rcx = regs->rcx, .rsp = regs->rsp,
		.rip = regs->rip, .eflags = regs->rflags,
		.cs = (u16)regs->cs, .ss = (u16)regs->ss,
		.oldmask = oldmask, .fpstate = fpstate,
	};
	f.uc.sigmask = oldmask;
	siginfo_layout(f.info, info);
	if (copy_to_user(fpstate, fp->fxsave, sizeof(fp->fxsave)) ||
	    copy_to_user(frame, &f, sizeof(f)))
		return -EFAULT;
	regs->rsp = frame;
	regs->rip = ka->handler;
	regs->rdi = (u64)info->signo;
	regs->rsi = frame + offsetof(struct rt_sigframe64, info);
	regs->rdx = frame + offsetof(struct rt_sigframe64, uc);
	regs->rax = 0;
	regs->rflags &= ~(u64)(0x100 | 0x400); /* no single-step, direction up */
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	return 0;
}

u64 arch_user_sp(const struct pt_regs *regs)
{
	return regs->rsp;
}

int arch_rt_sigreturn(struct pt_regs *regs, struct arch_user_state *fp, u64 *mask, long *ret,
		      struct sigstack *uc_stack)
{
	/* The handler's ret popped pretcode: the ucontext is at the stack pointer. */
	u64 ucp = regs->rsp;
	struct ucontext64 uc;
	u32 mxcsr;

	if (copy_from_user(&uc, ucp, sizeof(uc)))
		return -EFAULT;
	/* iretq to a non-canonical address would fault in the kernel, not the program. */
	if (uc.mc.rip >= TASK_SIZE)
		return -EFAULT;
	if (uc.mc.fpstate) {
		if (copy_from_user(fp->fxsave, uc.mc.fpstate, sizeof(fp->fxsave)))
			return -EFAULT;
		memcpy(&mxcsr, fp->fxsave + 24, 4);
		mxcsr &= MXCSR_MASK;
		memcpy(fp->fxsave + 24, &mxcsr, 4);
	}
	regs->r8 = uc.mc.r8;
	regs->r9 = uc.mc.r9;
	regs->r10 = uc.mc.r10;
	regs->r11 = uc.mc.r11;
	regs->r12 = uc.mc.r12;
	regs->r13 = uc.mc.r13;
	regs->r14 = uc.mc.r14;
	regs->r15 = uc.mc.r15;
	regs->rdi = uc.mc.rdi;
	regs->rsi = uc.mc.rsi;
	regs->rbp = uc.mc.rbp;
	regs->rbx = uc.mc.rbx;
	regs->rdx = uc.mc.rdx;
	regs->rcx = uc.mc.rcx;
	regs->rsp = uc.mc.rsp;
	regs->rip = uc.mc.rip;
	regs->rflags = (regs->rflags & ~(u64)FIX_EFLAGS) | (uc.mc.eflags & FIX_EFLAGS) | 0x200;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	*mask = uc.sigmask;
	*ret = (long)uc.mc.rax;
	*uc_stack = uc.uc_stack;
	uc_stack->pad = 0;
	return 0;
}
