/* SPDX-License-Identifier: MIT */
/*
 * Hibernation: the interface between kernel/power/ and an architecture
 * (docs/hibernation.md). The arch saves and restores the CPU, and runs the
 * last step of a resume, which portable C cannot: copying pages over the
 * running kernel.
 *
 * Saving:   hibernate() calls swsusp_arch_suspend(). It saves the CPU's
 *           callee-saved registers, stack and page-table root in kernel
 *           data, calls swsusp_save() (the atomic copy) and returns its
 *           result: 0, or a negative errno. Those kernel data are in the
 *           copy.
 * Resuming: the boot kernel loads the image, then calls
 *           swsusp_arch_resume(), which switches to page tables built in
 *           "safe" pages (frames the image does not use), copies every
 *           relocated page to its own frame with code running from a safe
 *           page, loads the saved kernel's page tables and jumps to its
 *           resume entry. That entry restores the registers saved above,
 *           so swsusp_arch_suspend() returns a second time, now with 1.
 */
#ifndef PAGODA_SUSPEND_H
#define PAGODA_SUSPEND_H

#include <pagoda/types.h>

/*
 * Pages the restore code must copy, as a chain of whole pages holding
 * physical addresses only: it runs with no kernel mappings it can trust.
 */
#define PBE_PER_PAGE 255
struct pbe_page {
	u64 next_pa;			/* the next pbe_page, or 0 */
	u64 count;			/* entries used */
	struct { u64 src, dst; } e[PBE_PER_PAGE];	/* 4 KiB from src to dst */
};

int swsusp_arch_suspend(void);
/* Called by swsusp_arch_suspend() with interrupts off: 0 or a negative errno. */
int swsusp_save(void);
/*
 * Jump into the image: pbe_pa the first pbe_page (0: nothing to copy),
 * safe_page() a source of zeroed pages outside the image for the arch's
 * page tables and code. Returns only on failure (a negative errno), before
 * anything was copied.
 */
int swsusp_arch_resume(u64 pbe_pa, u64 restore_pgd, u64 resume_entry,
		       void *(*safe_page)(void *ctx), void *ctx);
/* Safe pages swsusp_arch_resume() will ask for (page tables, code). */
unsigned long arch_hibernation_extra_pages(void);
/* The saved kernel's page-table root and the resume entry, for the header. */
void arch_hibernation_header(u64 *restore_pgd, u64 *resume_entry);
/* After a resume: what the arch must set up again (timer, per-CPU registers). */
void arch_hibernation_resumed(void);

/*
 * The other CPUs (kernel/power/cpu.c) park during the copy with
 * hib_cpu_save() (0 then; 1 when hib_cpu_restore() comes back to it, on
 * this CPU after a resume, where it parked). Callee-saved registers, the
 * stack pointer and the return address: 14 words on either arch.
 */
struct hib_cpu_ctx {
	u64 regs[14];
};
int hib_cpu_save(struct hib_cpu_ctx *c);
__noreturn void hib_cpu_restore(struct hib_cpu_ctx *c);
/* Stop the other CPUs for the copy (0, or -EBUSY if one would not come). */
int hibernate_park_cpus(void);
/*
 * 0 when every online CPU but the boot CPU (where images are made and
 * resumed) can be stopped and started again across an image
 * (arch_cpu_can_restart()); else says which cannot and what to do (what:
 * "hibernation" or "resume"), and returns -EOPNOTSUPP.
 */
int hibernate_cpus_restartable(const char *what);
/* Let them go on where they were (after the copy, or when hibernation failed). */
void hibernate_release_cpus(void);
/* The resumed kernel: start them again; each carries on where it parked. */
void hibernate_restart_cpus(void);
/* secondary_start_kernel() of a CPU restarted this way: never returns. */
__noreturn void hibernate_cpu_restarted(unsigned int cpu);
bool hibernate_cpu_restarting(unsigned int cpu);

/* kernel/power/hibernate.c */
/* Save the system to the resume device and power off; returns on failure or after resume. */
int hibernate(void);
/* At boot, after the drivers: resume from resume= if it holds an image. */
void software_resume(void);
/* The `hibernate` boot parameter: hibernate once the boot is done. */
void hibernate_boot_request(void);
/* True from the resume entry until devices and threads run again. */
extern bool hibernation_resuming;

#endif
