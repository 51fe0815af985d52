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

#define PSCI_CPU_ON_64 0xc4000003
#define PSCI_CPU_OFF 0x84000002
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

/*
 * A PSCI call: function id in x0, arguments in x1-x3, the result in x0
 * (SMC Calling Convention). Firmware may clobber x0-x17; the call is an
 * exception, so nothing else of ours changes.
 */
static long psci_call(u32 fn, u64 a1, u64 a2, u64 a3)
{
	register u64 x0 __asm__("x0") = fn;
	register u64 x1 __asm__("x1") = a1;
	register u64 x2 __asm__("x2") = a2;
	register u64 x3 __asm__("x3") = a3;

	if (psci_conduit == PSCI_HVC)
		__asm__ volatile("hvc #0"
				 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
				 :
				 : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
				   "x13", "x14", "x15", "x16", "x17", "memory");
	else if (psci_conduit == PSCI_SMC)
		__asm__ volatile("smc #0"
				 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
				 :
				 : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
				   "x13", "x14", "x15", "x16", "x17", "memory");
	else
		return -ENODEV;
	return (long)x0;
}

/* PSCI's return codes, as errno values. */
static int psci_errno(long ret)
{
	switch (ret) {
	case 0: return 0;
	case -1: return -ENOSYS;	/* NOT_SUPPORTED */
	case -2: return -EINVAL;	/* INVALID_PARAMETERS */
	case -3: return -EPERM;		/* DENIED */
	case -4: return -EBUSY;		/* ALREADY_ON */
	case -5: return -EBUSY;		/* ON_PENDING */
	case -9: return -EFAULT;	/* INVALID_ADDRESS */
	case -ENODEV: return -ENODEV;	/* no conduit: not a firmware answer */
	default: return -EIO;		/* INTERNAL_FAILURE and anything else */
	}
}

/* Start the CPU whose MPIDR affinity is `hwid` at physical `entry`, MMU off. */
int psci_cpu_on(u64 hwid, phys_addr_t entry, u64 context)
{
	return psci_errno(psci_call(PSCI_CPU_ON_64, hwid, entry, context));
}

bool psci_available(void)
{
	return psci_conduit != PSCI_NONE;
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

void arch_cpu_die(void)
{
	arch_irq_disable();
	/* Off, so that CPU_ON can start it again; returns only when PSCI is absent or refuses. */
	psci_call(PSCI_CPU_OFF, 0, 0, 0);
	arch_halt_forever();
}

void arch_poweroff(void)
{
	arch_irq_disable();
	psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
	pm_reset(true);
	pr_emerg("poweroff: no way to power off here; halting\n");
	arch_halt_forever();
}

void arch_reboot(void)
{
	arch_irq_disable();
	psci_call(PSCI_SYSTEM_RESET, 0, 0, 0);
	pm_reset(false);
	pr_emerg("reboot: no way to reset here; halting\n");
	arch_halt_forever();
}
