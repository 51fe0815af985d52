// SPDX-License-Identifier: MIT
/*
 * The real-time clock: the date at boot, for CLOCK_REALTIME (x86 reads
 * the CMOS clock; see arch_rtc_read_seconds in arch.h).
 *
 * QEMU virt has an ARM PL031 (device tree: "arm,pl031"): its data
 * register RTCDR simply counts seconds since 1970, so a read is the
 * answer. The Raspberry Pi 4 has no battery-backed clock at all (Linux
 * there learns the date from the network), so it has none to read and the
 * date starts at 1970, as portable code expects when this returns an error.
 */
#include <pagoda/arch.h>
#include <pagoda/fdt.h>
#include <pagoda/printk.h>
#include <pagoda/string.h>
#include <asm/arm64.h>
#include "platform.h"

#define RTCDR 0x000	/* data: seconds */
#define RTCCR 0x00c	/* control: bit 0 starts the counter */
#define RTC_PERIPH_ID0 0xfe0
#define RTC_CELL_ID0 0xff0

static void *pl031;

/* Four registers, one byte each, little end first: the PrimeCell ids. */
static u32 id_bytes(unsigned int off)
{
	u32 v = 0;

	for (unsigned int i = 0; i < 4; i++)
		v |= (readl(pl031 + off + 4 * i) & 0xff) << (8 * i);
	return v;
}

void arm64_rtc_probe(const void *fdt)
{
	int n = fdt_node_by_compatible(fdt, -1, "arm,pl031");
	u64 base, size;
	u32 periph;

	while (n >= 0 && !fdt_node_enabled(fdt, n))
		n = fdt_node_by_compatible(fdt, n, "arm,pl031");
	if (n < 0) {
		pr_info("rtc: no PL031 in the device tree%s\n",
			!strcmp(platform->name, "pi4") ?
			" (a Raspberry Pi 4 has no battery-backed clock)" : "");
		return;
	}
	if (fdt_reg_cpu(fdt, n, 0, &base, &size) || size < 0x1000) {
		pr_warn("rtc: the PL031 node has no usable reg; no real-time clock\n");
		return;
	}
	pl031 = early_ioremap(base, 0x1000);
	if (!pl031) {
		pr_warn("rtc: cannot map the PL031 at %llx\n", (unsigned long long)base);
		return;
	}
	/* PrimeCell id 0xb105f00d; peripheral part number 0x031. */
	periph = id_bytes(RTC_PERIPH_ID0);
	if (id_bytes(RTC_CELL_ID0) != 0xb105f00d || (periph & 0xfff) != 0x031) {
		pr_warn("rtc: %llx does not identify as a PL031 (ids %#x %#x); not using it\n",
			(unsigned long long)base, id_bytes(RTC_CELL_ID0), periph);
		pl031 = NULL;
		return;
	}
	if (!(readl(pl031 + RTCCR) & 1))
		writel(1, pl031 + RTCCR);
	pr_info("rtc: PL031 at %llx\n", (unsigned long long)base);
}

s64 arch_rtc_read_seconds(void)
{
	if (!pl031)
		return -ENODEV;
	return readl(pl031 + RTCDR);
}
