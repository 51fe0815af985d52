// SPDX-License-Identifier: MIT
/*
 * Signal frames on arm64, in Linux's layout (arch/arm64/kernel/signal.c,
 * uapi asm/sigcontext.h), so a libc's handlers work unchanged. From the
 * new stack pointer up:
 *
 *	siginfo      128 bytes
 *	ucontext     uc_flags, uc_link, uc_stack, uc_sigmask (padded to
 *	             Linux's 1024-bit sigset), then the sigcontext: the fault
 *	             address, x0-x30, sp, pc, pstate, and 4096 bytes of
 *	             records: here one fpsimd_context (V0-V31, FPSR, FPCR)
 *	             and the terminating empty record
 *	frame record x29 and x30 as they were, which x29 points at, so a
 *	             backtrace from the handler goes through
 *
 * The handler starts with x0 = signal, x1 = &siginfo, x2 = &ucontext and
 * x30 = sa_restorer, or without SA_RESTORER (glibc never sets it) the
 * vDSO's __kernel_rt_sigreturn, as Linux does. rt_sigreturn reads
 * it all back from the stack pointer, trusting nothing: the saved PSTATE
 * must be EL0t with no exception masks, and the FP record must be the one
 * it wrote.
 */
#include <pagoda/arch.h>
#include <pagoda/process.h>
#include <pagoda/slab.h>
#include <pagoda/string.h>
#include <pagoda/uaccess.h>
#include <asm/arm64.h>
#include VDSO_OFFSETS /* VDSO_RT_SIGRETURN_OFFSET, made from the vDSO image (user/user.mk) */

#define FPSIMD_MAGIC 0x46508001
#define PSR_MODE_MASK 0xf
#define PSR_DAIF (0xfUL << 6)
/* The PSTATE bits a program may hand back: the condition flags (NZCV). */
#define PSR_USER_FLAGS (0xfUL << 28)

struct fpsimd_record {
	u32 magic, size;
	u32 fpsr, fpcr;
	u64 vregs[64];
};

struct sigcontext64 {
	u64 fault_address;
	u64 regs[31];
	u64 sp, pc, pstate;
	u8 reserved[4096] __attribute__((aligned(16)));
};

struct ucontext64 {
	u64 uc_flags;
	u64 uc_link;
	struct sigstack uc_stack;
	u64 sigmask;
	u8 unused[1024 / 8 - 8];
	struct sigcontext64 mc __attribute__((aligned(16)));
};

struct rt_sigframe64 {
	u8 info[128];
	struct ucontext64 uc;
};

_Static_assert(sizeof(struct fpsimd_record) == 528, "Linux's struct fpsimd_context");
_Static_assert(__builtin_offsetof(struct ucontext64, mc) == 176, "Linux's struct ucontext");
_Static_assert(__builtin_offsetof(struct sigcontext64, reserved) == 288,
	       "Linux's struct sigcontext");

/*
 * Is the vDSO's __kernel_rt_sigreturn still mapped where exec put it? A
 * program may unmap the vDSO; its handlers then have nowhere to return
 * to, and the delivery fails (SIGSEGV) rather than sending the handler's
 * return into whatever the address holds now. (Linux lets the return
 * fault there; the status the parent sees is the same.)
 */
static bool vdso_trampoline_mapped(struct process *p)
{
	u64 at = p->vdso_base + VDSO_RT_SIGRETURN_OFFSET;
	struct vm_area *v = find_vma(p, at);

	return v && v->start <= at && v->name && !strcmp(v->name, "[vdso]");
}

int arch_setup_rt_frame(struct pt_regs *regs, const struct k_sigaction *ka,
			const struct ksiginfo *info, u64 oldmask, struct arch_user_state *fp,
			u64 alt_top, const struct sigstack *uc_stack)
{
	struct rt_sigframe64 *f = kzalloc(sizeof(*f), GFP_KERNEL); /* 4.7 KiB: not on the stack */
	struct fpsimd_record rec = { .magic = FPSIMD_MAGIC, .size = sizeof(rec) };
	u64 record, frame, ret, fr[2] = { regs->regs[29], regs->regs[30] };
	struct process *p = current_process();
	int err;

	if (!f)
		return -ENOMEM;
	if ((ka->flags & SA_RESTORER) && ka->restorer) {
		ret = ka->restorer;
	} else if (p && p->vdso_base && vdso_trampoline_mapped(p)) {
		ret = p->vdso_base + VDSO_RT_SIGRETURN_OFFSET;
	} else {
		kfree(f);
		return -EINVAL; /* nowhere for the handler to return to: the vDSO is unmapped */
	}
	record = ((alt_top ? alt_top : regs->sp) - sizeof(fr)) & ~15ULL;
	frame = (record - sizeof(*f)) & ~15ULL;
	rec.fpsr = (u32)fp->fpsr;
	rec.fpcr = (u32)fp->fpcr;
	memcpy(rec.vregs, fp->vregs, sizeof(rec.vregs));
	siginfo_layout(f->info, info);
	f->uc.uc_stack = *uc_stack;
	f->uc.sigmask = oldmask;
	f->uc.mc.fault_address = info->addr;
	memcpy(f->uc.mc.regs, regs->regs, sizeof(f->uc.mc.regs));
	f->uc.mc.sp = regs->sp;
	f->uc.mc.pc = regs->pc;
	f->uc.mc.pstate = regs->pstate;
	memcpy(f->uc.mc.reserved, &rec, sizeof(rec)); /* the terminator after it: zeroes */
	err = copy_to_user(frame, f, sizeof(*f)) || copy_to_user(record, fr, sizeof(fr));
	kfree(f);
	if (err)
		return -EFAULT;
	regs->sp = frame;
	regs->pc = ka->handler;
	regs->regs[0] = (u64)info->signo;
	regs->regs[1] = frame + __builtin_offsetof(struct rt_sigframe64, info);
	regs->regs[2] = frame + __builtin_offsetof(struct rt_sigframe64, uc);
	regs->regs[29] = record;
	regs->regs[30] = ret;
	return 0;
}

u64 arch_user_sp(const struct pt_regs *regs)
{
	return regs->sp;
}

int arch_rt_sigreturn(struct pt_regs *regs, struct arch_user_state *fp, u64 *mask, long *retval,
		      struct sigstack *uc_stack)
{
	struct rt_sigframe64 *f = kmalloc(sizeof(*f), GFP_KERNEL);
	struct fpsimd_record rec;
	int ret = 0;

	if (!f)
		return -ENOMEM;
	if (copy_from_user(f, regs->sp, sizeof(*f)))
		ret = -EFAULT;
	memcpy(&rec, f->uc.mc.reserved, sizeof(rec));
	if (!ret && ((f->uc.mc.pstate & PSR_MODE_MASK) || (f->uc.mc.pstate & PSR_DAIF) ||
		     rec.magic != FPSIMD_MAGIC || rec.size != sizeof(rec) ||
		     f->uc.mc.pc >= TASK_SIZE))
		ret = -EFAULT;
	if (!ret) {
		memcpy(regs->regs, f->uc.mc.regs, sizeof(regs->regs));
		regs->sp = f->uc.mc.sp;
		regs->pc = f->uc.mc.pc;
		regs->pstate = f->uc.mc.pstate & PSR_USER_FLAGS;
		fp->fpsr = rec.fpsr;
		fp->fpcr = rec.fpcr;
		memcpy(fp->vregs, rec.vregs, sizeof(fp->vregs));
		*mask = f->uc.sigmask;
		*retval = (long)regs->regs[0];
		*uc_stack = f->uc.uc_stack;
		uc_stack->pad = 0;
	}
	kfree(f);
	return ret;
}
