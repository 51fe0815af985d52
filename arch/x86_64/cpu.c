// SPDX-License-Identifier: MIT
/* What the CPU offers, read once from CPUID at boot. */
#include <pagoda/arch.h>
#include <pagoda/string.h>
#include <asm/x86.h>

struct cpu_features cpu;

enum { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

/*
 * Where CPUID reports each feature we use: leaf, register, bit (Linux's
 * struct cpuid_bit, arch/x86/kernel/cpu/scattered.c). A feature is one
 * row here; cpu_detect() asks only for the leaves the CPU has.
 */
struct cpuid_bit {
	bool *feature;
	u32 leaf;
	u8 reg, bit;
};

static const struct cpuid_bit cpuid_bits[] = {
	{ &cpu.rdrand,        0x00000001, CPUID_ECX, 30 },
	{ &cpu.x2apic,        0x00000001, CPUID_ECX, 21 },
	{ &cpu.tsc_deadline,  0x00000001, CPUID_ECX, 24 },
	{ &cpu.hypervisor,    0x00000001, CPUID_ECX, 31 },
	{ &cpu.rdseed,        0x00000007, CPUID_EBX, 18 },
	{ &cpu.nx,            0x80000001, CPUID_EDX, 20 },
	{ &cpu.pdpe1gb,       0x80000001, CPUID_EDX, 26 },
	{ &cpu.rdtscp,        0x80000001, CPUID_EDX, 27 },
	{ &cpu.invariant_tsc, 0x80000007, CPUID_EDX, 8 },
};

void cpu_detect(void)
{
	u32 a, b, c, d;

	cpuid(0, 0, &cpu.max_leaf, &b, &c, &d);
	memcpy(cpu.vendor, &b, 4);
	memcpy(cpu.vendor + 4, &d, 4);
	memcpy(cpu.vendor + 8, &c, 4);
	cpuid(0x80000000, 0, &cpu.max_ext_leaf, &b, &c, &d);
	for (size_t i = 0; i < ARRAY_SIZE(cpuid_bits); i++) {
		const struct cpuid_bit *cb = &cpuid_bits[i];
		/* Basic and extended leaves each have their own highest one. */
		u32 max = cb->leaf & 0x80000000 ? cpu.max_ext_leaf : cpu.max_leaf;
		u32 r[4];

		if (cb->leaf > max)
			continue;
		cpuid(cb->leaf, 0, &r[CPUID_EAX], &r[CPUID_EBX], &r[CPUID_ECX], &r[CPUID_EDX]);
		*cb->feature = r[cb->reg] & (1u << cb->bit);
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
