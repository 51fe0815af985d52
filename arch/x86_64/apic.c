// SPDX-License-Identifier: MIT
/*
 * The local APIC: each CPU's interrupt controller, timer and IPI sender;
 * and the ACPI MADT, which lists the CPUs (by APIC id) and I/O APICs.
 *
 * x2APIC mode is used when the CPU has it: registers become MSRs
 * (0x800 + offset/16), the ICR is one 64-bit write, and no MMIO mapping is
 * needed. Otherwise the xAPIC registers are reached at 0xfee00000 through
 * the direct map.
 *
 * The timer is the per-CPU clockevent. With TSC-deadline mode (CPUID.1:
 * ECX[24]) the deadline is written as an absolute TSC value, exactly the
 * portable interface; without it, one-shot mode counts down a bus-clock
 * count computed from the distance to the deadline (calibrated against the
 * TSC at boot).
 */
#include <pagoda/arch.h>
#include <pagoda/irq.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/vmalloc.h>
#include <asm/x86.h>
#include "acpi.h"

#define MSR_APIC_BASE 0x1b
#define APIC_BASE_ENABLE (1u << 11)
#define APIC_BASE_X2APIC (1u << 10)
#define MSR_TSC_DEADLINE 0x6e0

enum {
	APIC_ID = 0x20, APIC_TPR = 0x80, APIC_EOI = 0xb0, APIC_SVR = 0xf0,
	APIC_ICR_LO = 0x300, APIC_ICR_HI = 0x310, APIC_LVT_TIMER = 0x320,
	APIC_LVT_LINT0 = 0x350, APIC_LVT_LINT1 = 0x360, APIC_LVT_ERROR = 0x370,
	APIC_TIMER_INIT = 0x380, APIC_TIMER_CUR = 0x390, APIC_TIMER_DIV = 0x3e0,
};
#define SVR_ENABLE (1u << 8)
#define LVT_MASKED (1u << 16)
#define LVT_TSC_DEADLINE (2u << 17)
#define ICR_INIT (5u << 8)
#define ICR_STARTUP (6u << 8)
#define ICR_BUSY (1u << 12)
#define ICR_ASSERT (1u << 14)
#define ICR_LEVEL (1u << 15)

static u64 lapic_phys; /* from IA32_APIC_BASE, which firmware set from the MADT */
static volatile u32 *lapic_mmio;
static bool use_x2apic;
static bool use_tsc_deadline;
static u64 apic_timer_hz; /* one-shot mode: counts per second after /16 */

u32 x86_apic_ids[NR_CPUS];
unsigned int x86_nr_cpus = 1;

static u32 apic_read(u32 reg)
{
	if (use_x2apic)
		return (u32)rdmsr(0x800 + (reg >> 4));
	return lapic_mmio[reg / 4];
}

static void apic_write(u32 reg, u32 v)
{
	if (use_x2apic)
		wrmsr(0x800 + (reg >> 4), v);
	else
		lapic_mmio[reg / 4] = v;
}

u32 lapic_id(void)
{
	u32 id = apic_read(APIC_ID);

	return use_x2apic ? id : id >> 24;
}

void lapic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

static void icr_send(u32 apic_id, u32 lo)
{
	unsigned long flags = arch_irq_save();

	if (use_x2apic) {
		wrmsr(0x830, ((u64)apic_id << 32) | lo);
	} else {
		while (apic_read(APIC_ICR_LO) & ICR_BUSY)
			arch_cpu_relax();
		apic_write(APIC_ICR_HI, apic_id << 24);
		apic_write(APIC_ICR_LO, lo);
	}
	arch_irq_restore(flags);
}

void lapic_send_init_sipi(u32 apic_id, u8 sipi_vector, bool init)
{
	if (init)
		icr_send(apic_id, ICR_INIT | ICR_ASSERT | ICR_LEVEL);
	else
		icr_send(apic_id, ICR_STARTUP | sipi_vector);
}

void arch_send_ipi(unsigned int cpu, enum ipi_type type)
{
	if (cpu >= x86_nr_cpus)
		return;
	icr_send(x86_apic_ids[cpu], ICR_ASSERT | (IPI_VECTOR_BASE + type));
}

u64 arch_cpu_hwid(unsigned int cpu)
{
	return cpu < x86_nr_cpus ? x86_apic_ids[cpu] : ~0ULL;
}

/* Turn this CPU's local APIC on, in the mode the boot CPU chose. */
void lapic_init_cpu(void)
{
	u64 base = rdmsr(MSR_APIC_BASE) | APIC_BASE_ENABLE;

	if (use_x2apic)
		base |= APIC_BASE_X2APIC;
	wrmsr(MSR_APIC_BASE, base);
	apic_write(APIC_TPR, 0);
	apic_write(APIC_LVT_LINT0, LVT_MASKED);
	apic_write(APIC_LVT_LINT1, LVT_MASKED);
	apic_write(APIC_LVT_ERROR, LVT_MASKED);
	apic_write(APIC_SVR, SVR_ENABLE | SPURIOUS_VECTOR);
	apic_write(APIC_LVT_TIMER, LVT_MASKED);
}

/* ---- the timer ------------------------------------------------------------ */

void lapic_timer_init(void)
{
	if (use_tsc_deadline) {
		apic_write(APIC_LVT_TIMER, LVT_TSC_DEADLINE | TIMER_VECTOR);
		/* The SDM asks for a fence between the LVT write and the MSR. */
		__asm__ volatile("mfence" ::: "memory");
		wrmsr(MSR_TSC_DEADLINE, 0);
		return;
	}
	apic_write(APIC_TIMER_DIV, 0x3); /* divide by 16 */
	apic_write(APIC_LVT_TIMER, TIMER_VECTOR); /* one-shot */
	apic_write(APIC_TIMER_INIT, 0);
}

static void calibrate_apic_timer(void)
{
	u32 left;

	apic_write(APIC_TIMER_DIV, 0x3);
	apic_write(APIC_LVT_TIMER, LVT_MASKED);
	apic_write(APIC_TIMER_INIT, 0xffffffff);
	udelay(10000);
	left = apic_read(APIC_TIMER_CUR);
	apic_write(APIC_TIMER_INIT, 0);
	apic_timer_hz = (u64)(0xffffffffu - left) * 100;
}

void arch_timer_set_deadline(u64 cycles)
{
	if (use_tsc_deadline) {
		/* 0 disarms; a deadline in the past fires at once. */
		wrmsr(MSR_TSC_DEADLINE, cycles == U64_MAX ? 0 : MAX(cycles, 1ULL));
		return;
	}
	if (cycles == U64_MAX) {
		apic_write(APIC_TIMER_INIT, 0);
		return;
	}
	u64 now = rdtsc(), delta = cycles > now ? cycles - now : 0;
	/* delta TSC cycles in APIC counts, without overflowing 64 bits. */
	u64 count = delta / 1024 * apic_timer_hz / (arch_cycles_hz() / 1024 + 1);

	apic_write(APIC_TIMER_INIT, (u32)MIN(MAX(count, 1ULL), 0xffffffffULL));
}

const char *arch_timer_name(void)
{
	return use_tsc_deadline ? "lapic-tsc-deadline" : "lapic-oneshot";
}

/* ---- MADT ----------------------------------------------------------------- */

struct madt {
	struct acpi_header h;
	u32 lapic_addr;
	u32 flags;
	u8 entries[];
} __packed;

static void madt_parse(void)
{
	const struct madt *m = (const struct madt *)acpi_find_table("APIC");
	const u8 *p, *end;
	u32 boot_id = lapic_id();
	unsigned int n = 1;

	x86_apic_ids[0] = boot_id;
	if (!m) {
		pr_warn("apic: no MADT; one CPU, I/O APIC at the default address\n");
		ioapic_add(0, 0xfec00000, 0);
		return;
	}
	p = m->entries;
	end = (const u8 *)m + m->h.length;
	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		u8 type = p[0], len = p[1];
		u32 id = ~0u, flags = 0;

		if (type == 0 && len >= 8) { /* processor local APIC */
			id = p[3];
			memcpy(&flags, p + 4, 4);
		} else if (type == 9 && len >= 16) { /* processor local x2APIC */
			memcpy(&id, p + 4, 4);
			memcpy(&flags, p + 8, 4);
		} else if (type == 1 && len >= 12) { /* I/O APIC */
			u32 addr, gsi;

			memcpy(&addr, p + 4, 4);
			memcpy(&gsi, p + 8, 4);
			ioapic_add(p[2], addr, gsi);
		} else if (type == 2 && len >= 10) { /* interrupt source override */
			u32 gsi;
			u16 fl;

			memcpy(&gsi, p + 4, 4);
			memcpy(&fl, p + 8, 2);
			if (p[2] == 0)
				ioapic_add_override(p[3], gsi, fl);
		}
		/* Enabled (bit 0) CPUs only; "online capable" ones are hotplug. */
		if (id != ~0u && (flags & 1) && id != boot_id) {
			if (n < NR_CPUS)
				x86_apic_ids[n++] = id;
			else
				pr_warn("apic: more CPUs than NR_CPUS (%d); APIC id %u ignored\n",
					NR_CPUS, id);
		}
		p += len;
	}
	x86_nr_cpus = n;
}

void lapic_init_boot(void)
{
	use_x2apic = cpu.x2apic;
	use_tsc_deadline = cpu.tsc_deadline;
	if (!use_x2apic) {
		lapic_phys = rdmsr(MSR_APIC_BASE) & 0xffffff000ULL;
		lapic_mmio = ioremap(lapic_phys, PAGE_SIZE);
		if (!lapic_mmio)
			panic("apic: cannot map the local APIC at %#llx",
			      (unsigned long long)lapic_phys);
	}
	lapic_init_cpu();
	madt_parse();
	if (!use_tsc_deadline)
		calibrate_apic_timer();
	lapic_timer_init();
	pr_info("apic: %s, boot APIC id %u, %u CPU(s) in the MADT, timer %s",
		use_x2apic ? "x2APIC" : "xAPIC", lapic_id(), x86_nr_cpus, arch_timer_name());
	if (!use_tsc_deadline)
		pr_cont(" at %llu kHz", (unsigned long long)(apic_timer_hz / 1000));
	pr_cont("\n");
}
