// SPDX-License-Identifier: MIT
/*
 * Exceptions: every vector slot of entry.S lands in arm64_exception(),
 * which either resumes at a fixup (an access the code expected might
 * fault, listed in the exception table) or reports everything a student
 * needs to find the bug, as on x86: the exception class decoded from
 * ESR_EL1, the faulting address (FAR_EL1), where it happened (ELR_EL1), all
 * registers and a symbolized stack trace, then panics.
 */
#include <pagoda/arch.h>
#include <pagoda/extable.h>
#include <pagoda/ksyms.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/task.h>
#include <asm/arm64.h>

extern char boot_stack[], boot_stack_top[];

static const char *const slot_names[16] = {
	"synchronous (EL1, SP_EL0)", "IRQ (EL1, SP_EL0)", "FIQ (EL1, SP_EL0)",
	"SError (EL1, SP_EL0)", "synchronous", "IRQ", "FIQ", "SError",
	"synchronous (EL0)", "IRQ (EL0)", "FIQ (EL0)", "SError (EL0)",
	"synchronous (EL0 AArch32)", "IRQ (EL0 AArch32)", "FIQ (EL0 AArch32)",
	"SError (EL0 AArch32)",
};

/* ESR_EL1.EC, the exception class: what kind of synchronous exception. */
static const char *ec_name(u64 ec)
{
	switch (ec) {
	case 0x00: return "Undefined instruction";
	case 0x01: return "WFI/WFE trapped";
	case 0x07: return "FP/SIMD access trapped";
	case 0x0e: return "Illegal execution state";
	case 0x15: return "SVC (system call)";
	case 0x16: return "HVC";
	case 0x17: return "SMC";
	case 0x18: return "MSR/MRS/system instruction trapped";
	case 0x20: return "Instruction Abort (EL0)";
	case 0x21: return "Instruction Abort";
	case 0x22: return "PC alignment fault";
	case 0x24: return "Data Abort (EL0)";
	case 0x25: return "Data Abort";
	case 0x26: return "SP alignment fault";
	case 0x2c: return "FP exception";
	case 0x2f: return "SError";
	case 0x30: case 0x31: return "Breakpoint";
	case 0x32: case 0x33: return "Software step";
	case 0x34: case 0x35: return "Watchpoint";
	case 0x3c: return "BRK instruction";
	default: return "Unknown exception class";
	}
}

/* The fault status code of an abort (ISS bits 5:0). */
static const char *fsc_name(u64 fsc)
{
	switch (fsc & 0x3c) {
	case 0x00: return "address size fault";
	case 0x04: return "translation fault";
	case 0x08: return "access flag fault";
	case 0x0c: return "permission fault";
	}
	switch (fsc) {
	case 0x10: return "synchronous external abort";
	case 0x21: return "alignment fault";
	case 0x30: return "TLB conflict abort";
	default: return "other fault";
	}
}

static bool is_abort(u64 ec)
{
	return ec == 0x20 || ec == 0x21 || ec == 0x24 || ec == 0x25;
}

/*
 * A semihosting call (SYS_* number in x0, parameter block in x1): under
 * QEMU with -semihosting the emulator carries it out; elsewhere HLT is an
 * undefined instruction and the fixup turns it into -EFAULT.
 */
long arm64_semihost(u64 op, const void *block)
{
	register u64 x0 __asm__("x0") = op;
	register const void *x1 __asm__("x1") = block;
	long err;

	__asm__ volatile("mov %[err], #0\n"
			 "1:\thlt #0xf000\n\t"
			 "b 3f\n"
			 "2:\tmov %[err], %[efault]\n"
			 "3:\n\t" EXTABLE(1b, 2b)
			 : [err] "=&r"(err), "+r"(x0)
			 : "r"(x1), [efault] "i"(-EFAULT)
			 : "memory");
	return err ? err : (long)x0;
}

/* ---- stack traces ------------------------------------------------------ */

static bool on_stack(u64 p, u64 lo, u64 hi)
{
	return p >= lo && p + 16 <= hi;
}

/* The boot stack, or the running thread's (vmalloc'ed) one. */
bool arch_on_kernel_stack(u64 p)
{
	struct task *t = arch_current();

	if (on_stack(p, (u64)boot_stack, (u64)boot_stack_top))
		return true;
	return t && t->stack && on_stack(p, (u64)t->stack, (u64)t->stack + t->stack_size);
}

void arm64_dump_regs(const struct pt_regs *r)
{
	printk(KERN_EMERG "PC: %016llx %pS\n", (unsigned long long)r->pc, (void *)r->pc);
	printk(KERN_EMERG "LR: %016llx %pS\n", (unsigned long long)r->regs[30],
	       (void *)r->regs[30]);
	printk(KERN_EMERG "SP: %016llx PSTATE: %08llx\n", (unsigned long long)r->sp,
	       (unsigned long long)r->pstate);
	for (int i = 0; i < 30; i += 3) /* x30 is the LR, above */
		printk(KERN_EMERG "X%02d: %016llx X%02d: %016llx X%02d: %016llx\n", i,
		       (unsigned long long)r->regs[i], i + 1, (unsigned long long)r->regs[i + 1],
		       i + 2, (unsigned long long)r->regs[i + 2]);
	printk(KERN_EMERG "ESR: %016llx FAR: %016llx SCTLR: %016llx\n",
	       (unsigned long long)r->esr, (unsigned long long)r->far,
	       (unsigned long long)read_sysreg(sctlr_el1));
	printk(KERN_EMERG "TTBR0: %016llx TTBR1: %016llx\n",
	       (unsigned long long)read_sysreg(ttbr0_el1),
	       (unsigned long long)read_sysreg(ttbr1_el1));
}

static void describe_abort(u64 esr, u64 far)
{
	u64 ec = ESR_EC(esr), fsc = esr & 0x3f;
	bool data = ec == EC_DABT_CUR || ec == EC_DABT_LOW;
	bool far_valid = !(esr & (1 << 10)); /* FnV */

	printk(KERN_EMERG "%s: %s (level %llu) at address %016llx (%s%s)\n",
	       !data ? "instruction fetch" : (esr & (1 << 6)) ? "write" : "read",
	       fsc_name(fsc), (unsigned long long)(fsc & 3), (unsigned long long)far,
	       far_valid ? "kernel" : "address not valid",
	       far_valid && far < 4096 ? ", a NULL pointer dereference" : "");
}

void arm64_irq(void);

bool arm64_user_addr_fault(struct pt_regs *regs, bool user)
{
	u64 ec = ESR_EC(regs->esr), fsc = regs->esr & 0x3f;
	bool data = ec == EC_DABT_CUR || ec == EC_DABT_LOW;
	unsigned int flags;
	int r, code;

	if (!(data || ec == EC_IABT_LOW) || (regs->esr & (1 << 10)) /* FnV: no address */)
		return false;
	/* Translation, access flag and permission faults; not alignment or external aborts. */
	if ((fsc & 0x3c) != 0x04 && (fsc & 0x3c) != 0x08 && (fsc & 0x3c) != 0x0c)
		return false;
	if (regs->far >= TASK_SIZE || (!user && !search_extable(regs->pc)))
		return false;
	/* WnR, except for cache maintenance (CM), which reads as a write. */
	flags = (data && (regs->esr & (1 << 6)) && !(regs->esr & (1 << 8)) ?
		 FAULT_FLAG_WRITE : 0) | (data ? 0 : FAULT_FLAG_INSTRUCTION);
	/* Interrupts as the faulting code had them: it may take a while. */
	if (user || !(regs->pstate & (1 << 7)))
		arch_irq_enable();
	r = user_page_fault(regs->far, flags, user, &code);
	if (user && r == FAULT_DONE)
		signal_deliver(regs); /* a kill or a signal that came meanwhile */
	arch_irq_disable();
	/* The area decides MAPERR or ACCERR, not whether a page was there. */
	return r == FAULT_DONE ||
	       (user && signal_fault(regs, r == FAULT_SIGBUS ? SIGBUS : SIGSEGV, code, regs->far));
}

void arm64_exception(struct pt_regs *regs, u64 slot)
{
	u64 ec = ESR_EC(regs->esr);
	bool sync = (slot & 3) == VEC_SYNC;
	const char *name = sync ? ec_name(ec) : slot_names[slot & 15];
	const struct exception_table_entry *fix;

	/* The kernel runs on SP_EL1 with IRQs: slot 5 is the one that comes. */
	if (slot == 4 + VEC_IRQ || slot == 8 + VEC_IRQ) {
		this_cpu()->irq_from_user = slot == 8 + VEC_IRQ;
		arm64_irq();
		/* Back to EL0: a process killed meanwhile ends here, a pending handler runs. */
		if (slot == 8 + VEC_IRQ)
			signal_deliver(regs);
		return;
	}
	if (slot == 8 + VEC_SYNC) {
		arm64_user_sync(regs, name);
		return;
	}
	/* A copy to or from user memory: the page may just not be there yet. */
	if (sync && arm64_user_addr_fault(regs, false))
		return;
	fix = sync ? search_extable(regs->pc) : NULL;
	if (fix) {
		last_fixed_fault = (struct fault_record){
			.vector = (int)ec, .name = name, .error_code = regs->esr,
			.address = is_abort(ec) ? regs->far : 0, .pc = regs->pc,
			.count = last_fixed_fault.count + 1,
		};
		printk(KERN_DEBUG "fault: %s at %pS (addr %llx), expected: fixed up\n",
		       name, (void *)regs->pc, (unsigned long long)last_fixed_fault.address);
		regs->pc = fix->fixup;
		return;
	}
	printk(KERN_EMERG "------------[ CPU exception ]------------\n");
	printk(KERN_EMERG "%s exception at EL1: %s (ESR %#llx: EC %#llx, ISS %#llx)\n",
	       slot_names[slot & 15], name, (unsigned long long)regs->esr,
	       (unsigned long long)ec, (unsigned long long)(regs->esr & 0x1ffffff));
	if (sync && is_abort(ec))
		describe_abort(regs->esr, regs->far);
	arm64_dump_regs(regs);
	printk(KERN_EMERG "Call trace:\n");
	print_stack_frame(regs->pc, NULL);
	walk_stack_frames(regs->regs[29], print_stack_frame, NULL);
	panic("fatal exception %s at %pS", name, (void *)regs->pc);
}
