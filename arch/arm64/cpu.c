// SPDX-License-Identifier: MIT
/*
 * The CPU as portable code sees it: the generic timer's virtual counter
 * (CNTVCT_EL0) as the cycle counter, interrupt masking through DAIF, and
 * the idle and spin-wait hints.
 */
#include <pagoda/arch.h>
#include <asm/arm64.h>

u64 boot_entry_cycles;
static u64 counter_hz;

/* head.S zeroed CNTVOFF_EL2 when it entered at EL2, so this is the system count. */
u64 arch_cycles(void)
{
	isb(); /* no reading the counter ahead of earlier instructions */
	return read_sysreg(cntvct_el0);
}

u64 arch_cycles_hz(void)
{
	return counter_hz;
}

/*
 * CNTFRQ_EL0 is set by firmware (54 MHz on a Pi 4) or by QEMU (62.5 MHz
 * for cortex-a72). `fallback` is the device tree's timer clock-frequency,
 * or 0.
 */
const char *arm64_counter_init(u64 fallback)
{
	counter_hz = read_sysreg(cntfrq_el0) & 0xffffffff;
	if (counter_hz)
		return "CNTFRQ_EL0";
	if (fallback) {
		counter_hz = fallback;
		return "device tree";
	}
	counter_hz = 62500000;
	return "a guess (CNTFRQ_EL0 is 0 and the device tree is silent)";
}

/* DAIF: D(ebug), A (SError), I (IRQ), F (FIQ). The kernel masks IRQ and FIQ. */
void arch_irq_disable(void) { __asm__ volatile("msr daifset, #3" ::: "memory"); }
void arch_irq_enable(void) { __asm__ volatile("msr daifclr, #3" ::: "memory"); }

/* arch_irq_save() and arch_irq_restore() are inline: asm/irqflags.h. */

void arch_cpu_relax(void) { __asm__ volatile("yield" ::: "memory"); }

void arch_halt_forever(void)
{
	__asm__ volatile("msr daifset, #15" ::: "memory");
	for (;;)
		__asm__ volatile("wfi");
}

/*
 * RNDR (FEAT_RNG, ARMv8.5): a random number, or NZCV.Z set when the
 * hardware had none to give. ID_AA64ISAR0_EL1.RNDR (bits 63:60) says
 * whether it exists; the Cortex-A72 of QEMU virt and the Pi 4 has none.
 */
bool arch_get_random_seed_u64(u64 *v)
{
	if (!(read_sysreg(id_aa64isar0_el1) >> 60))
		return false;
	for (int tries = 0; tries < 10; tries++) {
		u64 ok;

		__asm__ volatile("mrs %0, s3_3_c2_c4_0\n\t" /* RNDR */
				 "cset %1, ne"
				 : "=r"(*v), "=r"(ok) : : "cc");
		if (ok)
			return true;
	}
	return false;
}
