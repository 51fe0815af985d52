/* SPDX-License-Identifier: MIT */
/*
 * Bus and driver start-up, called in order from start_kernel() once
 * interrupts, threads and the block layer work: buses find their devices,
 * then drivers bind to them.
 */
#ifndef PAGODA_DRIVERS_H
#define PAGODA_DRIVERS_H

int pci_init(void);			/* drivers/pci: enumerate */
void virtio_pci_init(void);		/* virtio over PCI */
void virtio_mmio_init(void);		/* virtio over MMIO, from the device tree */
void virtio_blk_init(void);		/* the virtio block driver */
void sdhci_init(void);			/* SD host controllers */

/* All of the above, in order. */
void drivers_init(void);

#endif
