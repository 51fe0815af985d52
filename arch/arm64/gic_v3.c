// SPDX-License-Identifier: MIT
/*
 * The GICv3 interrupt controller (QEMU virt with gic-version=3, most
 * arm64 servers), behind struct gic_ops (gic.h). Three parts:
 *   - the distributor (GICD), shared: SPIs only, once affinity routing is
 *     on (ARE); each SPI is routed to a CPU by its MPIDR (GICD_IROUTER);
 *   - one redistributor (GICR) per CPU, found by matching its GICR_TYPER
 *     affinity to the CPU's MPIDR: a 64 KiB control frame (RD_base, with
 *     GICR_WAKER, which must say the CPU is awake) followed by a 64 KiB
 *     frame (SGI_base) holding that CPU's SGI and PPI enables,
 *     priorities and groups;
 *   - the CPU interface, now system registers (ICC_*_EL1): acknowledge
 *     (IAR1), end of interrupt (EOIR1), priority mask, and ICC_SGI1R_EL1,
 *     which sends SGIs to CPUs named by affinity, not by GIC-given bits.
 * Everything is Group 1 (delivered as IRQ, which is what the kernel takes).
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include "gic.h"

#define GICD_CTLR 0x0000
#define GICD_TYPER 0x0004
#define GICD_IIDR 0x0008
#define GICD_IGROUPR 0x0080
#define GICD_ISENABLER 0x0100
#define GICD_ICENABLER 0x0180
#define GICD_IPRIORITYR 0x0400
#define GICD_ICFGR 0x0c00
#define GICD_IROUTER 0x6000
#define GICD_PIDR2 0xffe8

#define GICD_CTLR_RWP (1u << 31)	/* a register write is still taking effect */
/* EnableGrp1 (NS), EnableGrp1A, ARE_NS; with one security state: Grp0, Grp1, ARE. */
#define GICD_CTLR_ENABLE 0x13

/* Redistributor control frame (RD_base). */
#define GICR_CTLR 0x0000
#define GICR_TYPER 0x0008
#define GICR_WAKER 0x0014
#define GICR_CTLR_RWP (1u << 3)
#define GICR_TYPER_VLPIS (1u << 1)	/* two more 64 KiB frames for virtual LPIs */
#define GICR_TYPER_LAST (1u << 4)	/* the last redistributor of its region */
#define GICR_WAKER_PROCESSOR_SLEEP (1u << 1)
#define GICR_WAKER_CHILDREN_ASLEEP (1u << 2)

/* Its SGI/PPI frame (SGI_base = RD_base + 64 KiB). */
#define GICR_SGI_BASE 0x10000
#define GICR_IGROUPR0 0x0080
#define GICR_ISENABLER0 0x0100
#define GICR_ICENABLER0 0x0180
#define GICR_IPRIORITYR 0x0400

/* The CPU interface's system registers (op0, op1, CRn, CRm, op2). */
#define ICC_PMR_EL1 S3_0_C4_C6_0
#define ICC_SGI1R_EL1 S3_0_C12_C11_5
#define ICC_IAR1_EL1 S3_0_C12_C12_0
#define ICC_EOIR1_EL1 S3_0_C12_C12_1
#define ICC_BPR1_EL1 S3_0_C12_C12_3
#define ICC_CTLR_EL1 S3_0_C12_C12_4
#define ICC_SRE_EL1 S3_0_C12_C12_5
#define ICC_IGRPEN1_EL1 S3_0_C12_C12_7

#define ICC_SRE_SRE 1	/* use the system registers, not a memory-mapped GICC */

/* 1020-1023 are special (1023: nothing pending). */
#define GIC_INTID_SPECIAL 1020

/* One redistributor frame set: 128 KiB, or 256 KiB with VLPIs (GICv4). */
#define GICR_STRIDE 0x20000
#define GICR_STRIDE_VLPI 0x40000

static void *gicd, *gicr;
static u64 gicr_size;
static unsigned int nr_lines;
/* Per CPU: its redistributor, and its affinity in ICC_SGI1R_EL1's terms. */
static void *rd_base[NR_CPUS];
static u64 cpu_mpidr[NR_CPUS];

static const struct gic_ops gic_v3_ops;

/* MPIDR_EL1 as GICR_TYPER's affinity value: Aff3.Aff2.Aff1.Aff0. */
static u32 mpidr_to_aff(u64 mpidr)
{
	return (u32)((mpidr >> 32) & 0xff) << 24 | (u32)(mpidr & 0xffffff);
}

/* Wait (bounded) for a write to GICD_CTLR or GICR_ICENABLER0 to take effect. */
static void wait_rwp(void *reg, u32 bit)
{
	for (unsigned int i = 0; i < 1000000 && (readl(reg) & bit); i++)
		arch_cpu_relax();
	if (readl(reg) & bit)
		pr_warn("gic: register write still pending (RWP) after 1000000 polls\n");
}

const struct gic_ops *gic_v3_probe(phys_addr_t dist, phys_addr_t redist, u64 redist_size)
{
	unsigned int cpus = MAX(boot_info.nr_cpus, 1u);
	u32 typer, arch_rev;

	if (!dist || !redist || !redist_size) {
		pr_warn("gic: GICv3 without a distributor (%llx) or redistributors (%llx)\n",
			(unsigned long long)dist, (unsigned long long)redist);
		return NULL;
	}
	/*
	 * The redistributor region may be sized for many more CPUs than this
	 * machine has (QEMU virt's is 15.3 MiB): map what /cpus can use.
	 */
	gicr_size = MIN(redist_size, (u64)MIN(cpus, (unsigned int)NR_CPUS) * GICR_STRIDE_VLPI);
	gicd = early_ioremap(dist, 0x10000);
	gicr = early_ioremap(redist, gicr_size);
	if (!gicd || !gicr) {
		pr_warn("gic: cannot map the GICv3 distributor at %llx and redistributors at %llx\n",
			(unsigned long long)dist, (unsigned long long)redist);
		gicd = gicr = NULL;
		return NULL;
	}
	arch_rev = (readl(gicd + GICD_PIDR2) >> 4) & 0xf;
	if (arch_rev != 3 && arch_rev != 4) {
		pr_warn("gic: the device tree says GICv3 but GICD_PIDR2 says architecture "
			"version %u; not using it\n", arch_rev);
		gicd = gicr = NULL;
		return NULL;
	}
	typer = readl(gicd + GICD_TYPER);
	nr_lines = MIN(32 * ((typer & 0x1f) + 1), 1020u);
	pr_info("gic: GICv%u distributor at %llx (IIDR %#x), %u interrupt lines, "
		"redistributors at %llx\n", arch_rev, (unsigned long long)dist,
		readl(gicd + GICD_IIDR), nr_lines, (unsigned long long)redist);
	return &gic_v3_ops;
}

/* The distributor: affinity routing on; every SPI off, level, Group 1, to this CPU. */
static void gic_v3_dist_init(void)
{
	u64 boot_cpu = read_sysreg(mpidr_el1) & 0xff00ffffffULL;

	writel(0, gicd + GICD_CTLR);
	wait_rwp(gicd + GICD_CTLR, GICD_CTLR_RWP);
	for (unsigned int i = 32; i < nr_lines; i += 32) {
		writel(0xffffffff, gicd + GICD_ICENABLER + i / 8);
		writel(0xffffffff, gicd + GICD_IGROUPR + i / 8);
	}
	for (unsigned int i = 32; i < nr_lines; i += 16)
		writel(0, gicd + GICD_ICFGR + i / 4);
	for (unsigned int i = 32; i < nr_lines; i++) {
		*(volatile u8 *)(gicd + GICD_IPRIORITYR + i) = GIC_PRIO;
		/* Aff3 in bits 39:32, Aff2..Aff0 in 23:0, as in MPIDR; mode 0: this CPU. */
		writeq(boot_cpu, gicd + GICD_IROUTER + 8 * i);
	}
	writel(GICD_CTLR_ENABLE, gicd + GICD_CTLR);
	wait_rwp(gicd + GICD_CTLR, GICD_CTLR_RWP);
}

/* This CPU's redistributor: the one whose TYPER names this CPU's affinity. */
static void *find_redistributor(u64 mpidr)
{
	u32 aff = mpidr_to_aff(mpidr);

	for (u64 off = 0; off + GICR_STRIDE <= gicr_size;) {
		u64 typer = readq(gicr + off + GICR_TYPER);

		if ((u32)(typer >> 32) == aff)
			return gicr + off;
		if (typer & GICR_TYPER_LAST)
			break;
		off += typer & GICR_TYPER_VLPIS ? GICR_STRIDE_VLPI : GICR_STRIDE;
	}
	return NULL;
}

/*
 * This CPU: wake its redistributor, set up its SGIs (on) and PPIs (off
 * until asked for), then open the system-register CPU interface.
 */
static void gic_v3_cpu_init(void)
{
	unsigned int cpu = smp_processor_id();
	u64 mpidr = read_sysreg(mpidr_el1) & 0xff00ffffffULL;
	void *rd = find_redistributor(mpidr), *sgi;
	u32 waker;

	if (!rd)
		panic("gic: no redistributor for CPU %u (MPIDR %#llx) in the first %llu KiB",
		      cpu, (unsigned long long)mpidr, (unsigned long long)(gicr_size >> 10));
	rd_base[cpu] = rd;
	cpu_mpidr[cpu] = mpidr;
	sgi = rd + GICR_SGI_BASE;

	waker = readl(rd + GICR_WAKER);
	writel(waker & ~GICR_WAKER_PROCESSOR_SLEEP, rd + GICR_WAKER);
	for (unsigned int i = 0; i < 1000000 && (readl(rd + GICR_WAKER) &
						 GICR_WAKER_CHILDREN_ASLEEP); i++)
		arch_cpu_relax();

	writel(0xffff0000, sgi + GICR_ICENABLER0);
	wait_rwp(rd + GICR_CTLR, GICR_CTLR_RWP);
	writel(0xffffffff, sgi + GICR_IGROUPR0);
	for (unsigned int i = 0; i < 32; i++)
		*(volatile u8 *)(sgi + GICR_IPRIORITYR + i) = GIC_PRIO;
	writel(0x0000ffff, sgi + GICR_ISENABLER0);

	write_sysreg(ICC_SRE_EL1, read_sysreg(ICC_SRE_EL1) | ICC_SRE_SRE);
	isb();
	if (!(read_sysreg(ICC_SRE_EL1) & ICC_SRE_SRE))
		panic("gic: CPU %u cannot use the GICv3 system registers (ICC_SRE_EL1.SRE "
		      "stays 0: EL2 did not allow it)", cpu);
	write_sysreg(ICC_PMR_EL1, GIC_PRIO_MASK);
	write_sysreg(ICC_BPR1_EL1, 0);
	write_sysreg(ICC_CTLR_EL1, 0);	/* EOImode 0: EOIR also deactivates */
	write_sysreg(ICC_IGRPEN1_EL1, 1);
	isb();
}

static int gic_v3_unmask(unsigned int irq)
{
	void *rd = rd_base[smp_processor_id()];

	if (irq < 16 || irq >= nr_lines)
		return -EINVAL;
	if (irq < 32) {
		if (!rd)
			return -ENODEV;
		writel(1u << irq, rd + GICR_SGI_BASE + GICR_ISENABLER0);
		return 0;
	}
	writel(1u << (irq % 32), gicd + GICD_ISENABLER + (irq / 32) * 4);
	return 0;
}

static void gic_v3_mask(unsigned int irq)
{
	void *rd = rd_base[smp_processor_id()];

	if (irq < 32) {
		if (rd) {
			writel(1u << irq, rd + GICR_SGI_BASE + GICR_ICENABLER0);
			wait_rwp(rd + GICR_CTLR, GICR_CTLR_RWP);
		}
	} else if (irq < nr_lines) {
		writel(1u << (irq % 32), gicd + GICD_ICENABLER + (irq / 32) * 4);
		wait_rwp(gicd + GICD_CTLR, GICD_CTLR_RWP);
	}
}

/*
 * ICC_SGI1R_EL1: INTID in 27:24, the target's Aff3 (55:48), Aff2 (39:32),
 * Aff1 (23:16), and a bit for its Aff0 in the target list (15:0), whose
 * range selector (47:44) says which block of 16 Aff0 values it covers.
 */
static void gic_v3_send_sgi(unsigned int cpu, unsigned int sgi)
{
	u64 mpidr = cpu_mpidr[cpu], aff0 = mpidr & 0xff;
	u64 v = ((mpidr >> 32) & 0xff) << 48 | ((mpidr >> 16) & 0xff) << 32 |
		(aff0 >> 4) << 44 | (u64)(sgi & 15) << 24 | ((mpidr >> 8) & 0xff) << 16 |
		1ULL << (aff0 & 15);

	/* The writes that the IPI announces must be visible before it lands. */
	dsb(ishst);
	write_sysreg(ICC_SGI1R_EL1, v);
	isb();
}

static void gic_v3_handle_irq(void (*dispatch)(unsigned int intid))
{
	for (;;) {
		u64 iar = read_sysreg(ICC_IAR1_EL1);
		unsigned int intid = iar & 0xffffff;

		if (intid >= GIC_INTID_SPECIAL && intid < 1024)
			return;
		irq_enter();
		dispatch(intid);
		/* EOI before irq_exit(), which may switch to another task. */
		write_sysreg(ICC_EOIR1_EL1, iar);
		isb();
		irq_exit();
	}
}

static const struct gic_ops gic_v3_ops = {
	.name = "GICv3",
	.dist_init = gic_v3_dist_init,
	.cpu_init = gic_v3_cpu_init,
	.unmask = gic_v3_unmask,
	.mask = gic_v3_mask,
	.send_sgi = gic_v3_send_sgi,
	.handle_irq = gic_v3_handle_irq,
};
