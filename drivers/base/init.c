// SPDX-License-Identifier: MIT
/*
 * Device start-up in one place: drivers register first, then the buses
 * enumerate and each device found is bound as it is registered. A bus or
 * driver that finds nothing is silent; one that fails says why and the
 * rest go on.
 */
#include <pagoda/drivers.h>

void drivers_init(void)
{
	virtio_blk_init();
	pci_init();
	virtio_pci_init();
	virtio_mmio_init();
	sdhci_init();
}
