// SPDX-License-Identifier: MIT
/*
 * Starting the other CPUs on arm64. The device tree lists them (/cpus,
 * read into boot_info.cpus) with the way each one is started:
 *   - "psci" (QEMU virt, most arm64 servers): a PSCI CPU_ON call to the
 *     firmware or hypervisor names the CPU by MPIDR and gives it an entry
 *     address; it starts there with the MMU off;
 *   - "spin-table" (the Pi 4: its firmware's armstub, and QEMU raspi4b's
 *     own boot stub): each secondary sits in a WFE loop reading a 64-bit
 *     mailbox at cpu-release-addr (0xd8, 0xe0, 0xe8, 0xf0); writing an
 *     address there and sending an event (SEV) sends it to that address.
 * Either way the CPU arrives at head.S's secondary_entry with nothing set
 * up, so the boot CPU first fills struct secondary_boot (smp_boot.h) with
 * its own MMU settings, the new CPU's idle stack and per-CPU pointers.
 * CPUs start one at a time, so one block serves them all; the new CPU
 * reports in (arm64_secondary_start) before the next one is started.
 *
 * Logical CPU 0 is the boot CPU, whichever /cpus entry that is; the other
 * entries follow in device-tree order.
 */
#include <pagoda/arch.h>
#include <pagoda/atomic.h>
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/time.h>
#include <asm/arm64.h>
#include "platform.h"
#include "smp_boot.h"

/* MPIDR_EL1's affinity fields: Aff3 (39:32) and Aff2..Aff0 (23:0). */
#define MPIDR_AFF_MASK 0xff00ffffffULL

struct secondary_boot secondary_boot __aligned(64);
extern char secondary_entry[];

static unsigned int nr_cpus = 1;
static u64 cpu_hwid[NR_CPUS];
static u32 cpu_method[NR_CPUS];	/* enum boot_cpu_enable */
static phys_addr_t cpu_release[NR_CPUS];
static bool cpu_hwid_known;
/* Set by a starting CPU to its number once it runs kernel code. */
static int cpu_arrived = -1;

static u64 this_cpu_hwid(void)
{
	return read_sysreg(mpidr_el1) & MPIDR_AFF_MASK;
}

unsigned int arch_smp_prepare(void)
{
	u64 me = this_cpu_hwid();
	bool found_me = false;

	cpu_hwid[0] = me;
	cpu_hwid_known = true;
	for (u32 i = 0; i < boot_info.nr_cpus; i++) {
		const struct boot_cpu *c = &boot_info.cpus[i];

		if ((c->hwid & MPIDR_AFF_MASK) == me && !found_me) {
			found_me = true;
			continue;
		}
		if (nr_cpus == NR_CPUS) {
			pr_warn("smp: more than %u CPUs in the device tree; the rest stay off\n",
				NR_CPUS);
			break;
		}
		cpu_hwid[nr_cpus] = c->hwid & MPIDR_AFF_MASK;
		cpu_method[nr_cpus] = c->enable_method;
		cpu_release[nr_cpus] = c->release_addr;
		nr_cpus++;
	}
	if (boot_info.nr_cpus && !found_me)
		pr_warn("smp: the boot CPU (MPIDR %#llx) is not in the device tree's /cpus\n",
			(unsigned long long)me);
	if (nr_cpus < 2)
		pr_info("smp: one CPU in the device tree\n");
	else
		pr_info("smp: %u CPUs in the device tree; starting them by %s\n", nr_cpus,
			cpu_method[1] == BOOT_CPU_ENABLE_PSCI ? "PSCI CPU_ON" :
			cpu_method[1] == BOOT_CPU_ENABLE_SPIN_TABLE ? "the spin table" :
			"a method this kernel does not know");
	return nr_cpus;
}

u64 arch_cpu_hwid(unsigned int cpu)
{
	/* Before arch_smp_prepare() only the boot CPU runs, and it asks. */
	if (cpu == 0 && !cpu_hwid_known)
		return this_cpu_hwid();
	return cpu < nr_cpus ? cpu_hwid[cpu] : 0;
}

/* Write [p, p + len) back to memory, for a reader whose caches are off. */
static void dcache_clean_poc(const void *p, u64 len)
{
	u64 line = 4ULL << ((read_sysreg(ctr_el0) >> 16) & 15); /* DminLine, in words */

	for (u64 a = (u64)p & ~(line - 1); a < (u64)p + len; a += line)
		__asm__ volatile("dc cvac, %0" ::"r"(a) : "memory");
	dsb(sy);
}

/*
 * Spin table: the parked CPU polls its mailbox with the MMU off, so the
 * write must reach memory before the event that wakes it.
 */
static int spin_table_release(unsigned int cpu, phys_addr_t entry)
{
	phys_addr_t pa = cpu_release[cpu];
	u64 *mailbox = __va(pa);

	if (!pa || !IS_ALIGNED(pa, 8)) {
		pr_err("smp: CPU %u: bad cpu-release-addr %#llx\n", cpu, (unsigned long long)pa);
		return -EINVAL;
	}
	if (arch_virt_to_phys(&init_mm, (u64)mailbox) != pa) {
		pr_err("smp: CPU %u: cpu-release-addr %#llx is not in the direct map\n", cpu,
		       (unsigned long long)pa);
		return -EFAULT;
	}
	WRITE_ONCE(*mailbox, entry);
	dcache_clean_poc(mailbox, sizeof(*mailbox));
	__asm__ volatile("sev" ::: "memory");
	return 0;
}

int arch_cpu_start(unsigned int cpu, void *stack_top)
{
	phys_addr_t entry = __pa_kernel(secondary_entry);
	struct secondary_boot *sb = &secondary_boot;
	u64 deadline;
	int err;

	if (cpu == 0 || cpu >= nr_cpus)
		return -EINVAL;
	sb->mair = read_sysreg(mair_el1);
	sb->tcr = read_sysreg(tcr_el1);
	sb->sctlr = read_sysreg(sctlr_el1);
	sb->ttbr0 = read_sysreg(ttbr0_el1);
	sb->ttbr1 = read_sysreg(ttbr1_el1);
	sb->stack = (u64)stack_top & ~15ULL;
	sb->cpu_local = (u64)&cpu_locals[cpu];
	sb->task = (u64)cpu_locals[cpu].current_task;
	sb->cpu = cpu;
	__atomic_store_n(&cpu_arrived, -1, __ATOMIC_RELAXED);
	dcache_clean_poc(sb, sizeof(*sb));

	switch (cpu_method[cpu]) {
	case BOOT_CPU_ENABLE_PSCI:
		err = psci_cpu_on(cpu_hwid[cpu], entry, 0);
		if (err)
			pr_err("smp: PSCI CPU_ON for MPIDR %#llx failed (%d)\n",
			       (unsigned long long)cpu_hwid[cpu], err);
		break;
	case BOOT_CPU_ENABLE_SPIN_TABLE:
		err = spin_table_release(cpu, entry);
		break;
	default:
		pr_err("smp: CPU %u (MPIDR %#llx) has no enable-method this kernel knows\n", cpu,
		       (unsigned long long)cpu_hwid[cpu]);
		err = -ENODEV;
	}
	if (err)
		return err;
	/* Under emulation a CPU can take a while to get going. */
	deadline = ktime_get_ns() + 2 * NSEC_PER_SEC;
	while (smp_load_acquire(&cpu_arrived) != (int)cpu &&
	       ktime_get_ns() < deadline)
		arch_cpu_relax();
	return smp_load_acquire(&cpu_arrived) == (int)cpu ? 0 : -ETIMEDOUT;
}

bool arch_cpu_can_restart(unsigned int cpu)
{
	return cpu < nr_cpus && cpu_method[cpu] == BOOT_CPU_ENABLE_PSCI;
}

/* head.S's secondary_virt: the MMU, stack, vectors and per-CPU registers are set. */
void arm64_secondary_start(u64 cpu);
void arm64_secondary_start(u64 cpu)
{
	u64 hwid = this_cpu_hwid();

	if (hwid != cpu_hwid[cpu])
		pr_warn("smp: CPU %llu started with MPIDR %#llx, expected %#llx\n",
			(unsigned long long)cpu, (unsigned long long)hwid,
			(unsigned long long)cpu_hwid[cpu]);
	arm64_fpsimd_cpu_init();
	arm64_debug_cpu_init();
	smp_store_release(&cpu_arrived, (int)cpu);
	secondary_start_kernel((unsigned int)cpu);
}
