// SPDX-License-Identifier: MIT
/*
 * arm64 interrupts, time and per-CPU plumbing: the IRQ vector's dispatch
 * (GIC INTID to timer, IPI or device line), the generic timer's virtual
 * timer as the per-CPU clockevent, IPIs as SGIs, idling with WFI, the
 * per-CPU registers and the initial stack of a new thread.
 */
#include <pagoda/arch.h>
#include <pagoda/task.h>
#include <pagoda/boot_info.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/timer.h>
#include "gic.h"

/* SGI n is IPI type n: NR_IPI is well under the 16 SGIs. */
_Static_assert(NR_IPI <= 16, "one SGI per IPI type");

/* CNTV_CTL_EL0 bits. */
#define CNTV_ENABLE 1
#define CNTV_IMASK 2

/* The virtual timer's PPI: INTID 27 on every board the binding describes. */
#define VTIMER_INTID_DEFAULT 27
static unsigned int vtimer_intid = VTIMER_INTID_DEFAULT;

static void dispatch(unsigned int intid)
{
	if (intid == vtimer_intid) {
		/* Level-triggered: silence it until the next deadline is set. */
		write_sysreg(cntv_ctl_el0, CNTV_IMASK);
		isb();
		clockevent_interrupt();
	} else if (intid < NR_IPI) {
		ipi_handle((enum ipi_type)intid);
	} else if (intid >= 32) {
		handle_irq(intid);
	} else {
		pr_warn("arm64: unexpected interrupt %u\n", intid);
	}
}

void arm64_irq(void)
{
	gic->handle_irq(dispatch);
}

void arch_irq_init(void)
{
	if (!gic_present())
		panic("arm64: no GIC mapped: no timer interrupt, no scheduler");
	if (boot_info.timer.nr_irqs > BOOT_TIMER_VIRT &&
	    boot_info.timer.irq[BOOT_TIMER_VIRT] >= 16 && boot_info.timer.irq[BOOT_TIMER_VIRT] < 32)
		vtimer_intid = boot_info.timer.irq[BOOT_TIMER_VIRT];
	else
		pr_warn("arm64: the device tree names no virtual timer PPI; assuming INTID %u\n",
			vtimer_intid);
	gic->dist_init();
	arch_secondary_init();
	pr_info("arm64: %s up, virtual timer on INTID %u\n", gic->name, vtimer_intid);
}

/* This CPU's interface and timer (the boot CPU's too, from arch_irq_init). */
void arch_secondary_init(void)
{
	gic->cpu_init();
	write_sysreg(cntv_ctl_el0, CNTV_IMASK);
	gic->unmask(vtimer_intid);
}

int arch_irq_unmask(unsigned int irq)
{
	if (irq < 32)
		return -EINVAL; /* SGIs and PPIs are the arch's own */
	if (!gic)
		return -ENODEV;
	return gic->unmask(irq);
}

void arch_irq_mask(unsigned int irq)
{
	if (irq >= 32 && gic)
		gic->mask(irq);
}

/* ---- the per-CPU timer --------------------------------------------------- */

/*
 * The virtual timer fires when CNTVCT_EL0 >= CNTV_CVAL_EL0: an absolute
 * deadline in exactly arch_cycles() units, so nothing to convert. A
 * deadline already past fires at once.
 */
void arch_timer_set_deadline(u64 cycles)
{
	if (cycles == U64_MAX) {
		write_sysreg(cntv_ctl_el0, CNTV_IMASK);
	} else {
		write_sysreg(cntv_cval_el0, cycles);
		write_sysreg(cntv_ctl_el0, CNTV_ENABLE);
	}
	isb();
}

const char *arch_timer_name(void)
{
	return "cntv";
}

/* ---- IPIs and TLB ------------------------------------------------------ */

void arch_send_ipi(unsigned int cpu, enum ipi_type type)
{
	gic->send_sgi(cpu, type);
}

void arch_flush_tlb_local(u64 start, u64 end)
{
	dsb(nshst);
	if (end - start > 64 * PAGE_SIZE) {
		__asm__ volatile("tlbi vmalle1" ::: "memory");
	} else {
		for (u64 va = start & ~(PAGE_SIZE - 1); va < end; va += PAGE_SIZE)
			__asm__ volatile("tlbi vaale1, %0"
					 ::"r"((va >> 12) & ((1ULL << 44) - 1)) : "memory");
	}
	dsb(nsh);
	isb();
}

/* ---- the CPU ------------------------------------------------------------- */

bool arch_irqs_enabled(void)
{
	return !(read_sysreg(daif) & (1 << 7)); /* DAIF.I */
}

/*
 * WFI wakes on a pending interrupt even while DAIF masks it, so: wait with
 * interrupts masked, then unmask and take it. A wake-up that arrived after
 * the idle loop's last check is pending already and WFI returns at once.
 */
void arch_cpu_idle(void)
{
	dsb(sy);
	__asm__ volatile("wfi" ::: "memory");
	arch_irq_enable();
}

void arch_set_this_cpu(struct cpu_local *p)
{
	write_sysreg(tpidr_el1, p);
}

void arch_set_current(struct task *t)
{
	write_sysreg(sp_el0, t);
	arch_switch_mm(t->mm ? t->mm : &init_mm);
	arm64_step_switch(t);
}

extern char thread_start[];

/* Must match switch.S: x19..x28, then x29 and x30 (the return address). */
unsigned long arch_thread_stack_init(void *stack_top)
{
	u64 *sp = (u64 *)((u64)stack_top & ~15ULL) - 12;

	for (int i = 0; i < 12; i++)
		sp[i] = 0;
	sp[11] = (u64)thread_start; /* x30: the first switch "returns" there */
	return (unsigned long)sp;
}

/* The same frame, read back: x29 in slot 10, x30 in slot 11. */
u64 arch_thread_saved_fp(unsigned long saved_sp)
{
	return ((const u64 *)saved_sp)[10];
}

u64 arch_thread_saved_pc(unsigned long saved_sp)
{
	return ((const u64 *)saved_sp)[11];
}
