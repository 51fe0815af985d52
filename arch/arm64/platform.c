// SPDX-License-Identifier: MIT
/* The boards arm64 knows by name (see platform.h). */
#include <pagoda/string.h>
#include "platform.h"

static const struct arm64_platform platforms[] = {
	{
		.name = "virt", .compatible = "linux,dummy-virt",
		.uart = 0x09000000, .uart_clock = 0, /* QEMU ignores the rate */
		.gicd = 0x08000000, .gicc = 0x08010000,
	},
	{
		/* BCM2711: peripherals at 0xfe000000 in the "low peripheral" map */
		.name = "pi4", .compatible = "brcm,bcm2711",
		.uart = 0xfe201000, .uart_clock = 48000000,
		.gicd = 0xff841000, .gicc = 0xff842000,
		.pm = 0xfe100000,
	},
};

const struct arm64_platform *platform;

const struct arm64_platform *platform_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(platforms); i++)
		if (!strcmp(platforms[i].name, name))
			return &platforms[i];
	return &platforms[0];
}
