// SPDX-License-Identifier: MIT
/* What the CPU offers, read once from CPUID at boot. */
#include <pagoda/arch.h>
#include <pagoda/string.h>
#include <asm/x86.h>

struct cpu_features cpu;

void cpu_detect(void)
{
	u32 a, b, c, d;

	cpuid(0, 0, &cpu.max_leaf, &b, &c, &d);
	memcpy(cpu.vendor, &b, 4);
	memcpy(cpu.vendor + 4, &d, 4);
	memcpy(cpu.vendor + 8, &c, 4);
	cpuid(1, 0, &a, &b, &c, &d);
	cpu.rdrand = c & (1u << 30);
	cpu.x2apic = c & (1u << 21);
	cpu.tsc_deadline = c & (1u << 24);
	cpu.hypervisor = c & (1u << 31);
	if (cpu.max_leaf >= 7) {
		cpuid(7, 0, &a, &b, &c, &d);
		cpu.rdseed = b & (1u << 18);
	}
	cpuid(0x80000000, 0, &cpu.max_ext_leaf, &b, &c, &d);
	if (cpu.max_ext_leaf >= 0x80000001) {
		cpuid(0x80000001, 0, &a, &b, &c, &d);
		cpu.nx = d & (1u << 20);
		cpu.pdpe1gb = d & (1u << 26);
		cpu.rdtscp = d & (1u << 27);
	}
	if (cpu.max_ext_leaf >= 0x80000007) {
		cpuid(0x80000007, 0, &a, &b, &c, &d);
		cpu.invariant_tsc = d & (1u << 8);
	}
	if (cpu.hypervisor) {
		cpuid(0x40000000, 0, &a, &b, &c, &d);
		memcpy(cpu.hv_vendor, &b, 4);
		memcpy(cpu.hv_vendor + 4, &c, 4);
		memcpy(cpu.hv_vendor + 8, &d, 4);
	}
}

/*
 * RDSEED draws from the entropy source itself, RDRAND from a generator it
 * reseeds; either may transiently fail (carry clear), so retry a little.
 */
bool arch_get_random_seed_u64(u64 *v)
{
	for (int tries = 0; tries < 10; tries++) {
		bool ok = false;

		if (cpu.rdseed)
			__asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok));
		else if (cpu.rdrand)
			__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
		else
			return false;
		if (ok)
			return true;
	}
	return false;
}
