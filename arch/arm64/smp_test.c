// SPDX-License-Identifier: MIT
/*
 * The started CPUs are what smp.c meant them to be: every CPU of the
 * device tree is online, each one answers a cross-CPU call (an SGI through
 * the GIC) with the MPIDR it was started for, its own per-CPU block in
 * TPIDR_EL1, the kernel at EL1, and the boot CPU's MMU settings and
 * vectors: one set of page tables for all.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/ktest.h>
#include <pagoda/smp.h>
#include <asm/arm64.h>

struct cpu_regs {
	u64 mpidr, tpidr, el, ttbr0, ttbr1, tcr, mair, sctlr, vbar;
	u64 hwid0; /* arch_cpu_hwid(0) as this CPU sees it */
	unsigned int cpu;
	bool ran;
};

static void read_regs(void *arg)
{
	struct cpu_regs *r = arg;

	r->mpidr = read_sysreg(mpidr_el1) & 0xff00ffffffULL;
	r->tpidr = read_sysreg(tpidr_el1);
	r->el = (read_sysreg(CurrentEL) >> 2) & 3;
	r->ttbr0 = read_sysreg(ttbr0_el1);
	r->ttbr1 = read_sysreg(ttbr1_el1);
	r->tcr = read_sysreg(tcr_el1);
	r->mair = read_sysreg(mair_el1);
	r->sctlr = read_sysreg(sctlr_el1);
	r->vbar = read_sysreg(vbar_el1);
	r->cpu = smp_processor_id();
	r->hwid0 = arch_cpu_hwid(0);
	r->ran = true;
}

static void test_every_cpu_online(struct ktest *t)
{
	unsigned int want = MAX(MIN(boot_info.nr_cpus, (u32)NR_CPUS), 1u);

	KEXPECT_EQ(t, num_possible_cpus(), want);
	KEXPECT_EQ(t, num_online_cpus(), want);
}

static void test_each_cpu_is_the_one_started(struct ktest *t)
{
	static struct cpu_regs regs[NR_CPUS];
	struct cpu_regs boot = { 0 };
	unsigned int cpu, seen = 0;
	unsigned long flags;

	flags = arch_irq_save();
	read_regs(&boot);
	arch_irq_restore(flags);
	for_each_online_cpu(cpu) {
		regs[cpu] = (struct cpu_regs){ 0 };
		KEXPECT_EQ(t, smp_call_function_single(cpu, read_regs, &regs[cpu], true), 0);
	}
	for_each_online_cpu(cpu) {
		struct cpu_regs *r = &regs[cpu];

		KEXPECT_TRUE(t, r->ran);
		KEXPECT_EQ(t, r->cpu, cpu);
		KEXPECT_EQ(t, r->mpidr, arch_cpu_hwid(cpu));
		KEXPECT_EQ(t, r->hwid0, regs[0].mpidr); /* the boot CPU's, from anywhere */
		KEXPECT_EQ(t, r->tpidr, (u64)&cpu_locals[cpu]);
		KEXPECT_EQ(t, r->el, 1);
		KEXPECT_EQ(t, r->ttbr0, boot.ttbr0);
		KEXPECT_EQ(t, r->ttbr1, boot.ttbr1);
		KEXPECT_EQ(t, r->tcr, boot.tcr);
		KEXPECT_EQ(t, r->mair, boot.mair);
		KEXPECT_EQ(t, r->sctlr, boot.sctlr);
		KEXPECT_EQ(t, r->vbar, boot.vbar);
		seen++;
	}
	KEXPECT_EQ(t, seen, num_online_cpus());
	/* No two CPUs with one identity. */
	for_each_online_cpu(cpu)
		for (unsigned int other = cpu + 1; other < NR_CPUS; other++)
			if (cpu_online(other))
				KEXPECT_NE(t, regs[cpu].mpidr, regs[other].mpidr);
}

static struct ktest_case arm64_smp_cases[] = {
	KTEST_CASE(test_every_cpu_online),
	KTEST_CASE(test_each_cpu_is_the_one_started),
	{}
};
KTEST_SUITE_FULL(arm64_smp, .cases = arm64_smp_cases, .kernel_only = true);
