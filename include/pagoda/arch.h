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
/* mb/rmb/wmb, dma_rmb/dma_wmb, __iormb/__iowmb: ordering against devices. */
#include <asm/barrier.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)

/* --- identity ---------------------------------------------------------- */
extern const char arch_name[];     /* "x86_64", "arm64" */
const char *arch_platform(void);   /* "pc", "virt", "pi4" */
const char *arch_accelerator(void); /* "kvm", "tcg", "hardware"... */
/* Are the CPUs virtual, time-sliced by a host (x86: CPUID's hypervisor bit; arm64: QEMU's virt)? */
bool arch_cpus_virtual(void);

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
/*
 * unsigned long arch_irq_save(void): disable and return the previous
 * state, for void arch_irq_restore(unsigned long flags). Inline, from
 * <asm/irqflags.h>: they are on every per-CPU-list and irqsave-lock path.
 */
#include <asm/irqflags.h>
void arch_cpu_relax(void);           /* spin-wait hint */
__noreturn void arch_halt_forever(void);
/*
 * Stop this CPU for good, interrupts off, in a state from which a later
 * kernel can start it again with the usual bring-up (a resume from
 * hibernation does): x86 halts (INIT restarts it), arm64 asks PSCI to
 * turn it off (CPU_ON would refuse a CPU that is still on).
 */
__noreturn void arch_cpu_die(void);
/*
 * Whether arch_cpu_die() leaves cpu where a later kernel can start it
 * again. Not so for a CPU a spin table released (the Pi 4): nothing can
 * send it back to the firmware's loop, and halted in the kernel it would
 * run whatever a resume writes over that kernel.
 */
bool arch_cpu_can_restart(unsigned int cpu);
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
	IPI_TLB_FLUSH,  /* flush a virtual range (flush_tlb_kernel_range/_mm_range) */
	IPI_STOP,       /* stop this CPU for good (panic, poweroff) */
	NR_IPI,
};
void arch_send_ipi(unsigned int cpu, enum ipi_type type);
/*
 * Flush this CPU's TLB entries for [start, end): kernel addresses, or user
 * ones of the address space loaded here.
 */
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
/*
 * Where a task that is off its CPU stopped, read from the registers its
 * last arch_context_switch() pushed at saved_sp: the return address into
 * the scheduler and the frame pointer of the function that called it
 * (Linux's thread_saved_pc() and thread_saved_fp()).
 */
u64 arch_thread_saved_pc(unsigned long saved_sp);
u64 arch_thread_saved_fp(unsigned long saved_sp);

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

/*
 * Walk the caller's stack, calling fn on each return address; or walk
 * from the frame pointer a trap saved. Portable (kernel/stacktrace.c):
 * the arch answers whether a 16-byte frame record at p lies on a stack
 * the kernel runs on.
 */
void arch_stack_walk(void (*fn)(u64 pc, void *arg), void *arg);
void walk_stack_frames(u64 fp, void (*fn)(u64 pc, void *arg), void *arg);
bool arch_on_kernel_stack(u64 p);
/*
 * Another task's stack, from where it was switched out; every record is
 * checked against that task's own stack, so a task that runs meanwhile
 * makes the trace wrong, never a fault. Its stack must stay allocated.
 */
struct task;
void stack_trace_task(struct task *t, void (*fn)(u64 pc, void *arg), void *arg);

/*
 * --- page tables: address spaces -------------------------------------------
 *
 * An address space is a struct mm_struct: the root of a four-level table
 * (x86 PML4, arm64 level-0 table), as in Linux. The kernel's own is init_mm,
 * built at boot (paging_init()). User address spaces are others, made by
 * arch_mm_init(): their upper (kernel) half is the kernel's, shared, never
 * copied entry by entry later (x86 copies the top-level entries once, and
 * the arch fills every top-level entry the kernel will ever use at boot so
 * that copy never goes stale; arm64's kernel half lives in TTBR1 and is
 * shared by construction). Their lower half starts empty.
 *
 * The calls below take an address space and follow one contract on every
 * arch:
 *
 *  - Ranges. va, pa and size are page aligned, size is not zero and the
 *    range does not wrap. In init_mm the range lies in the vmalloc window
 *    [VMALLOC_START, VMALLOC_END) (the image, the direct map and the boot
 *    device mappings are the arch's alone); in a user mm it lies below
 *    TASK_SIZE. Anything else is -EINVAL, and nothing changes.
 *  - Permissions. prot is PROT_PRESENT plus any of PROT_WRITE, PROT_EXEC,
 *    PROT_DEVICE (uncached MMIO), PROT_NOCACHE (uncached RAM) and PROT_USER
 *    (reachable from user mode); other bits are -EINVAL.
 *    PROT_USER is required in a user mm and refused in init_mm (-EINVAL):
 *    the lower half holds only user pages and the upper half none. The
 *    one exception is PROT_NONE_USER in place of PROT_USER (user mm only,
 *    alone with PROT_PRESENT): a page a program mapped PROT_NONE, kept
 *    but reachable by no user access (arm64: nor by the kernel's
 *    unprivileged copies; x86: the kernel could still read it).
 *  - Map installs 4 KiB pages. Any page of the range already present (or
 *    covered by a large page) fails the whole call with -EEXIST before
 *    anything is written; running out of page-table pages is -ENOMEM,
 *    with what was mapped undone. Protect and unmap need every page of the
 *    range mapped by a 4 KiB entry, else -EINVAL with nothing changed.
 *  - TLB. Each call returns with every CPU seeing the new state. Map needs
 *    no flush (no CPU caches a non-present entry); the arch orders the
 *    table write before later accesses. Unmap and protect flush: in init_mm
 *    on every CPU (flush_tlb_kernel_range(): this CPU, then IPI_TLB_FLUSH
 *    to the others); in a user mm on the CPUs in mm->cpu_mask, where
 *    arch_switch_mm() has loaded it (a CPU that loads it later starts with
 *    none of its entries, because loading a user half drops the previous
 *    one's).
 *  - Page-table pages come from pgtable_alloc_page() (mm/) and go back
 *    through pgtable_free_page(); init_mm's are never freed. Concurrent
 *    calls on disjoint ranges of one mm are safe (a table is installed
 *    with a compare-and-swap); calls on overlapping ranges must be
 *    serialized by the caller, as vmalloc's area list does.
 *  - arch_lookup() works on any address: 0 with the physical address and
 *    effective PROT_* bits, or -ENOENT when nothing is mapped there. It
 *    sees the kernel half through a user mm too.
 *  - A user page mapped or made executable has its instruction cache
 *    made coherent with its contents then (arch_sync_icache()); bytes the
 *    kernel writes into an executable page later go through
 *    process_write(), which syncs them again.
 */
#define PROT_PRESENT 1u
#define PROT_WRITE 2u
#define PROT_EXEC 4u
#define PROT_DEVICE 8u  /* uncached device memory (MMIO) */
#define PROT_NOCACHE 16u /* uncached normal memory: coherent DMA buffers */
#define PROT_USER 32u  /* user mode may access it (lower half only) */
#define PROT_NONE_USER 64u /* a user page no user access reaches (PROT_NONE) */

struct mm_struct {
	u64 *pgd;               /* the root table, as the kernel reaches it */
	unsigned long cpu_mask; /* CPUs where this user half is loaded */
	/*
	 * A user address space's size, as Linux's mm counters: pages of its
	 * own mapped (the zero page not counted; a page fork shares counts in
	 * each), the most it ever had, and its page-table pages. The OOM
	 * killer ranks by them; getrusage's ru_maxrss is hiwater_rss.
	 * total_vm: pages in all its areas, touched or not.
	 */
	unsigned long rss, hiwater_rss, pgtables, total_vm;
};
extern struct mm_struct init_mm;

int arch_map_range(struct mm_struct *mm, u64 va, phys_addr_t pa, u64 size,
		   unsigned int prot);
int arch_protect_range(struct mm_struct *mm, u64 va, u64 size, unsigned int prot);
int arch_unmap_range(struct mm_struct *mm, u64 va, u64 size);
/*
 * Linux's mmu_gather, in two steps: clear the entries of a wholly mapped
 * user range without flushing (-EINVAL as arch_unmap_range()), then flush
 * a range of such clears on the CPUs that hold mm. Until the flush a CPU
 * may still reach the old pages: free them only after it.
 */
int arch_unmap_range_noflush(struct mm_struct *mm, u64 va, u64 size);
/*
 * The same for protection changes: n (at most PROTECT_BATCH) mapped
 * user pages, at rising addresses vas[i], each given prots[i], with one
 * flush over them all (none when no entry changes). 0, or -EINVAL with
 * nothing changed.
 */
#define PROTECT_BATCH 64
int arch_protect_pages(struct mm_struct *mm, const u64 *vas, const unsigned int *prots,
		       unsigned int n);
void arch_flush_user_range(struct mm_struct *mm, u64 va, u64 size);
int arch_lookup(struct mm_struct *mm, u64 va, phys_addr_t *pa, unsigned int *prot);
/*
 * Make instructions stored through kaddr (a kernel address of the same
 * memory) visible to instruction fetches from any address of it: arm64
 * cleans the data cache to the point of unification and invalidates the
 * instruction cache; x86 keeps fetches coherent with stores and does
 * nothing.
 */
void arch_sync_icache(void *kaddr, size_t len);

/* The effective protection of va in mm (0 when unmapped). */
static inline unsigned int arch_page_prot(struct mm_struct *mm, u64 va)
{
	unsigned int prot;

	return arch_lookup(mm, va, NULL, &prot) ? 0 : prot;
}

/* The physical address va maps to in mm, or -1 when unmapped. */
static inline phys_addr_t arch_virt_to_phys(struct mm_struct *mm, u64 va)
{
	phys_addr_t pa;

	return arch_lookup(mm, va, &pa, NULL) ? (phys_addr_t)-1 : pa;
}

/*
 * A new user address space (kernel half shared, lower half empty): 0 or
 * -ENOMEM. arch_mm_free() frees the lower half's page-table pages and the
 * root, not the pages they mapped (their owner frees those); the mm must
 * not be loaded on any CPU.
 */
int arch_mm_init(struct mm_struct *mm);
void arch_mm_free(struct mm_struct *mm);

/* Physical end of the direct map set up at boot (PAGE_OFFSET + pa). */
u64 arch_direct_map_end(void);
/*
 * Page-table pages: a zeroed 4 KiB page's physical address, reachable
 * through the direct map, or 0 (mm/pgtable_alloc.c). Freeing one is only
 * for pages the buddy allocator gave.
 */
phys_addr_t pgtable_alloc_page(void);
void pgtable_free_page(phys_addr_t pa);

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

/*
 * --- user mode ------------------------------------------------------------
 * A task with task->mm set runs a user program in that address space. The
 * arch loads task->mm (or init_mm for kernel threads) at every context
 * switch through arch_switch_mm(), which also keeps mm->cpu_mask. From
 * user mode the arch enters the kernel on the task's own kernel stack: a
 * system call (x86 `syscall`, arm64 `svc #0`, Linux's numbers from
 * <asm/unistd.h> and Linux's argument registers) becomes
 * syscall_dispatch(nr, args), whose result goes back in the return
 * register; a fault reports the state and calls process_exit_signal().
 */
#include <asm/unistd.h>
#include <asm/elf.h>

void arch_switch_mm(struct mm_struct *mm);
/*
 * The user registers beyond the general ones (FP/SIMD and the thread
 * pointer; <asm/fpu.h>): the kernel never touches them, so they hold the
 * running user task's values until the scheduler saves them as it leaves
 * the CPU (task->ustate) and loads the next user task's. init gives a new
 * program Linux's starting values (FP exceptions masked, round to nearest).
 */
#include <asm/fpu.h>
void arch_user_state_init(struct arch_user_state *s);
void arch_user_state_save(struct arch_user_state *s);
void arch_user_state_load(const struct arch_user_state *s);
/* Set the thread pointer in a saved state (clone's CLONE_SETTLS). */
void arch_user_state_set_tls(struct arch_user_state *s, u64 tp);
/*
 * Enter user mode at pc with stack pointer sp and arg in the first
 * argument register (every other register zero), on the current task's
 * kernel stack, whose contents are dropped.
 */
__noreturn void arch_enter_user(u64 pc, u64 sp, u64 arg);
/*
 * Enter user mode with every register from regs (a struct pt_regs the
 * arch saved at a system call, changed by the caller: fork's child gets
 * its parent's with the return value 0). regs must not be on the stack.
 */
struct pt_regs;
__noreturn void arch_enter_user_regs(const struct pt_regs *regs);
/* The system call's return value in a saved frame. */
void arch_regs_set_return(struct pt_regs *regs, u64 v);
/* The user stack pointer in a saved frame (clone's new thread starts on its own stack). */
void arch_regs_set_sp(struct pt_regs *regs, u64 sp);
/* sizeof(struct pt_regs), for portable code that copies one. */
extern const unsigned int arch_pt_regs_size;
/*
 * Checkpoint/restore (arch/<arch>/cr.c). restart: point regs back at the
 * system call instruction with its number and first argument, so it runs
 * again. user_pc: where regs return to in user space. regs_check: make a frame and FP state read from an image safe
 * to return to user mode with and to load (user segments/EL0, a program's
 * own flags, no reserved control bits): 0, or -EINVAL for addresses
 * outside user space. write_jump: at code (which
 * the process sees at at, room bytes) a jump to target that clobbers only
 * what a call may: the bytes written, or 0 when it does not fit.
 */
void arch_cr_restart_syscall(struct pt_regs *regs, u64 nr, u64 arg0);
/* The user address regs return to. */
u64 arch_cr_user_pc(const struct pt_regs *regs);
int arch_cr_regs_check(struct pt_regs *regs, struct arch_user_state *us);
unsigned int arch_cr_write_jump(u8 *code, unsigned int room, u64 at, u64 target);
/*
 * Single-step the current task in user mode (arch/<arch>/step.c): with
 * on, regs returns to user mode so that it traps after one instruction
 * (x86 TF; arm64 SPSR.SS with MDSCR_EL1.SS, which follows the task from
 * CPU to CPU), and the trap handler asks cr_step_trap(). The caller has
 * set current->user_step to on first (kernel/cr/freeze.c).
 */
void arch_user_single_step(struct pt_regs *regs, bool on);
/* Can the vDSO read the CPU number itself (x86-64: RDTSCP and TSC_AUX)? */
bool arch_vdso_cpu_number_ok(void);
/* Set the thread pointer (x86 FS base, arm64 TPIDR_EL0) of the running task. */
void arch_set_tls(u64 tp);
/*
 * Signal frames in Linux's layout (arch/<arch>/signal.c). setup: push one
 * for info on regs's user stack (or from alt_top down, an alternate
 * signal stack's top; 0: the program's own stack), holding regs, the FP
 * state fp (up to date), oldmask and uc_stack (what sigaltstack was), and
 * point regs at ka's handler: 0, -EINVAL (no way back: x86-64 needs
 * SA_RESTORER) or -EFAULT (the stack is not writable). sigreturn: the
 * reverse, from regs's stack pointer, checking what it loads: 0 with the
 * restored return register in *ret and the frame's uc_stack, or -EFAULT.
 */
struct k_sigaction;
struct ksiginfo;
struct sigstack;
int arch_setup_rt_frame(struct pt_regs *regs, const struct k_sigaction *ka,
			const struct ksiginfo *info, u64 oldmask, struct arch_user_state *fp,
			u64 alt_top, const struct sigstack *uc_stack);
int arch_rt_sigreturn(struct pt_regs *regs, struct arch_user_state *fp, u64 *mask, long *ret,
		      struct sigstack *uc_stack);
/* The user stack pointer a user-mode frame holds (is it on the alternate stack?). */
u64 arch_user_sp(const struct pt_regs *regs);
/*
 * Copy to or from user memory, surviving faults through the exception
 * table: the number of bytes NOT copied (0 on success), as in Linux. The
 * range check is the caller's (pagoda/uaccess.h).
 */
unsigned long arch_copy_from_user(void *to, const void *from, unsigned long n);
unsigned long arch_copy_to_user(void *to, const void *from, unsigned long n);
/* Portable code the arch calls (kernel/syscall.c). */
long syscall_dispatch(unsigned long nr, const unsigned long args[6]);

/*
 * --- message-signalled interrupts ---------------------------------------------
 * A device that signals by writing a message (PCI MSI/MSI-X) gets a line of
 * its own: arch_msi_alloc() picks a free one and says what the device must
 * write where to raise it (x86: the local APIC's 0xfee00000 window, the
 * line's vector as data). request_irq() on that line then works as on any
 * other; masking is the device's (the MSI-X vector control bit).
 * -ENOSPC when none are left, -ENOSYS where the platform has no MSI.
 */
int arch_msi_alloc(unsigned int *irq, u64 *addr, u32 *data);
void arch_msi_free(unsigned int irq);
/*
 * Aim a message's address (from arch_msi_alloc()) at an online cpu
 * instead of the boot CPU: true if done (x86: that CPU's APIC id).
 */
bool arch_msi_target(u64 *addr, unsigned int cpu);

/*
 * --- PCI host bridge ------------------------------------------------------------
 * The memory-mapped configuration space (ECAM) of PCI segment 0, as the
 * firmware describes it (ACPI MCFG, a device tree's pci-host-ecam-generic),
 * with the bus range it decodes. -ENODEV when there is none.
 */
struct pci_ecam_window {
	phys_addr_t base;	/* the address of bus bus_start's config space */
	u8 bus_start, bus_end;
	/* For firmware that assigns no BARs: the window to assign them in. */
	phys_addr_t mem_base;	/* CPU address of 32-bit memory space; 0: none */
	u64 mem_bus_base;	/* the same as the PCI bus sees it */
	u64 mem_size;
};
int arch_pci_ecam(struct pci_ecam_window *w);
/*
 * Where no ECAM window is described (QEMU's `pc`, whose i440FX predates
 * PCI Express), configuration space is reached through x86's mechanism #1:
 * an address written to port 0xcf8, data through 0xcfc, 256 bytes per
 * function. size is 1, 2 or 4 and off is aligned to it. -ENODEV where the
 * platform has no such mechanism (arm64).
 */
int arch_pci_conf1_read(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 *val);
int arch_pci_conf1_write(u8 bus, u8 devfn, unsigned int off, unsigned int size, u32 val);
/*
 * The interrupt line of INTx pin (1 = INTA) of the function at bus/slot, as
 * the platform routes it; line is what firmware wrote in the function's
 * PCI_INTERRUPT_LINE (used where routing is the firmware's choice).
 * Negative errno when unknown.
 */
int arch_pci_intx_irq(u8 bus, u8 slot, u8 pin, u8 line);

/*
 * --- device tree interrupts -------------------------------------------------------
 * Interrupt `index` of device-tree node `node` as an irq number request_irq()
 * takes, when its interrupt parent is the controller the arch drives;
 * negative errno otherwise (and on platforms without a device tree).
 */
int arch_fdt_irq(const void *fdt, int node, int index);

/* --- early console ------------------------------------------------------- */
void arch_early_console_init(void);
/*
 * Called once from start_kernel() when interrupts, timers and threads
 * work: the arch switches devices it set up early to interrupts (the
 * console's receive interrupt, so the shell sleeps instead of polling).
 */
void arch_late_init(void);

#endif
