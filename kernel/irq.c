// SPDX-License-Identifier: MIT
/*
 * The portable half of interrupt handling: a table of handlers by line
 * number, and the bracket every interrupt runs in. irq_exit() is where
 * preemption happens: the interrupt may have woken a task that should run
 * now (or the tick says the running task had its share), and the
 * interrupted task had interrupts on, so it may be switched out here.
 */
#include <pagoda/interrupt.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>

static struct irq_desc {
	irq_handler_t handler;
	const char *name;
	void *dev;
	u64 count;
} irq_descs[NR_IRQS];

int request_irq(unsigned int irq, irq_handler_t handler, const char *name, void *dev)
{
	int err;

	if (irq >= NR_IRQS || !handler)
		return -EINVAL;
	if (irq_descs[irq].handler)
		return -EBUSY;
	irq_descs[irq] = (struct irq_desc){ handler, name, dev, 0 };
	err = arch_irq_unmask(irq);
	if (err)
		irq_descs[irq].handler = NULL;
	return err;
}

void free_irq(unsigned int irq, void *dev)
{
	if (irq >= NR_IRQS || irq_descs[irq].dev != dev)
		return;
	arch_irq_mask(irq);
	irq_descs[irq].handler = NULL;
}

void irq_enter(void)
{
	struct cpu_local *c = this_cpu();

	c->irq_depth++;
	c->irqs++;
}

void irq_exit(void)
{
	struct cpu_local *c = this_cpu();

	/* The outermost handler is done: run what it left for "just after". */
	if (c->irq_depth == 1 && softirq_pending_this_cpu())
		irq_exit_softirqs();
	if (--c->irq_depth == 0 && READ_ONCE(c->need_resched))
		preempt_schedule_irq();
}

void handle_irq(unsigned int irq)
{
	struct irq_desc *d = irq < NR_IRQS ? &irq_descs[irq] : NULL;

	if (!d || !d->handler) {
		pr_warn("irq: unexpected interrupt on line %u\n", irq);
		return;
	}
	d->count++;
	d->handler(irq, d->dev);
}

static int cmd_irqs(int argc, char **argv)
{
	unsigned int cpu;

	(void)argc;
	(void)argv;
	for (unsigned int i = 0; i < NR_IRQS; i++)
		if (irq_descs[i].handler)
			kprintf("  line %2u  %-12s %10llu\n", i, irq_descs[i].name,
				(unsigned long long)irq_descs[i].count);
	for_each_online_cpu(cpu) {
		struct cpu_local *c = &cpu_locals[cpu];

		kprintf("  cpu%-2u all %llu, timer %llu, ipi resched %llu call %llu tlb %llu\n",
			cpu, (unsigned long long)c->irqs, (unsigned long long)c->timer_irqs,
			(unsigned long long)c->ipis[IPI_RESCHEDULE],
			(unsigned long long)c->ipis[IPI_CALL_FUNC],
			(unsigned long long)c->ipis[IPI_TLB_FLUSH]);
	}
	return 0;
}
SHELL_CMD(irqs, "irqs", "interrupt counts by line and by CPU", cmd_irqs);
