// SPDX-License-Identifier: MIT
/*
 * arm64 SMP: not brought up yet. The device tree lists the CPUs and how
 * to start them (PSCI CPU_ON on virt, a spin table on the Pi 4), and
 * boot_info keeps that, but starting them needs a secondary entry path in
 * head.S (MMU, vectors, stack) that does not exist yet. Until then the
 * kernel says plainly that it runs on the boot CPU only, and the suites
 * that need a second CPU skip with that reason.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <asm/arm64.h>

unsigned int arch_smp_prepare(void)
{
	pr_info("smp: arm64 secondary CPU bring-up is not implemented; using the boot CPU "
		"only (%u CPUs in the device tree)\n", boot_info.nr_cpus);
	return 1;
}

int arch_cpu_start(unsigned int cpu, void *stack_top)
{
	return -ENODEV;
}

u64 arch_cpu_hwid(unsigned int cpu)
{
	if (cpu == 0)
		return read_sysreg(mpidr_el1) & 0xff00ffffffULL; /* the affinity fields */
	return cpu < boot_info.nr_cpus ? boot_info.cpus[cpu].hwid : 0;
}
