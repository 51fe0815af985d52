/* SPDX-License-Identifier: MIT */
/*
 * The boards arm64 knows by name. The device tree is the authority on
 * where things are; these are the fallbacks used before it is read (the
 * early console) and when it is silent.
 */
#ifndef ARM64_PLATFORM_H
#define ARM64_PLATFORM_H

#include <pagoda/types.h>

struct arm64_platform {
	const char *name;       /* PLATFORM= in the build: "virt", "pi4" */
	const char *compatible; /* the root node's compatible that names it */
	phys_addr_t uart;       /* PL011 for the early console */
	u32 uart_clock;         /* its reference clock in Hz, 0: leave the baud rate */
	phys_addr_t gicd, gicc; /* GICv2 distributor and CPU interface */
	phys_addr_t gpio;       /* BCM2711 GPIO block, for the console pins; 0 if none */
	bool psci;              /* firmware offers PSCI (HVC from EL1, SMC from EL2) */
	phys_addr_t pm;         /* BCM2835 power manager (watchdog), 0 if none */
};

extern const struct arm64_platform *platform;
const struct arm64_platform *platform_by_name(const char *name);
/* The platform the device tree's root compatible names, or NULL. */
const struct arm64_platform *platform_by_compatible(const void *fdt);
/* Route the console UART to the pins a person connects to, where needed. */
void platform_console_pins(const struct arm64_platform *p);

/* power.c: either argument may be NULL/0 for "keep what is set". */
void arm64_power_init(const char *psci_method, phys_addr_t pm_base);
const char *arm64_power_method(void);
/* PSCI CPU_ON: 0 or a negative errno (-ENODEV when there is no PSCI). */
int psci_cpu_on(u64 hwid, phys_addr_t entry, u64 context);
bool psci_available(void);
/* cpu.c */
const char *arm64_counter_init(u64 fallback);
/* rtc.c: find the PL031 real-time clock, if the device tree has one. */
void arm64_rtc_probe(const void *fdt);
/* mmu.c */
void paging_boot_done(void);

#endif
