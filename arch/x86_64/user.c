// SPDX-License-Identifier: MIT
/*
 * User mode on x86-64: the `syscall` MSRs, the first entry into ring 3,
 * loading an address space (CR3), and the checked copies to and from user
 * memory.
 *
 * SMEP keeps the kernel from executing user pages and SMAP from touching
 * them, except inside the copy routines, which open the window with stac
 * and close it with clac; both are on when the CPU has them.
 */
#include <pagoda/arch.h>
#include <pagoda/extable.h>
#include <pagoda/process.h>
#include <pagoda/smp.h>
#include <pagoda/task.h>
#include <asm/x86.h>

#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_SFMASK 0xc0000084
#define MSR_KERNEL_GS_BASE 0xc0000102
#define MSR_TSC_AUX 0xc0000103
#define EFER_SCE (1 << 0)
#define CR4_SMAP (1 << 21)

#define KERNEL_CS 0x08
#define USER_DS (0x20 | 3)
#define USER_CS (0x28 | 3)
/*
 * syscall clears these: interrupts, single-step, direction, alignment
 * check, and nested task (NT), which the program may set (popf) and which,
 * left set in the kernel, makes the iretq back to user mode fault (#GP in
 * 64-bit mode): Linux's selftest x86/syscall_nt hung Pagoda that way. The
 * program's own flags, NT included, come back from the frame.
 */
#define SFMASK_BITS ((1 << 9) | (1 << 8) | (1 << 10) | (1 << 14) | (1 << 18))

extern char entry_syscall_64[];

static bool has_smap;
static struct mm_struct *loaded_mm[NR_CPUS];

/*
 * Per CPU: the syscall entry point and the segments it and sysret load;
 * the CPU number in TSC_AUX, where the vDSO's getcpu() reads it (RDTSCP).
 */
void x86_user_cpu_init(unsigned int cpu_nr)
{
	/* Without RDTSCP the MSR may not exist (writing it faults under some KVM setups). */
	if (cpu.rdtscp)
		wrmsr(MSR_TSC_AUX, cpu_nr);
	wrmsr(MSR_STAR, ((u64)(USER_DS - 8) << 48) | ((u64)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)entry_syscall_64);
	wrmsr(MSR_SFMASK, SFMASK_BITS);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	x86_fpu_cpu_init();
}

/* Boot CPU, once the kernel's own tables (no user pages) are live. */
void x86_user_init(void)
{
	u32 a, b, c, d;
	u64 cr4 = read_cr4();

	if (cpu.max_leaf >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		if (b & (1u << 7))
			cr4 |= CR4_SMEP;
		has_smap = b & (1u << 20);
		if (has_smap)
			cr4 |= CR4_SMAP;
	}
	write_cr4(cr4);
	x86_user_cpu_init(0);
}

void arch_switch_mm(struct mm_struct *mm)
{
	unsigned int cpu = smp_processor_id();
	struct mm_struct *prev = loaded_mm[cpu] ? loaded_mm[cpu] : &init_mm;

	if (prev == mm)
		return;
	/* In the mask before it can be cached here, out only after. */
	if (mm != &init_mm)
		__atomic_fetch_or(&mm->cpu_mask, 1UL << cpu, __ATOMIC_SEQ_CST);
	/* Not global: the previous user half's entries go with the load. */
	write_cr3((u64)mm->pgd - PAGE_OFFSET);
	if (prev != &init_mm)
		__atomic_fetch_and(&prev->cpu_mask, ~(1UL << cpu), __ATOMIC_SEQ_CST);
	loaded_mm[cpu] = mm;
}

/* Called at every context switch, on the way to t. */
void x86_switch_to(struct task *t)
{
	unsigned int cpu = smp_processor_id();

	if (t->stack) {
		u64 top = (u64)t->stack + t->stack_size;

		this_cpu()->entry_stack = top;
		x86_set_kernel_stack(cpu, top);
	}
	arch_switch_mm(t->mm ? t->mm : &init_mm);
}

__noreturn void arch_enter_user(u64 pc, u64 sp, u64 arg)
{
	u64 top = this_cpu()->entry_stack;

	arch_irq_disable();
	__asm__ volatile("mov %[top], %%rsp\n\t"
			 "pushq %[ss]\n\t"
			 "pushq %[sp]\n\t"
			 "pushq $0x202\n\t" /* IF, and the always-one bit */
			 "pushq %[cs]\n\t"
			 "pushq %[pc]\n\t"
			 "xor %%eax, %%eax\n\t"
			 "xor %%ebx, %%ebx\n\t"
			 "xor %%ecx, %%ecx\n\t"
			 "xor %%edx, %%edx\n\t"
			 "xor %%esi, %%esi\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "xor %%r8d, %%r8d\n\t"
			 "xor %%r9d, %%r9d\n\t"
			 "xor %%r10d, %%r10d\n\t"
			 "xor %%r11d, %%r11d\n\t"
			 "xor %%r12d, %%r12d\n\t"
			 "xor %%r13d, %%r13d\n\t"
			 "xor %%r14d, %%r14d\n\t"
			 "xor %%r15d, %%r15d\n\t"
			 "swapgs\n\t"
			 "iretq"
			 :
			 : [top] "r"(top), [ss] "i"(USER_DS), [sp] "r"(sp), [cs] "i"(USER_CS),
			   [pc] "r"(pc), "D"(arg)
			 : "memory");
	__builtin_unreachable();
}

/*
 * One copy loop for both directions: rep movsb leaves the count still to
 * go in RCX when it faults, which is exactly what the caller returns.
 */
static unsigned long copy_user(void *to, const void *from, unsigned long n)
{
	if (has_smap)
		__asm__ volatile("stac" ::: "memory");
	__asm__ volatile("1:\trep movsb\n"
			 "2:\n\t" EXTABLE(1b, 2b)
			 : "+D"(to), "+S"(from), "+c"(n)
			 :
			 : "memory");
	if (has_smap)
		__asm__ volatile("clac" ::: "memory");
	return n;
}

unsigned long arch_copy_from_user(void *to, const void *from, unsigned long n)
{
	return copy_user(to, from, n);
}

unsigned long arch_copy_to_user(void *to, const void *from, unsigned long n)
{
	return copy_user(to, from, n);
}

/* From entry.asm: the number is in the error-code slot, arguments as Linux passes them. */
void x86_syscall(struct pt_regs *regs);
void x86_syscall(struct pt_regs *regs)
{
	unsigned long args[6] = { regs->rdi, regs->rsi, regs->rdx,
				  regs->r10, regs->r8, regs->r9 };

	arch_current()->uregs = regs;
	arch_irq_enable();
	regs->rax = (u64)syscall_dispatch(regs->error_code, args);
	signal_deliver(regs);
	arch_irq_disable();
}

const unsigned int arch_pt_regs_size = sizeof(struct pt_regs);

bool arch_vdso_cpu_number_ok(void)
{
	return cpu.rdtscp;
}

void arch_regs_set_return(struct pt_regs *regs, u64 v)
{
	regs->rax = v;
}

void arch_regs_set_sp(struct pt_regs *regs, u64 sp)
{
	regs->rsp = sp;
}

extern char x86_return_to_user[];

/*
 * Lay regs out as the entry code's frame at the top of this task's kernel
 * stack and leave through the common exit, which restores every register
 * and irets. The copy runs after the stack pointer has moved there: the
 * C frames it overwrites are never returned to.
 */
__noreturn void arch_enter_user_regs(const struct pt_regs *regs)
{
	u64 frame = this_cpu()->entry_stack - sizeof(struct pt_regs);

	arch_irq_disable();
	__asm__ volatile("mov %%rdi, %%rsp\n\t"
			 "rep movsq\n\t"
			 "jmp x86_return_to_user"
			 :
			 : "D"(frame), "S"(regs), "c"(sizeof(struct pt_regs) / 8)
			 : "memory");
	__builtin_unreachable();
}
