// SPDX-License-Identifier: MIT
/*
 * The GICv2 interrupt controller (GIC-400 on the Pi 4, QEMU virt with
 * gic-version=2), behind struct gic_ops (gic.h). Two blocks of registers:
 *   - the distributor (GICD), shared: which lines are enabled, their
 *     priority, which CPU interfaces they go to, and the SGI register that
 *     sends inter-processor interrupts;
 *   - the CPU interface (GICC), banked per CPU: the priority mask, and the
 *     acknowledge (IAR) / end-of-interrupt (EOIR) pair an IRQ is handled
 *     between.
 * Its CPU interface addresses at most 8 CPUs, each by one bit.
 */
#include <pagoda/arch.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include "gic.h"

#define GICD_CTLR 0x000
#define GICD_TYPER 0x004
#define GICD_IIDR 0x008
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR 0x800
#define GICD_ICFGR 0xc00
#define GICD_SGIR 0xf00

#define GICC_CTLR 0x000
#define GICC_PMR 0x004
#define GICC_BPR 0x008
#define GICC_IAR 0x00c
#define GICC_EOIR 0x010

#define GIC_SPURIOUS 1023

static void *gicd, *gicc;
static unsigned int nr_lines;
/* Each CPU's interface bit, for GICD_ITARGETSR and GICD_SGIR. */
static u8 cpu_if_mask[NR_CPUS];

static const struct gic_ops gic_v2_ops;

const struct gic_ops *gic_v2_probe(phys_addr_t dist, phys_addr_t cpu)
{
	u32 typer;

	if (!dist) {
		pr_warn("gic: no interrupt controller known\n");
		return NULL;
	}
	gicd = early_ioremap(dist, 0x1000);
	gicc = cpu ? early_ioremap(cpu, 0x2000) : NULL;
	if (!gicd || !gicc) {
		pr_warn("gic: cannot map the distributor at %llx and CPU interface at %llx\n",
			(unsigned long long)dist, (unsigned long long)cpu);
		gicd = gicc = NULL;
		return NULL;
	}
	typer = readl(gicd + GICD_TYPER);
	/* ITLinesNumber counts blocks of 32 lines; CPUNumber is one less. */
	nr_lines = MIN(32 * ((typer & 0x1f) + 1), 1020u);
	pr_info("gic: GICv2 distributor at %llx (IIDR %#x), %u interrupt lines, %u CPU interfaces\n",
		(unsigned long long)dist, readl(gicd + GICD_IIDR), nr_lines,
		((typer >> 5) & 7) + 1);
	return &gic_v2_ops;
}

static void set_prio(unsigned int irq, u8 prio)
{
	/* Byte-accessible, one byte per line. */
	*(volatile u8 *)(gicd + GICD_IPRIORITYR + irq) = prio;
}

/*
 * This CPU's banked view: SGIs on, PPIs off until asked for, and its
 * interface open for every priority. Reading ITARGETSR0 tells a CPU its
 * own interface bit (the first eight registers are banked).
 */
static void gic_v2_cpu_init(void)
{
	unsigned int cpu = smp_processor_id();

	cpu_if_mask[cpu] = (u8)readl(gicd + GICD_ITARGETSR);
	if (!cpu_if_mask[cpu])
		cpu_if_mask[cpu] = 1; /* a uniprocessor GIC may read 0 */
	writel(0xffff0000, gicd + GICD_ICENABLER);
	writel(0x0000ffff, gicd + GICD_ISENABLER);
	for (unsigned int i = 0; i < 32; i++)
		set_prio(i, GIC_PRIO);
	writel(GIC_PRIO_MASK, gicc + GICC_PMR);
	writel(0, gicc + GICC_BPR);
	/* EnableGrp0 and EnableGrp1 (the non-secure view has only bit 0). */
	writel(3, gicc + GICC_CTLR);
}

/* The distributor: every device line off, level-triggered, to CPU 0. */
static void gic_v2_dist_init(void)
{
	writel(0, gicd + GICD_CTLR);
	for (unsigned int i = 32; i < nr_lines; i += 32)
		writel(0xffffffff, gicd + GICD_ICENABLER + i / 8);
	for (unsigned int i = 32; i < nr_lines; i += 16)
		writel(0, gicd + GICD_ICFGR + i / 4);
	for (unsigned int i = 32; i < nr_lines; i++)
		set_prio(i, GIC_PRIO);
	writel(3, gicd + GICD_CTLR);
}

static int gic_v2_unmask(unsigned int irq)
{
	if (!gicd || irq >= nr_lines || irq < 16)
		return -EINVAL;
	if (irq >= 32) /* SPIs are routed; PPIs belong to the CPU that enables them */
		*(volatile u8 *)(gicd + GICD_ITARGETSR + irq) = cpu_if_mask[0];
	writel(1u << (irq % 32), gicd + GICD_ISENABLER + (irq / 32) * 4);
	return 0;
}

static void gic_v2_mask(unsigned int irq)
{
	if (gicd && irq < nr_lines)
		writel(1u << (irq % 32), gicd + GICD_ICENABLER + (irq / 32) * 4);
}

static void gic_v2_send_sgi(unsigned int cpu, unsigned int sgi)
{
	/* The writes that the IPI announces must be visible before it lands. */
	dsb(ishst);
	writel((u32)cpu_if_mask[cpu] << 16 | (sgi & 15), gicd + GICD_SGIR);
}

/*
 * The IRQ exception: acknowledge, handle, EOI, until the interface says
 * nothing is pending. IAR carries the sending CPU's number for SGIs; EOIR
 * wants the value exactly as read.
 */
static void gic_v2_handle_irq(void (*dispatch)(unsigned int intid))
{
	for (;;) {
		u32 iar = readl(gicc + GICC_IAR);
		unsigned int intid = iar & 0x3ff;

		if (intid >= GIC_SPURIOUS - 3) /* 1020-1023: nothing (more) to do */
			return;
		irq_enter();
		dispatch(intid);
		/* EOI before irq_exit(), which may switch to another task. */
		writel(iar, gicc + GICC_EOIR);
		irq_exit();
	}
}

static const struct gic_ops gic_v2_ops = {
	.name = "GICv2",
	.dist_init = gic_v2_dist_init,
	.cpu_init = gic_v2_cpu_init,
	.unmask = gic_v2_unmask,
	.mask = gic_v2_mask,
	.send_sgi = gic_v2_send_sgi,
	.handle_irq = gic_v2_handle_irq,
};
