/* SPDX-License-Identifier: MIT */
/* Thin wrappers over x86 instructions, for arch/x86_64 code only. */
#ifndef ASM_X86_H
#define ASM_X86_H

#include <pagoda/types.h>
#include "../../layout.h"

static inline void outb(u16 port, u8 v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { __asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { __asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port)); }
static inline u8 inb(u16 port)
{
	u8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u16 inw(u16 port)
{
	u16 v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u32 inl(u16 port)
{
	u32 v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}
static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" ::"c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid"
			 : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			 : "a"(leaf), "c"(sub));
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

#define DEFINE_CR(n)                                                         \
	static inline u64 read_cr##n(void)                                   \
	{                                                                    \
		u64 v;                                                       \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));            \
		return v;                                                    \
	}                                                                    \
	static inline void write_cr##n(u64 v)                                \
	{                                                                    \
		__asm__ volatile("mov %0, %%cr" #n ::"r"(v) : "memory");     \
	}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)

#define CR4_PGE (1 << 7)
#define CR4_OSFXSR (1 << 9)
#define CR4_SMEP (1 << 20)
#define MSR_EFER 0xc0000080
#define EFER_NXE (1 << 11)

/* Physical <-> direct-map virtual, and kernel-image virtual -> physical. */
#define __pa_kernel(va) ((u64)(va) - KERNEL_VIRT)

struct cpu_features {
	bool nx, pdpe1gb, rdrand, rdseed, x2apic, hypervisor, invariant_tsc, tsc_deadline, rdtscp;
	u32 max_leaf, max_ext_leaf;
	char vendor[13];
	char hv_vendor[13];
};
extern struct cpu_features cpu;
void cpu_detect(void);
/* CRC-32C with SSE4.2, when the CPU has it (crc32c.c). */
void x86_crc32c_init(void);

/* Saved by the exception entry stubs (entry.asm); the layout is shared. */
struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error_code;
	u64 rip, cs, rflags, rsp, ss;
};

void idt_init(void);
void gdt_init(void);
void x86_cpu_tables_init(unsigned int cpu);
void x86_set_kernel_stack(unsigned int cpu, u64 top);
/* user.c */
struct task;
void x86_user_init(void);
void x86_user_cpu_init(unsigned int cpu);
void x86_switch_to(struct task *t);
/* fpu.c */
void x86_fpu_cpu_init(void);
/* GS base points at per-CPU data: current and this_cpu() work. */
extern bool x86_percpu_ready;

/* Interrupt vectors. */
#define IRQ_VECTOR_BASE 0x30   /* I/O APIC GSI n -> 0x30 + n */
#define NR_GSI_VECTORS 64      /* GSIs 0-63 have vectors 0x30-0x6f */
#define TIMER_VECTOR 0xec
#define IPI_VECTOR_BASE 0xf0   /* + enum ipi_type */
#define SPURIOUS_VECTOR 0xff

/* Local APIC (apic.c) */
void lapic_init_boot(void);
void lapic_init_cpu(void);
void lapic_eoi(void);
u32 lapic_id(void);
void lapic_send_init_sipi(u32 apic_id, u8 sipi_vector, bool init);
void lapic_timer_init(void);
/* I/O APIC (ioapic.c) */
void ioapic_init(void);
void ioapic_add(u8 id, u64 addr, u32 gsi_base);
void ioapic_add_override(u8 isa_irq, u32 gsi, u16 flags);
/* The GSI of an ISA interrupt (after MADT overrides). */
unsigned int isa_irq_to_gsi(unsigned int isa_irq);
/* An ISA line that carries PCI INTx (i440FX's PIRQ links): level, active high. */
void ioapic_mark_pci_isa_line(unsigned int gsi);
bool ioapic_has_gsi(unsigned int gsi);
/* arch/x86_64/msi.c: is this line one arch_msi_alloc() handed out? */
bool msi_line_allocated(unsigned int irq);
/* Keep the SMP trampoline's low page from the page allocator (smpboot.c). */
void smp_reserve_trampoline(void);
/* MADT (apic.c) */
extern u32 x86_apic_ids[];
extern unsigned int x86_nr_cpus;
#define MSR_GS_BASE 0xc0000101
void paging_init(void);
void tsc_init(void);
void acpi_init(void);
void hmat_init(void);
void mtrr_init(void);
const char *mtrr_describe(void);
const char *tsc_calibration_source(void);

#endif
