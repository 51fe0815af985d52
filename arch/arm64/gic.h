/* SPDX-License-Identifier: MIT */
/* The GICv2 driver (gic.c), as the rest of arch/arm64 uses it. */
#ifndef ARM64_GIC_H
#define ARM64_GIC_H

#include <pagoda/types.h>
#include <asm/arm64.h>

void gic_probe(phys_addr_t dist, phys_addr_t cpu);
bool gic_present(void);
void gic_dist_init(void);
void gic_cpu_init(void);
int gic_unmask(unsigned int irq);
void gic_mask(unsigned int irq);
void gic_send_sgi(unsigned int cpu, unsigned int sgi);
/* Acknowledge and dispatch every pending interrupt (the IRQ vector). */
void gic_handle_irq(void (*dispatch)(unsigned int intid));

#endif
