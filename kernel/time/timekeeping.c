// SPDX-License-Identifier: MIT
/*
 * Time since boot: the arch's free-running counter (TSC, CNTVCT) scaled by
 * its frequency, measured from the counter value the entry code saved at
 * the very first instruction, so "since boot" includes the boot code
 * itself. That counter is the one clocksource; there is no tick-driven
 * clock to fall behind, so the clock works before interrupts do, in printk's
 * first line and in a panic. The timers, the clockevent and the real-time
 * offset are built on it in timer.c. Pure code: the host tests link it too.
 */
#include <pagoda/arch.h>
#include <pagoda/time.h>

/*
 * a * b / c without a 128-bit division (which would need libgcc): split a
 * into whole multiples of c and a remainder. Exact while (c - 1) * b fits
 * in 64 bits, true for any counter below 18 GHz and b = 10^9.
 */
static u64 mul_div(u64 a, u64 b, u64 c)
{
	return (a / c) * b + (a % c) * b / c;
}

u64 cycles_to_ns(u64 cycles)
{
	u64 hz = arch_cycles_hz();

	return hz ? mul_div(cycles, NSEC_PER_SEC, hz) : 0;
}

u64 ktime_get_ns(void)
{
	return cycles_to_ns(arch_cycles() - boot_entry_cycles);
}

void udelay(u64 us)
{
	u64 hz = arch_cycles_hz(), start = arch_cycles();
	u64 wait = mul_div(us, hz, 1000000);

	while (arch_cycles() - start < wait)
		arch_cpu_relax();
}

u64 ktime_to_cycles(u64 ns)
{
	return boot_entry_cycles + mul_div(ns, arch_cycles_hz(), NSEC_PER_SEC);
}
