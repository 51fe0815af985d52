// SPDX-License-Identifier: MIT
/*
 * Leaving the machine. Three mechanisms, whichever the platform has:
 *   - PSCI (QEMU virt, most arm64 servers): SYSTEM_OFF and SYSTEM_RESET
 *     are calls into firmware, through HVC or SMC as the device tree's
 *     psci node says (SMC when we entered at EL2: HVC would trap to us);
 *   - the BCM2835 power manager's watchdog (Raspberry Pi): a reset in a
 *     few ticks; a reset that names "partition 63" is how Linux asks the
 *     Pi firmware to halt instead of booting again (QEMU's raspi4b model
 *     shuts down on it);
 *   - semihosting SYS_EXIT, only for an emulator's exit status.
 */
#include <pagoda/arch.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <asm/arm64.h>
#include "platform.h"

#define PSCI_SYSTEM_OFF 0x84000008
#define PSCI_SYSTEM_RESET 0x84000009

#define SEMIHOST_SYS_EXIT 0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

/* BCM2835 power manager registers, each written with a password. */
#define PM_RSTC 0x1c
#define PM_RSTS 0x20
#define PM_WDOG 0x24
#define PM_PASSWORD 0x5a000000
#define PM_RSTC_WRCFG_MASK 0x30
#define PM_RSTC_FULL_RESET 0x20
#define PM_RSTS_PARTITION_63 0x555 /* "halt": the partition bits all say 63 */

static enum { PSCI_NONE, PSCI_HVC, PSCI_SMC } psci_conduit;
static void *pm_regs;
static phys_addr_t pm_phys;

long arm64_semihost(u64 op, const void *block);

void arm64_power_init(const char *psci_method, phys_addr_t pm_base)
{
	if (psci_method && !strcmp(psci_method, "hvc"))
		psci_conduit = PSCI_HVC;
	else if (psci_method && !strcmp(psci_method, "smc"))
		psci_conduit = PSCI_SMC;
	if (pm_base && pm_base != pm_phys) {
		void *regs = early_ioremap(pm_base, 0x100);

		if (regs) {
			pm_regs = regs;
			pm_phys = pm_base;
		}
	}
}

const char *arm64_power_method(void)
{
	if (psci_conduit != PSCI_NONE)
		return psci_conduit == PSCI_HVC ? "PSCI via HVC" : "PSCI via SMC";
	return pm_regs ? "BCM2835 watchdog" : "none (halt only)";
}

static void psci_call(u32 fn)
{
	register u64 x0 __asm__("x0") = fn;

	if (psci_conduit == PSCI_HVC)
		__asm__ volatile("hvc #0" : "+r"(x0) : : "x1", "x2", "x3", "memory");
	else if (psci_conduit == PSCI_SMC)
		__asm__ volatile("smc #0" : "+r"(x0) : : "x1", "x2", "x3", "memory");
}

static void pm_reset(bool halt)
{
	u32 rsts;

	if (!pm_regs)
		return;
	rsts = readl(pm_regs + PM_RSTS) & ~0xfffu;
	if (halt)
		rsts |= PM_RSTS_PARTITION_63;
	writel(PM_PASSWORD | rsts, pm_regs + PM_RSTS);
	writel(PM_PASSWORD | 10, pm_regs + PM_WDOG); /* ~150 us of 16 us ticks */
	writel(PM_PASSWORD | (readl(pm_regs + PM_RSTC) & ~PM_RSTC_WRCFG_MASK) |
		       PM_RSTC_FULL_RESET, pm_regs + PM_RSTC);
	udelay(100000);
}

void arch_emulator_exit(int status)
{
	const u64 block[2] = { ADP_STOPPED_APPLICATION_EXIT, (u64)(u32)status };

	/* Returns (after a fixed-up undefined instruction) without semihosting. */
	arm64_semihost(SEMIHOST_SYS_EXIT, block);
}

void arch_poweroff(void)
{
	arch_irq_disable();
	psci_call(PSCI_SYSTEM_OFF);
	pm_reset(true);
	pr_emerg("poweroff: no way to power off here; halting\n");
	arch_halt_forever();
}

void arch_reboot(void)
{
	arch_irq_disable();
	psci_call(PSCI_SYSTEM_RESET);
	pm_reset(false);
	pr_emerg("reboot: no way to reset here; halting\n");
	arch_halt_forever();
}
