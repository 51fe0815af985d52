// SPDX-License-Identifier: MIT
/*
 * The time stamp counter as Pagoda's clock. Its frequency is found in the
 * cheapest reliable way the machine offers:
 *   1. CPUID 0x40000010, where hypervisors (QEMU/KVM with invtsc) state it;
 *   2. kvmclock, whose scale factor encodes the TSC frequency exactly;
 *   3. CPUID 0x15 (crystal ratio) and 0x16 (base MHz) on real hardware;
 *   4. counting TSC ticks across 5 ms of the PIT, which always works.
 * The first three cost nothing at boot; the PIT costs five windows of 5 ms
 * (one PIT tick of error in 5 ms is 0.02%, plenty for a clock we only
 * read), the shortest taken.
 */
#include <pagoda/arch.h>
#include <pagoda/printk.h>
#include <asm/x86.h>

u64 boot_entry_cycles;
static u64 tsc_hz;
static const char *tsc_source = "none";

u64 arch_cycles(void) { return rdtsc(); }
u64 arch_cycles_hz(void) { return tsc_hz; }
const char *tsc_calibration_source(void) { return tsc_source; }

struct pvclock_vcpu_time_info {
	u32 version, pad0;
	u64 tsc_timestamp, system_time;
	u32 tsc_to_system_mul;
	s8 tsc_shift;
	u8 flags, pad[2];
} __packed;

static struct pvclock_vcpu_time_info kvmclock __aligned(64);

#define KVM_CPUID_FEATURES 0x40000001
#define KVM_FEATURE_CLOCKSOURCE2 (1 << 3)
#define MSR_KVM_SYSTEM_TIME_NEW 0x4b564d01

static u64 from_hypervisor_leaf(void)
{
	u32 a, b, c, d, max;

	cpuid(0x40000000, 0, &max, &b, &c, &d);
	if (max < 0x40000010)
		return 0;
	cpuid(0x40000010, 0, &a, &b, &c, &d);
	return (u64)a * 1000;
}

static u64 from_kvmclock(void)
{
	u32 a, b, c, d;
	u64 hz;
	s8 shift;

	cpuid(KVM_CPUID_FEATURES, 0, &a, &b, &c, &d);
	if (!(a & KVM_FEATURE_CLOCKSOURCE2))
		return 0;
	wrmsr(MSR_KVM_SYSTEM_TIME_NEW, __pa_kernel(&kvmclock) | 1);
	while (READ_ONCE(kvmclock.version) & 1 || !READ_ONCE(kvmclock.tsc_to_system_mul))
		arch_cpu_relax();
	wrmsr(MSR_KVM_SYSTEM_TIME_NEW, 0);
	/* ns = (tsc << shift) * mul / 2^32, so hz = 10^9 * 2^32 / mul >> shift. */
	hz = (u64)((1000000000ULL << 32) / kvmclock.tsc_to_system_mul);
	shift = kvmclock.tsc_shift;
	return shift >= 0 ? hz >> shift : hz << -shift;
}

static u64 from_cpuid_15h(void)
{
	u32 a, b, c, d;

	if (cpu.max_leaf < 0x15 || cpu.hypervisor)
		return 0;
	cpuid(0x15, 0, &a, &b, &c, &d);
	if (a && b && c)
		return (u64)c * b / a;
	if (cpu.max_leaf >= 0x16) {
		cpuid(0x16, 0, &a, &b, &c, &d);
		return (u64)(a & 0xffff) * 1000000;
	}
	return 0;
}

/*
 * PIT channel 2, gated through port 0x61, counting down 5 ms, TSC ticks
 * counted across it. A vCPU the host deschedules inside the window (under
 * TCG each port read is a trip into QEMU) only ever makes it look longer:
 * the TSC is read before the count is started and after the end is seen.
 * So the shortest of a few windows is the truest. One window on a loaded
 * host read 4.05 GHz and once 54 GHz for a 2.3 GHz TSC, and every time
 * the kernel measured after that was off by as much.
 */
#define PIT_TRIES 5

static u64 pit_window(u16 count)
{
	u64 t0, t1;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01); /* gate on, speaker off */
	outb(0x43, 0xb0); /* channel 2, lobyte/hibyte, mode 0 */
	outb(0x42, count & 0xff);
	t0 = rdtsc();
	outb(0x42, count >> 8); /* the high byte starts the count */
	while (!(inb(0x61) & 0x20))
		;
	t1 = rdtsc();
	return t1 - t0;
}

static u64 from_pit(void)
{
	const u32 pit_hz = 1193182, ms = 5;
	u16 count = pit_hz * ms / 1000;
	u64 best = ~0ULL;

	for (int i = 0; i < PIT_TRIES; i++) {
		u64 ticks = pit_window(count);

		if (ticks < best)
			best = ticks;
	}
	return best * 1000 / ms;
}

void tsc_init(void)
{
	if ((tsc_hz = from_hypervisor_leaf()))
		tsc_source = "hypervisor CPUID leaf";
	else if ((tsc_hz = from_kvmclock()))
		tsc_source = "kvmclock";
	else if ((tsc_hz = from_cpuid_15h()))
		tsc_source = "CPUID 15h/16h";
	else {
		tsc_hz = from_pit();
		tsc_source = "PIT";
	}
}
