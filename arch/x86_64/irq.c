// SPDX-License-Identifier: MIT
/*
 * x86-64 interrupts and per-CPU plumbing: the dispatcher every vector from
 * 32 up enters (entry.asm), idling, GS-based per-CPU data, TLB flushes and
 * the initial stack of a new thread.
 */
#include <pagoda/arch.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/smp.h>
#include <pagoda/timer.h>
#include <asm/x86.h>

bool x86_percpu_ready;

void x86_interrupt(struct pt_regs *regs)
{
	u64 v = regs->vector;

	if (v == SPURIOUS_VECTOR)
		return; /* no EOI for a spurious interrupt */
	irq_enter();
	this_cpu()->irq_from_user = regs->cs & 3;
	if (v == TIMER_VECTOR)
		clockevent_interrupt();
	else if (v >= IPI_VECTOR_BASE && v < IPI_VECTOR_BASE + NR_IPI)
		ipi_handle((enum ipi_type)(v - IPI_VECTOR_BASE));
	else if (v >= IRQ_VECTOR_BASE && v < IRQ_VECTOR_BASE + NR_GSI_VECTORS)
		handle_irq((unsigned int)(v - IRQ_VECTOR_BASE));
	else
		pr_warn("x86: unexpected interrupt vector %#llx\n", (unsigned long long)v);
	/* EOI before irq_exit(), which may switch to another task. */
	lapic_eoi();
	irq_exit();
	/*
	 * Back to user mode: a process killed meanwhile ends here, and a
	 * pending handler runs, even in a program that makes no system call.
	 */
	if (regs->cs & 3)
		signal_deliver(regs);
}

bool arch_irqs_enabled(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0" : "=r"(flags));
	return flags & (1UL << 9);
}

void arch_cpu_idle(void)
{
	/* sti delays interrupts by one instruction: none slips in before hlt. */
	__asm__ volatile("sti; hlt" ::: "memory");
}

void arch_set_this_cpu(struct cpu_local *p)
{
	wrmsr(MSR_GS_BASE, (u64)p);
	x86_percpu_ready = true;
}

void arch_set_current(struct task *t)
{
	/* current is cpu_local.current, read as %gs:8; the rest is user mode's. */
	x86_switch_to(t);
}

void arch_flush_tlb_local(u64 start, u64 end)
{
	if (end - start > 64 * PAGE_SIZE) {
		/* Cheaper to drop all of them (global pages need a CR4.PGE toggle). */
		u64 cr4 = read_cr4();

		write_cr4(cr4 & ~CR4_PGE);
		write_cr4(cr4);
		return;
	}
	for (u64 va = start & ~(PAGE_SIZE - 1); va < end; va += PAGE_SIZE)
		__asm__ volatile("invlpg (%0)" ::"r"(va) : "memory");
}

extern char thread_start[];

unsigned long arch_thread_stack_init(void *stack_top)
{
	u64 *sp = (u64 *)((u64)stack_top & ~15ULL);

	/* arch_context_switch() pops six registers (all 0: rbp 0 ends traces)
	 * and returns to thread_start with rsp 16-byte aligned. */
	*--sp = (u64)thread_start;
	for (int i = 0; i < 6; i++)
		*--sp = 0;
	return (unsigned long)sp;
}

/* switch.asm's frame read back: r15 r14 r13 r12 rbx rbp, then the return address. */
u64 arch_thread_saved_fp(unsigned long saved_sp)
{
	return ((const u64 *)saved_sp)[5];
}

u64 arch_thread_saved_pc(unsigned long saved_sp)
{
	return ((const u64 *)saved_sp)[6];
}
