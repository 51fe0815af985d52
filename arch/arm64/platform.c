// SPDX-License-Identifier: MIT
/* The boards arm64 knows by name (see platform.h). */
#include <pagoda/fdt.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <asm/arm64.h>
#include "platform.h"

static const struct arm64_platform platforms[] = {
	{
		.name = "virt", .compatible = "linux,dummy-virt",
		.uart = 0x09000000, .uart_clock = 0, /* QEMU ignores the rate */
		.gicd = 0x08000000, .gicc = 0x08010000,
		.psci = true,
	},
	{
		/* BCM2711: peripherals at 0xfe000000 in the "low peripheral" map */
		.name = "pi4", .compatible = "brcm,bcm2711",
		.uart = 0xfe201000, .uart_clock = 48000000,
		.gicd = 0xff841000, .gicc = 0xff842000,
		.gpio = 0xfe200000,
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

const struct arm64_platform *platform_by_compatible(const void *fdt)
{
	for (size_t i = 0; i < ARRAY_SIZE(platforms); i++)
		if (fdt_node_is_compatible(fdt, fdt_root(fdt), platforms[i].compatible))
			return &platforms[i];
	return NULL;
}

/*
 * On the Pi 4, GPIO 14/15 (header pins 8 and 10) carry the mini UART
 * unless config.txt's dtoverlay=disable-bt moves the PL011 there, and
 * Debian ships no overlays. So route them here: function ALT0 on GPIO
 * 14/15 is UART0 (the PL011). GPIO 30-33, where the firmware put UART0
 * for the Bluetooth chip, become plain inputs, so the PL011 listens to one
 * pin only. Each GPFSELn register holds 3 function bits for 10 pins.
 */
#define GPIO_FUNC_INPUT 0
#define GPIO_FUNC_ALT0 4

static void gpio_set_function(void *gpio, unsigned int pin, u32 func)
{
	void *reg = (u8 *)gpio + 4 * (pin / 10);
	unsigned int shift = 3 * (pin % 10);

	writel((readl(reg) & ~(7u << shift)) | (func << shift), reg);
}

void platform_console_pins(const struct arm64_platform *p)
{
	void *gpio;

	if (!p->gpio)
		return;
	gpio = early_ioremap(p->gpio, 0x100);
	if (!gpio) {
		pr_warn("console: cannot map the GPIO block; UART pins left as the firmware set them\n");
		return;
	}
	for (unsigned int pin = 30; pin <= 33; pin++)
		gpio_set_function(gpio, pin, GPIO_FUNC_INPUT);
	gpio_set_function(gpio, 14, GPIO_FUNC_ALT0);
	gpio_set_function(gpio, 15, GPIO_FUNC_ALT0);
}
