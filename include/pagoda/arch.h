/* SPDX-License-Identifier: MIT */
/*
 * The narrow interface between portable code and an architecture. Portable
 * code includes nothing from arch/ but this header; each arch implements it
 * in arch/<arch>/.
 */
#ifndef PAGODA_ARCH_H
#define PAGODA_ARCH_H

#include <pagoda/types.h>

/* --- identity ---------------------------------------------------------- */
extern const char arch_name[];     /* "x86_64", "arm64" */
const char *arch_platform(void);   /* "pc", "virt", "pi4" */
const char *arch_accelerator(void); /* "kvm", "tcg", "hardware"... */

/* --- time: a free-running cycle counter and its frequency ------------- */
u64 arch_cycles(void);
u64 arch_cycles_hz(void);
/* Counter value at kernel entry, taken by the very first instructions. */
extern u64 boot_entry_cycles;

/* --- interrupts and CPU ------------------------------------------------ */
void arch_irq_disable(void);
void arch_irq_enable(void);
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
/* The effective protection of the page holding va (0 when unmapped). */
unsigned int arch_page_prot(u64 va);

/* --- early console ------------------------------------------------------- */
void arch_early_console_init(void);

#endif
