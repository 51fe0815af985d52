/* SPDX-License-Identifier: MIT */
/*
 * The GIC, as the rest of arch/arm64 uses it: one small driver per
 * version (gic_v2.c: GICv2/GIC-400, memory-mapped CPU interface;
 * gic_v3.c: GICv3, redistributors and ICC_* system registers) behind
 * these operations, picked from the device tree by gic_probe() (gic.c).
 *
 * INTIDs are the same in both: 0-15 SGIs (the IPIs), 16-31 PPIs (per-CPU
 * lines such as the timer), 32 and up SPIs (devices).
 */
#ifndef ARM64_GIC_H
#define ARM64_GIC_H

#include <pagoda/types.h>
#include <asm/arm64.h>

struct gic_ops {
	const char *name;			/* "GICv2", "GICv3" */
	void (*dist_init)(void);		/* once, on the boot CPU */
	void (*cpu_init)(void);			/* on every CPU, itself */
	int (*unmask)(unsigned int irq);	/* a PPI for this CPU, or an SPI */
	void (*mask)(unsigned int irq);
	void (*send_sgi)(unsigned int cpu, unsigned int sgi);
	/* Acknowledge and dispatch every pending interrupt (the IRQ vector). */
	void (*handle_irq)(void (*dispatch)(unsigned int intid));
};

/* The driver in use, NULL until gic_probe() found one. */
extern const struct gic_ops *gic;

/* Both return the driver, or NULL (and say why) when the GIC is unusable. */
const struct gic_ops *gic_v2_probe(phys_addr_t dist, phys_addr_t cpu);
const struct gic_ops *gic_v3_probe(phys_addr_t dist, phys_addr_t redist, u64 redist_size);

/* Pick and probe the GIC the device tree names (fallback: the platform's). */
void gic_probe(void);

static inline bool gic_present(void)
{
	return gic != NULL;
}

/* The priority every line gets (no nesting), and the mask that lets it in. */
#define GIC_PRIO 0xa0
#define GIC_PRIO_MASK 0xf0

#endif
