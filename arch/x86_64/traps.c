// SPDX-License-Identifier: MIT
/*
 * CPU exceptions: the GDT and TSS they need, the IDT, and the handler that
 * either resumes at a fixup (an access the code expected might fault, listed
 * in the exception table) or reports everything a student needs to find the
 * bug (name, error code, faulting address, registers, a symbolized stack
 * trace) and panics.
 */
#include <pagoda/arch.h>
#include <pagoda/cr.h>
#include <pagoda/extable.h>
#include <pagoda/ksyms.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/sched.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <asm/x86.h>

/*
 * The GDT's order is the one `syscall`/`sysret` dictate (STAR): kernel code
 * and data, then a 32-bit user code slot, user data and 64-bit user code.
 */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define TSS_SEL 0x30

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3, iomap_base;
} __packed;

struct idt_gate {
	u16 off_lo, sel;
	u8 ist, type_attr;
	u16 off_mid;
	u32 off_hi, zero;
} __packed;

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

/* Each CPU has its own GDT and TSS: the TSS descriptor's busy bit and the
 * double-fault stack must not be shared. The IDT is shared. */
static u64 gdt[NR_CPUS][8] __aligned(16);
static struct tss tss[NR_CPUS] __aligned(16);
static struct idt_gate idt[256] __aligned(16);
/* A separate stack for double faults, so a blown stack still reports. */
#define DF_STACK_SIZE 8192
static u8 df_stack[NR_CPUS][DF_STACK_SIZE] __aligned(16);

extern const u64 exception_stubs[256];
extern char boot_stack[], boot_stack_top[];

static const char *const exc_names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint",
	"#OF overflow", "#BR bound range", "#UD invalid opcode",
	"#NM device not available", "#DF double fault",
	"coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault",
	"#GP general protection", "#PF page fault", "reserved",
	"#MF x87 floating point", "#AC alignment check", "#MC machine check",
	"#XM SIMD floating point", "#VE virtualization", "#CP control protection",
	"reserved", "reserved", "reserved", "reserved", "reserved", "reserved",
	"#HV hypervisor injection", "#VC VMM communication", "#SX security",
	"reserved",
};

static void gdt_load(unsigned int cpu)
{
	u64 *g = gdt[cpu];
	struct tss *t = &tss[cpu];
	u64 base = (u64)t, limit = sizeof(*t) - 1;
	struct desc_ptr p = { sizeof(gdt[cpu]) - 1, (u64)g };

	g[1] = 0x00af9a000000ffffULL; /* kernel code, 64-bit */
	g[2] = 0x00cf92000000ffffULL; /* kernel data */
	g[3] = 0x00cffa000000ffffULL; /* user code, 32-bit: unused, sysret's anchor */
	g[4] = 0x00cff2000000ffffULL; /* user data (USER_DS) */
	g[5] = 0x00affa000000ffffULL; /* user code, 64-bit (USER_CS) */
	g[6] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
	       (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	g[7] = base >> 32;
	t->ist[0] = (u64)df_stack[cpu] + DF_STACK_SIZE;
	t->iomap_base = sizeof(*t);

	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w2, %%ds\n\t"
			 "movw %w2, %%es\n\t"
			 "movw %w2, %%ss\n\t"
			 "ltr %w3"
			 :
			 : "m"(p), "i"(KERNEL_CS), "r"(KERNEL_DS), "r"(TSS_SEL)
			 : "rax", "memory");
}

void gdt_init(void)
{
	gdt_load(0);
}

/* Where an interrupt from user mode puts its frame: the task's stack top. */
void x86_set_kernel_stack(unsigned int cpu, u64 top)
{
	tss[cpu].rsp[0] = top;
}

static void idt_load(void)
{
	struct desc_ptr p = { sizeof(idt) - 1, (u64)idt };

	__asm__ volatile("lidt %0" ::"m"(p));
}

/* A secondary CPU's descriptor tables (the IDT is already built). */
void x86_cpu_tables_init(unsigned int cpu)
{
	gdt_load(cpu);
	idt_load();
	x86_user_cpu_init(cpu);
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++) {
		u64 h = exception_stubs[v];

		idt[v] = (struct idt_gate){
			.off_lo = h & 0xffff, .sel = KERNEL_CS,
			.ist = v == 8 ? 1 : 0, .type_attr = 0x8e, /* interrupt gate */
			.off_mid = (h >> 16) & 0xffff, .off_hi = h >> 32,
		};
	}
	idt_load();
}

/* ---- stack traces ------------------------------------------------------ */

/* The boot and double-fault stacks, or the running thread's. */
bool arch_on_kernel_stack(u64 p)
{
	u64 lo, hi;

	if ((p >= (u64)boot_stack && p + 16 <= (u64)boot_stack_top) ||
	    (p >= (u64)df_stack && p + 16 <= (u64)df_stack + sizeof(df_stack)))
		return true;
	if (!x86_percpu_ready)
		return false;
	current_stack_bounds(&lo, &hi);
	return p >= lo && p + 16 <= hi;
}

/* The general registers three to a line, in the order Linux's __show_regs() prints them. */
#define GPR(name, field) { name, offsetof(struct pt_regs, field) / sizeof(u64) }
static const struct {
	char name[4];
	u8 slot; /* in pt_regs, counted in u64s */
} gprs[] = {
	GPR("RAX", rax), GPR("RBX", rbx), GPR("RCX", rcx),
	GPR("RDX", rdx), GPR("RSI", rsi), GPR("RDI", rdi),
	GPR("RBP", rbp), GPR("R08", r8), GPR("R09", r9),
	GPR("R10", r10), GPR("R11", r11), GPR("R12", r12),
	GPR("R13", r13), GPR("R14", r14), GPR("R15", r15),
};

static void dump_regs(const struct pt_regs *r)
{
	const u64 *slots = (const u64 *)r;

	printk(KERN_EMERG "RIP: %04llx:%016llx %pS\n", (unsigned long long)r->cs,
	       (unsigned long long)r->rip, (void *)r->rip);
	printk(KERN_EMERG "RSP: %04llx:%016llx EFLAGS: %08llx\n",
	       (unsigned long long)r->ss, (unsigned long long)r->rsp,
	       (unsigned long long)r->rflags);
	for (size_t i = 0; i < ARRAY_SIZE(gprs); i += 3)
		printk(KERN_EMERG "%s: %016llx %s: %016llx %s: %016llx\n",
		       gprs[i].name, (unsigned long long)slots[gprs[i].slot],
		       gprs[i + 1].name, (unsigned long long)slots[gprs[i + 1].slot],
		       gprs[i + 2].name, (unsigned long long)slots[gprs[i + 2].slot]);
	printk(KERN_EMERG "CR0: %016llx CR2: %016llx CR3: %016llx CR4: %016llx\n",
	       (unsigned long long)read_cr0(), (unsigned long long)read_cr2(),
	       (unsigned long long)read_cr3(), (unsigned long long)read_cr4());
}

static void describe_page_fault(u64 err, u64 addr)
{
	printk(KERN_EMERG "%s %s at address %016llx (%s%s%s)\n",
	       err & 16 ? "instruction fetch" : err & 2 ? "write" : "read",
	       err & 1 ? "protection violation" : "of a not-present page",
	       (unsigned long long)addr, err & 4 ? "user" : "kernel",
	       err & 8 ? ", reserved bit set" : "",
	       addr < 4096 ? ", a NULL pointer dereference" : "");
}

/* The signal Linux sends for each exception taken in user mode. */
static int user_signal(u64 vec)
{
	switch (vec) {
	case 0: case 16: case 19:
		return SIGFPE;
	case 1: case 3:
		return SIGTRAP;
	case 6:
		return SIGILL;
	case 17:
		return SIGBUS;
	default:
		return SIGSEGV;
	}
}

/* The si_code and si_addr Linux's trap handlers give each exception's signal. */
static int user_si_code(const struct pt_regs *regs, u64 cr2, u64 *addr)
{
	*addr = regs->rip;
	switch (regs->vector) {
	case 0:
		return 1; /* FPE_INTDIV */
	case 1:
		return 2; /* TRAP_TRACE: single-step (TF) */
	case 6:
		return 2; /* ILL_ILLOPN */
	case 14:
		*addr = cr2;
		return regs->error_code & 1 ? 2 : 1; /* SEGV_ACCERR : SEGV_MAPERR */
	case 17:
		return 1; /* BUS_ADRALN */
	default:
		*addr = 0;
		return 0x80; /* SI_KERNEL: #GP, int3 and the rest */
	}
}

/*
 * A user program faulted: its handler for the signal runs if it has one
 * (signal_fault()); else report it the way Linux's show_signal_msg()
 * does, with the registers, and end that process only.
 */
static void user_fault(struct pt_regs *regs, const char *name, u64 cr2)
{
	int sig = user_signal(regs->vector);
	u64 addr;
	int code = user_si_code(regs, cr2, &addr);

	if (signal_fault(regs, sig, code, addr))
		return; /* back to user mode, into the handler */

	pr_err("%s[%d]: %s (%s) at %llx ip %llx sp %llx error %llx\n", current->name,
	       current->pid, sig == SIGSEGV ? "segfault" : "fatal trap", name,
	       (unsigned long long)cr2, (unsigned long long)regs->rip,
	       (unsigned long long)regs->rsp, (unsigned long long)regs->error_code);
	if (regs->vector == 14)
		describe_page_fault(regs->error_code, cr2);
	dump_regs(regs);
	process_exit_signal(sig);
}

/*
 * A page fault on a user address: demand paging, a stack growing, or a
 * signal (mm/memory.c). From the kernel only at an instruction that may
 * fault (a copy to or from user memory); anything else is a kernel bug and
 * goes on to the report. True when handled: retry, or a handler runs.
 */
static bool x86_user_addr_fault(struct pt_regs *regs, u64 cr2)
{
	bool user = regs->cs & 3;
	u64 err = regs->error_code;
	unsigned int flags = (err & 2 ? FAULT_FLAG_WRITE : 0) |
			     (err & 16 ? FAULT_FLAG_INSTRUCTION : 0);
	int r, code;

	if (cr2 >= TASK_SIZE || (err & 8) || (!user && !search_extable(regs->rip)))
		return false;
	/* Interrupts as the faulting code had them: it may take a while. */
	if (user || (regs->rflags & (1 << 9)))
		arch_irq_enable();
	r = user_page_fault(cr2, flags, user, &code);
	if (user && r == FAULT_DONE)
		signal_deliver(regs); /* a kill or a signal that came meanwhile */
	arch_irq_disable();
	/* The area decides MAPERR or ACCERR, not whether a page was there. */
	return r == FAULT_DONE ||
	       (user && signal_fault(regs, r == FAULT_SIGBUS ? SIGBUS : SIGSEGV, code, cr2));
}

/*
 * #DB from user mode. DR6 says why and the CPU never clears it, so it is
 * read and reset here. A single step the kernel asked for (step.c) goes
 * to cr_step_trap() and on to signal_deliver(), where the checkpoint's
 * freeze stops the process once it is out of the vDSO; any other #DB is
 * the program's own (it set TF itself): SIGTRAP, as on Linux.
 */
#define DR6_BS (1UL << 14)
#define DR6_RESERVED 0xffff0ff0UL

static bool x86_user_debug(struct pt_regs *regs)
{
	u64 dr6;

	__asm__ volatile("mov %%dr6, %0" : "=r"(dr6));
	__asm__ volatile("mov %0, %%dr6" ::"r"(DR6_RESERVED));
	if (!(dr6 & DR6_BS) || !cr_step_trap(regs))
		return false;
	signal_deliver(regs);
	return true;
}

void x86_exception(struct pt_regs *regs)
{
	u64 vec = regs->vector, cr2 = vec == 14 ? read_cr2() : 0;
	const struct exception_table_entry *fix;
	const char *name = vec < 32 ? exc_names[vec] : "interrupt";

	if (vec == 14 && x86_user_addr_fault(regs, cr2))
		return;
	if (vec == 1 && (regs->cs & 3) && x86_user_debug(regs))
		return;
	if (regs->cs & 3) {
		user_fault(regs, name, cr2);
		return;
	}
	fix = search_extable(regs->rip);

	if (fix) {
		last_fixed_fault = (struct fault_record){
			.vector = (int)vec, .name = name,
			.error_code = regs->error_code, .address = cr2,
			.pc = regs->rip, .count = last_fixed_fault.count + 1,
		};
		printk(KERN_DEBUG "fault: %s at %pS (addr %llx), expected: fixed up\n",
		       name, (void *)regs->rip, (unsigned long long)cr2);
		regs->rip = fix->fixup;
		return;
	}
	printk(KERN_EMERG "------------[ CPU exception ]------------\n");
	printk(KERN_EMERG "%s (vector %llu), error code %#llx\n", name,
	       (unsigned long long)vec, (unsigned long long)regs->error_code);
	if (vec == 14)
		describe_page_fault(regs->error_code, cr2);
	dump_regs(regs);
	printk(KERN_EMERG "Call trace:\n");
	print_stack_frame(regs->rip, NULL);
	walk_stack_frames(regs->rbp, print_stack_frame, NULL);
	panic("fatal exception %s at %pS", name, (void *)regs->rip);
}
