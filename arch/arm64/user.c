// SPDX-License-Identifier: MIT
/*
 * User mode on arm64: the first eret to EL0, system calls (`svc #0`: the
 * number in x8, arguments in x0-x5, the result in x0, as Linux), faults
 * taken at EL0, and the checked copies to and from user memory.
 *
 * The copies use the unprivileged loads and stores (LDTR/STTR): they
 * check EL0's permissions, so even a kernel address that slipped past
 * access_ok() faults instead of being read, and they keep working when
 * PAN forbids ordinary kernel accesses to user pages.
 */
#include <pagoda/arch.h>
#include <pagoda/cr.h>
#include <pagoda/extable.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/smp.h>
#include <pagoda/task.h>
#include <asm/arm64.h>

#define CPACR_FPEN_NONE (3UL << 20) /* FP/SIMD at EL0 and EL1 not trapped */

void arm64_fpsimd_save(u64 *state);
void arm64_fpsimd_load(const u64 *state);

/*
 * Each CPU: let EL0 (and the save and load below, at EL1) use FP/SIMD.
 * The kernel's C never does, so the registers hold the last user task's.
 */
void arm64_fpsimd_cpu_init(void)
{
	write_sysreg(cpacr_el1, read_sysreg(cpacr_el1) | CPACR_FPEN_NONE);
	isb();
}

void arch_user_state_init(struct arch_user_state *s)
{
	/* FPCR 0: round to nearest, no traps, no flush-to-zero; as Linux starts a program. */
	*s = (struct arch_user_state){ 0 };
}

void arch_user_state_save(struct arch_user_state *s)
{
	arm64_fpsimd_save(s->vregs);
	s->tpidr_el0 = read_sysreg(tpidr_el0);
}

void arch_user_state_load(const struct arch_user_state *s)
{
	arm64_fpsimd_load(s->vregs);
	write_sysreg(tpidr_el0, s->tpidr_el0);
}

void arch_user_state_set_tls(struct arch_user_state *s, u64 tp)
{
	s->tpidr_el0 = tp;
}

void arch_set_tls(u64 tp)
{
	write_sysreg(tpidr_el0, tp);
}

const unsigned int arch_pt_regs_size = sizeof(struct pt_regs);

/* arm64's vDSO has no getcpu (nor has Linux's). */
bool arch_vdso_cpu_number_ok(void)
{
	return false;
}

void arch_regs_set_return(struct pt_regs *regs, u64 v)
{
	regs->regs[0] = v;
}

void arch_regs_set_sp(struct pt_regs *regs, u64 sp)
{
	regs->sp = sp;
}

extern char ret_to_user_or_kernel[];

/*
 * Lay regs out as entry.S's frame at the top of this task's kernel stack
 * and leave through its exit path, which restores every register and
 * erets. The copy runs after SP has moved: the C frames it overwrites are
 * never returned to.
 */
__noreturn void arch_enter_user_regs(const struct pt_regs *regs)
{
	struct task *t = arch_current();
	u64 frame = (u64)t->stack + t->stack_size - sizeof(struct pt_regs);

	arch_irq_disable();
	__asm__ volatile("mov sp, %[frame]\n\t"
			 "mov x9, %[frame]\n\t"
			 "mov x10, %[src]\n\t"
			 "mov x11, %[n]\n"
			 "1:\tldp x12, x13, [x10], #16\n\t"
			 "stp x12, x13, [x9], #16\n\t"
			 "subs x11, x11, #2\n\t"
			 "b.ne 1b\n\t"
			 "b ret_to_user_or_kernel"
			 :
			 : [frame] "r"(frame), [src] "r"(regs), [n] "i"(sizeof(struct pt_regs) / 8)
			 : "x9", "x10", "x11", "x12", "x13", "memory");
	__builtin_unreachable();
}

__noreturn void arch_enter_user(u64 pc, u64 sp, u64 arg)
{
	struct task *t = arch_current();
	u64 top = (u64)t->stack + t->stack_size;

	arch_irq_disable();
	write_sysreg(sp_el0, sp);
	write_sysreg(elr_el1, pc);
	write_sysreg(spsr_el1, 0); /* EL0t, all interrupts unmasked */
	__asm__ volatile("mov sp, %[top]\n\t"
			 "mov x0, %[arg]\n\t"
			 "mov x1, xzr\n\tmov x2, xzr\n\tmov x3, xzr\n\tmov x4, xzr\n\t"
			 "mov x5, xzr\n\tmov x6, xzr\n\tmov x7, xzr\n\tmov x8, xzr\n\t"
			 "mov x9, xzr\n\tmov x10, xzr\n\tmov x11, xzr\n\tmov x12, xzr\n\t"
			 "mov x13, xzr\n\tmov x14, xzr\n\tmov x15, xzr\n\tmov x16, xzr\n\t"
			 "mov x17, xzr\n\tmov x18, xzr\n\tmov x19, xzr\n\tmov x20, xzr\n\t"
			 "mov x21, xzr\n\tmov x22, xzr\n\tmov x23, xzr\n\tmov x24, xzr\n\t"
			 "mov x25, xzr\n\tmov x26, xzr\n\tmov x27, xzr\n\tmov x28, xzr\n\t"
			 "mov x29, xzr\n\tmov x30, xzr\n\t"
			 "eret"
			 :
			 : [top] "r"(top), [arg] "r"(arg)
			 : "memory");
	__builtin_unreachable();
}

/*
 * Thirty-two bytes a step while 32 remain (four LDTRs, two STPs), then
 * eight (LDTR/STTR), then byte by byte (LDTRB/STTRB) for the tail.
 * Under TCG every instruction costs about the same, so the wide step
 * matters: bytes alone cost four instructions a byte and made arm64's
 * pipe bandwidth 0.43 of Linux's; eight-byte steps, six instructions per
 * eight bytes, still left it at 0.60-0.84 (bench mm); the 32-byte step
 * takes three (Linux's copy template moves 64 bytes a step likewise).
 *
 * A fault anywhere in a wide step goes on in the byte loop from the
 * step's start: the step's loads come before its stores (from user), or
 * its stores rewrite what an earlier one of them already wrote (to
 * user), so going over those bytes again changes nothing, and the byte
 * loop copies up to the byte that faults: the count left is exact, as
 * with bytes alone (Linux's short counts). Unaligned words are fine:
 * user memory is normal memory and SCTLR_EL1.A is clear.
 */
unsigned long arch_copy_from_user(void *to, const void *from, unsigned long n)
{
	__asm__ volatile("cmp %[n], #32\n\t"
			 "b.lo 20f\n"
			 "10:\tldtr x9, [%[from]]\n"
			 "11:\tldtr x10, [%[from], #8]\n"
			 "12:\tldtr x11, [%[from], #16]\n"
			 "13:\tldtr x12, [%[from], #24]\n\t"
			 "stp x9, x10, [%[to]]\n\t"
			 "stp x11, x12, [%[to], #16]\n\t"
			 "add %[from], %[from], #32\n\t"
			 "add %[to], %[to], #32\n\t"
			 "sub %[n], %[n], #32\n\t"
			 "cmp %[n], #32\n\t"
			 "b.hs 10b\n"
			 "20:\tcmp %[n], #8\n\t"
			 "b.lo 2f\n"
			 "1:\tldtr x9, [%[from]]\n\t"
			 "str x9, [%[to]], #8\n\t"
			 "add %[from], %[from], #8\n\t"
			 "sub %[n], %[n], #8\n\t"
			 "cmp %[n], #8\n\t"
			 "b.hs 1b\n"
			 "2:\tcbz %[n], 4f\n"
			 "3:\tldtrb w9, [%[from]]\n\t"
			 "strb w9, [%[to]], #1\n\t"
			 "add %[from], %[from], #1\n\t"
			 "subs %[n], %[n], #1\n\t"
			 "b.ne 3b\n"
			 "4:\n\t" EXTABLE(10b, 2b) EXTABLE(11b, 2b) EXTABLE(12b, 2b)
			 EXTABLE(13b, 2b) EXTABLE(1b, 2b) EXTABLE(3b, 4b)
			 : [to] "+r"(to), [from] "+r"(from), [n] "+r"(n)
			 :
			 : "x9", "x10", "x11", "x12", "memory", "cc");
	return n;
}

unsigned long arch_copy_to_user(void *to, const void *from, unsigned long n)
{
	__asm__ volatile("cmp %[n], #32\n\t"
			 "b.lo 20f\n"
			 "19:\tldp x9, x10, [%[from]]\n\t"
			 "ldp x11, x12, [%[from], #16]\n"
			 "10:\tsttr x9, [%[to]]\n"
			 "11:\tsttr x10, [%[to], #8]\n"
			 "12:\tsttr x11, [%[to], #16]\n"
			 "13:\tsttr x12, [%[to], #24]\n\t"
			 "add %[from], %[from], #32\n\t"
			 "add %[to], %[to], #32\n\t"
			 "sub %[n], %[n], #32\n\t"
			 "cmp %[n], #32\n\t"
			 "b.hs 19b\n"
			 "20:\tcmp %[n], #8\n\t"
			 "b.lo 2f\n"
			 "0:\tldr x9, [%[from]]\n"
			 "1:\tsttr x9, [%[to]]\n\t"
			 "add %[from], %[from], #8\n\t"
			 "add %[to], %[to], #8\n\t"
			 "sub %[n], %[n], #8\n\t"
			 "cmp %[n], #8\n\t"
			 "b.hs 0b\n"
			 "2:\tcbz %[n], 4f\n"
			 "5:\tldrb w9, [%[from]], #1\n"
			 "3:\tsttrb w9, [%[to]]\n\t"
			 "add %[to], %[to], #1\n\t"
			 "subs %[n], %[n], #1\n\t"
			 "b.ne 5b\n"
			 "4:\n\t" EXTABLE(10b, 2b) EXTABLE(11b, 2b) EXTABLE(12b, 2b)
			 EXTABLE(13b, 2b) EXTABLE(1b, 2b) EXTABLE(3b, 4b)
			 : [to] "+r"(to), [from] "+r"(from), [n] "+r"(n)
			 :
			 : "x9", "x10", "x11", "x12", "memory", "cc");
	return n;
}

/* The signal Linux sends for each exception class taken at EL0. */
static int user_signal(u64 ec)
{
	switch (ec) {
	case EC_UNKNOWN:
		return SIGILL;
	case 0x22: case 0x26: /* PC or SP alignment */
		return SIGBUS;
	case 0x32: case 0x3c: /* software step, BRK */
		return SIGTRAP;
	default:
		return SIGSEGV;
	}
}

/* The si_code and si_addr Linux's arm64 fault handlers give. */
static int user_si_code(const struct pt_regs *regs, u64 ec, u64 *addr)
{
	u64 fsc = regs->esr & 0x3f;

	*addr = regs->pc;
	switch (ec) {
	case 0x20: case 0x24: /* instruction or data abort from EL0 */
		*addr = regs->far;
		return fsc >= 0x0c && fsc <= 0x0f ? 2 : 1; /* permission: SEGV_ACCERR, else MAPERR */
	case 0x22: case 0x26:
		*addr = regs->far;
		return 1; /* BUS_ADRALN */
	case 0x32:
		return 2; /* TRAP_TRACE */
	case 0x3c:
		return 1; /* TRAP_BRKPT */
	case EC_UNKNOWN:
		return 1; /* ILL_ILLOPC */
	default:
		return 0;
	}
}

/* A synchronous exception from EL0: a system call, a fault's handler, or the end of the process. */
void arm64_user_sync(struct pt_regs *regs, const char *name)
{
	u64 ec = ESR_EC(regs->esr), addr;
	int sig;

	if (ec == EC_SVC64) {
		arch_current()->uregs = regs;
		arch_irq_enable();
		regs->regs[0] = (u64)syscall_dispatch(regs->regs[8], regs->regs);
		signal_deliver(regs);
		arch_irq_disable();
		return;
	}
	if (arm64_user_addr_fault(regs, true))
		return;
	/* The kernel's own step (step.c): on until out of the vDSO, then the freeze stops it. */
	if (ec == 0x32 && cr_step_trap(regs)) {
		signal_deliver(regs);
		return;
	}
	sig = user_signal(ec);
	if (signal_fault(regs, sig, user_si_code(regs, ec, &addr), addr))
		return; /* back to EL0, into the program's handler */
	pr_err("%s[%d]: unhandled %s (ESR %#llx) at %llx pc %llx sp %llx: signal %d\n",
	       arch_current()->name, arch_current()->pid, name,
	       (unsigned long long)regs->esr, (unsigned long long)regs->far,
	       (unsigned long long)regs->pc, (unsigned long long)regs->sp, sig);
	arm64_dump_regs(regs);
	process_exit_signal(sig);
}
