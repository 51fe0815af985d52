/* SPDX-License-Identifier: MIT */
/*
 * The narrow interface between portable code and an architecture. Portable
 * code includes nothing from arch/ but this header; each arch implements it
 * in arch/<arch>/.
 */
#ifndef PAGODA_ARCH_H
#define PAGODA_ARCH_H

#include <pagoda/types.h>
/* PAGE_OFFSET (the direct map), VMALLOC_START/END, KERNEL_VIRT. */
#include <asm/memory.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)

/* --- identity ---------------------------------------------------------- */
extern const char arch_name[];     /* "x86_64", "arm64" */
const char *arch_platform(void);   /* "pc", "virt", "pi4" */
const char *arch_accelerator(void); /* "kvm", "tcg", "hardware"... */

/* --- time: a free-running cycle counter and its frequency ------------- */
u64 arch_cycles(void);
u64 arch_cycles_hz(void);
/* Counter value at kernel entry, taken by the very first instructions. */
extern u64 boot_entry_cycles;

/* --- entropy ------------------------------------------------------------ */
/* A random number from the CPU (RDSEED/RDRAND, RNDR); false when it has none. */
bool arch_get_random_seed_u64(u64 *v);

/* --- interrupts and CPU ------------------------------------------------ */
void arch_irq_disable(void);
void arch_irq_enable(void);
/* Disable and return the previous state, for arch_irq_restore(). */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);
void arch_cpu_relax(void);           /* spin-wait hint */
__noreturn void arch_halt_forever(void);

/* --- power --------------------------------------------------------------- */
__noreturn void arch_poweroff(void);
__noreturn void arch_reboot(void);
/*
 * Leave an emulator with a status (0 = success) when the platform has a way
 * (isa-debug-exit, semihosting); returns if it has none.
 */
void arch_emulator_exit(int status);

/* --- faults -------------------------------------------------------------- */
/*
 * Read a u64 from addr, surviving a fault there: returns 0, or -EFAULT when
 * the access faulted (the exception handler reports it and resumes).
 */
int arch_probe_read_u64(const void *addr, u64 *val);
/* Write a u64 to addr under the same protection: 0 or -EFAULT. */
int arch_probe_write_u64(void *addr, u64 val);
/* Execute an undefined instruction under the same protection. */
int arch_probe_undefined_insn(void);

struct fault_record {
	int vector;        /* arch exception number */
	const char *name;  /* "#PF", "#UD", "Data Abort" ... */
	u64 error_code;
	u64 address;       /* faulting data address, when the CPU gives one */
	u64 pc;
	unsigned long count;
};
/* The last fault that was fixed up through the exception table. */
extern struct fault_record last_fixed_fault;

/* Walk the caller's stack, calling fn on each return address. */
void arch_stack_walk(void (*fn)(u64 pc, void *arg), void *arg);

/* --- page tables ------------------------------------------------------ */
#define PROT_PRESENT 1u
#define PROT_WRITE 2u
#define PROT_EXEC 4u
#define PROT_DEVICE 8u  /* uncached device memory (MMIO) */
/* The effective protection of the page holding va (0 when unmapped). */
unsigned int arch_page_prot(u64 va);
/* Physical end of the direct map set up at boot (PAGE_OFFSET + pa). */
u64 arch_direct_map_end(void);
/*
 * Kernel mappings outside the image and the direct map (vmalloc, ioremap):
 * map [va, va + size) to [pa, pa + size) with 4 KiB pages, change their
 * protection, or unmap them; the TLB is flushed on return. va, pa and size
 * are page aligned. Mapping fails with -EEXIST over a present page and
 * -ENOMEM when no page-table page can be had; protect and unmap need the
 * range fully mapped (-EINVAL otherwise).
 */
int arch_map_range(u64 va, phys_addr_t pa, u64 size, unsigned int prot);
int arch_protect_range(u64 va, u64 size, unsigned int prot);
int arch_unmap_range(u64 va, u64 size);
/* The physical address va maps to, or -1 when unmapped. */
phys_addr_t arch_virt_to_phys(u64 va);
/*
 * Page-table pages for those calls come from portable code (mm/): a zeroed
 * 4 KiB page's physical address, reachable through the direct map, or 0.
 */
phys_addr_t pgtable_alloc_page(void);

/* --- early console ------------------------------------------------------- */
void arch_early_console_init(void);

#endif
