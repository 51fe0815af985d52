/* SPDX-License-Identifier: MIT */
/*
 * The narrow interface between portable code and an architecture. Portable
 * code includes nothing from arch/ but this header; each arch implements it
 * in arch/<arch>/.
 */
#ifndef PAGODA_ARCH_H
#define PAGODA_ARCH_H

#include <pagoda/types.h>

struct cpu_local;
struct task;

/* PAGE_OFFSET (the direct map), VMALLOC_START/END, KERNEL_VIRT. */
#include <asm/memory.h>
/*
 * arch_this_cpu() and arch_current(): the running CPU's struct cpu_local
 * and the running task, each read in ONE instruction so that a preemption
 * cannot fall between finding the CPU and reading its field (x86: %gs
 * relative loads; arm64: TPIDR_EL1 and SP_EL0, as Linux does).
 */
#include <asm/percpu.h>

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
/* True when local interrupts are enabled. */
bool arch_irqs_enabled(void);
/*
 * Called with interrupts disabled: enable them and wait for one, atomically
 * (x86 "sti; hlt", arm64 "wfi" then unmask), so a wake-up arriving between
 * the idle loop's last check and the wait is not lost. Returns with
 * interrupts enabled.
 */
void arch_cpu_idle(void);

/*
 * --- interrupt controllers ------------------------------------------------
 * Device interrupt lines are numbered by the arch ("irq": an I/O APIC GSI on
 * x86, a GIC INTID on arm64). The arch's entry code calls the portable
 * irq_enter(); handle_irq(irq) or the hooks below; EOI; irq_exit() (see
 * pagoda/irq.h). irq_exit() may switch tasks (preemption), so EOI must come
 * first.
 */
/*
 * Bring up the boot CPU's interrupt controllers and per-CPU timer, and
 * find the CPUs; called once from start_kernel() after mm_init() (so it
 * may ioremap registers), with interrupts still off.
 */
void arch_irq_init(void);
/* Route line irq to the boot CPU and unmask it (0 or -EINVAL). */
int arch_irq_unmask(unsigned int irq);
void arch_irq_mask(unsigned int irq);

/*
 * --- the per-CPU timer (clockevent) ----------------------------------------
 * One one-shot timer per CPU. Deadline is absolute, in arch_cycles() units
 * (the TSC-deadline MSR and arm64's CNTV_CVAL both take exactly that); the
 * arch converts if its timer counts differently. At expiry the arch calls
 * the portable clockevent_interrupt() on that CPU, in interrupt context.
 * Called with interrupts disabled. U64_MAX means "no event".
 */
void arch_timer_set_deadline(u64 cycles);
/* Name of the timer hardware in use ("lapic-tsc-deadline", "cntv"...). */
const char *arch_timer_name(void);
/* Seconds since 1970 from a battery-backed clock, or a negative errno. */
s64 arch_rtc_read_seconds(void);

/*
 * --- SMP ------------------------------------------------------------------
 * arch_smp_prepare() discovers the CPUs (ACPI MADT, device tree) and returns
 * how many there are (at most NR_CPUS; CPU 0 is the boot CPU). For each
 * other CPU, portable code allocates an idle task and its stack and calls
 * arch_cpu_start(cpu, stack_top): the arch starts the CPU (INIT-SIPI-SIPI,
 * PSCI CPU_ON, spin table), switches it to the kernel page tables and its
 * own descriptor tables and calls secondary_start_kernel(cpu) on that
 * stack. arch_cpu_start() returns once the CPU runs kernel code, or a
 * negative errno; portable code then waits for it to come online.
 * arch_secondary_init() is called by secondary_start_kernel() after the
 * per-CPU pointer is set: local interrupt controller and timer.
 */
unsigned int arch_smp_prepare(void);
int arch_cpu_start(unsigned int cpu, void *stack_top);
void arch_secondary_init(void);
/* Hardware id of a CPU (APIC id, MPIDR), for `cpus`. */
u64 arch_cpu_hwid(unsigned int cpu);
/* Make this CPU's arch_this_cpu() return p (x86: GS base; arm64: TPIDR_EL1). */
void arch_set_this_cpu(struct cpu_local *p);
/* Set what arch_current() returns on this CPU (at each context switch). */
void arch_set_current(struct task *t);

/* IPIs: the arch sends one to a CPU; the target calls ipi_handle(type). */
enum ipi_type {
	IPI_RESCHEDULE, /* look at need_resched */
	IPI_CALL_FUNC,  /* run queued smp_call_function requests */
	IPI_TLB_FLUSH,  /* flush a kernel virtual range (flush_tlb_kernel_range) */
	IPI_STOP,       /* stop this CPU for good (panic, poweroff) */
	NR_IPI,
};
void arch_send_ipi(unsigned int cpu, enum ipi_type type);
/* Flush this CPU's TLB entries for [start, end) (kernel addresses). */
void arch_flush_tlb_local(u64 start, u64 end);

/*
 * --- context switch ---------------------------------------------------------
 * A task's saved context is its stack pointer: arch_context_switch() pushes
 * the callee-saved registers on the current stack, stores the stack pointer
 * in *prev_sp, loads next_sp and pops the next task's registers.
 * arch_thread_stack_init() prepares a new stack so that the first switch to
 * it enters the portable kthread_entry() (which never returns).
 */
void arch_context_switch(unsigned long *prev_sp, unsigned long next_sp);
unsigned long arch_thread_stack_init(void *stack_top);

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
#define PROT_NOCACHE 16u /* uncached normal memory: coherent DMA buffers */
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

/*
 * --- DMA and caches ----------------------------------------------------------
 * For devices that do not snoop the CPU caches (dma/direct.c). dir is an
 * enum dma_data_direction. Before the device accesses [paddr, paddr + size)
 * the CPU's dirty lines must reach memory (clean); before the CPU reads what
 * the device wrote, its stale lines must go (invalidate). No-ops where all
 * DMA is coherent (x86).
 */
bool arch_dma_default_coherent(void);
void arch_sync_dma_for_device(phys_addr_t paddr, size_t size, int dir);
void arch_sync_dma_for_cpu(phys_addr_t paddr, size_t size, int dir);

/* --- early console ------------------------------------------------------- */
void arch_early_console_init(void);
/*
 * Called once from start_kernel() when interrupts, timers and threads
 * work: the arch switches devices it set up early to interrupts (the
 * console's receive interrupt, so the shell sleeps instead of polling).
 */
void arch_late_init(void);

#endif
