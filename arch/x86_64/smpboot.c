// SPDX-License-Identifier: MIT
/*
 * Starting the other CPUs: INIT, STARTUP, STARTUP (the MP specification's
 * INIT-SIPI-SIPI) pointing each at a copy of trampoline.asm in low memory,
 * which climbs to 64-bit mode and calls ap_entry(cpu) on the idle stack the
 * portable code gave us. One CPU is started at a time, so one trampoline
 * page and one data block serve all.
 */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/memblock.h>
#include <pagoda/mm.h>
#include <pagoda/printk.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include <asm/x86.h>

/*
 * A fixed page below 1 MiB (a SIPI vector names a page there), reserved in
 * memblock before mm_init() hands free memory to the buddy allocator.
 * 0x8000 is usable RAM under every PC firmware; the memory map is checked.
 */
#define TRAMPOLINE_PA 0x8000ULL
static bool trampoline_ok;

struct trampoline_data {
	u64 cr3, efer, stack, entry, cpu;
};

extern const u8 trampoline_start[], trampoline_end[], trampoline_data[];

/* The trampoline's page tables: low 1 GiB 1:1, plus the kernel's upper half. */
static u64 tramp_pml4[512] __aligned(4096);
static u64 tramp_pdpt[512] __aligned(4096);
static u64 tramp_pd[512] __aligned(4096);

static u64 kernel_cr3, kernel_cr4, kernel_cr0;
static volatile int ap_alive;

unsigned int arch_smp_prepare(void)
{
	u64 *kpml4 = __va(read_cr3() & ~0xfffULL);

	for (int i = 0; i < 512; i++)
		tramp_pd[i] = ((u64)i << 21) | 0x83; /* present, writable, 2 MiB */
	tramp_pdpt[0] = __pa_kernel(tramp_pd) | 3;
	memset(tramp_pml4, 0, sizeof(tramp_pml4));
	tramp_pml4[0] = __pa_kernel(tramp_pdpt) | 3;
	for (int i = 256; i < 512; i++)
		tramp_pml4[i] = kpml4[i];
	kernel_cr3 = read_cr3();
	kernel_cr4 = read_cr4();
	kernel_cr0 = read_cr0();
	return x86_nr_cpus;
}

void smp_reserve_trampoline(void)
{
	for (u32 i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *r = &boot_info.mem[i];

		if (r->type == BOOT_MEM_USABLE && r->base <= TRAMPOLINE_PA &&
		    r->base + r->size >= TRAMPOLINE_PA + PAGE_SIZE) {
			trampoline_ok = !memblock_reserve(TRAMPOLINE_PA, PAGE_SIZE);
			break;
		}
	}
	if (!trampoline_ok)
		pr_warn("smp: page %#llx is not free RAM; only the boot CPU will run\n",
			TRAMPOLINE_PA);
}

void ap_entry(unsigned long cpu);
void ap_entry(unsigned long cpu)
{
	write_cr3(kernel_cr3);
	write_cr4(kernel_cr4);
	write_cr0(kernel_cr0);
	x86_cpu_tables_init((unsigned int)cpu);
	ap_alive = 1;
	secondary_start_kernel((unsigned int)cpu);
}

void arch_secondary_init(void)
{
	lapic_init_cpu();
	lapic_timer_init();
}

int arch_cpu_start(unsigned int n, void *stack_top)
{
	size_t size = (size_t)(trampoline_end - trampoline_start);
	u8 *page = __va(TRAMPOLINE_PA);
	struct trampoline_data *d;
	u32 apic = x86_apic_ids[n];
	u64 deadline;

	if (n >= x86_nr_cpus)
		return -EINVAL;
	if (!trampoline_ok)
		return -ENOMEM;
	memcpy(page, trampoline_start, size);
	d = (struct trampoline_data *)(page + (trampoline_data - trampoline_start));
	d->cr3 = __pa_kernel(tramp_pml4);
	d->efer = (1u << 8) | (cpu.nx ? EFER_NXE : 0); /* LME (+NXE) */
	d->stack = (u64)stack_top & ~15ULL;
	d->entry = (u64)ap_entry;
	d->cpu = n;
	ap_alive = 0;
	__asm__ volatile("mfence" ::: "memory");

	lapic_send_init_sipi(apic, 0, true);
	udelay(10000);
	for (int i = 0; i < 2 && !ap_alive; i++) {
		lapic_send_init_sipi(apic, TRAMPOLINE_PA >> 12, false);
		deadline = ktime_get_ns() + (i ? 100 : 1) * NSEC_PER_MSEC;
		while (!ap_alive && ktime_get_ns() < deadline)
			arch_cpu_relax();
	}
	/* Under emulation a CPU can take a while to get going. */
	deadline = ktime_get_ns() + NSEC_PER_SEC;
	while (!ap_alive && ktime_get_ns() < deadline)
		arch_cpu_relax();
	return ap_alive ? 0 : -ETIMEDOUT;
}
