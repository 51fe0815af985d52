// SPDX-License-Identifier: MIT
/*
 * The vDSO, the kernel's half: the vvar page (struct vdso_data, one page of
 * its own) and mapping it and this arch's vDSO image into a process at
 * exec, vvar just below the image, as the vDSO's linker script expects
 * (vvar_page = image - 4096). Both mappings are the kernel's own pages,
 * read-only for the process: its clock reads never enter the kernel. The
 * data changes rarely (the counter frequency and the wall-clock offset,
 * set once) and at every timer interrupt (the coarse clocks), each time
 * under the sequence count the readers check (include/pagoda/vdso.h).
 */
#include <pagoda/arch.h>
#include <pagoda/bench.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/spinlock.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/vdso.h>
#include "syscalls.h"

static union {
	struct vdso_data data;
	u8 page[PAGE_SIZE];
} vvar __aligned(PAGE_SIZE);

static DEFINE_SPINLOCK(vvar_lock);
static bool clock_set;

static void write_begin(void)
{
	__atomic_store_n(&vvar.data.seq, vvar.data.seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void write_end(void)
{
	__atomic_store_n(&vvar.data.seq, vvar.data.seq + 1, __ATOMIC_RELEASE);
}

void vdso_update_clock(void)
{
	unsigned long flags;
	s64 offset = realtime_offset_ns();

	spin_lock_irqsave(&vvar_lock, flags);
	write_begin();
	vvar.data.hz = arch_cycles_hz();
	vvar.data.boot_cycles = boot_entry_cycles;
	vvar.data.real_offset_ns = offset;
	vvar.data.coarse_ns = MAX(vvar.data.coarse_ns, ktime_get_ns());
	vvar.data.clock_mode = vvar.data.hz ? VDSO_CLOCK_COUNTER : VDSO_CLOCK_NONE;
	vvar.data.cpu_number_ok = arch_vdso_cpu_number_ok();
	vvar.data.coarse_res_ns = TICK_NSEC;
	write_end();
	spin_unlock_irqrestore(&vvar_lock, flags);
	__atomic_store_n(&clock_set, true, __ATOMIC_RELEASE);
}

void vdso_update_tick(u64 now_ns)
{
	unsigned long flags;

	if (!__atomic_load_n(&clock_set, __ATOMIC_ACQUIRE))
		return;
	spin_lock_irqsave(&vvar_lock, flags);
	if (now_ns > vvar.data.coarse_ns) {
		write_begin();
		vvar.data.coarse_ns = now_ns;
		write_end();
	}
	spin_unlock_irqrestore(&vvar_lock, flags);
}

/*
 * The coarse clocks' system call answers what the vDSO would: the last
 * tick's time, not the counter's now, or a vDSO read made just after the
 * call could fall before it. Before the first exec nothing has set the
 * page up: do it now, so the two never disagree.
 */
u64 vdso_coarse_ns(void)
{
	if (!__atomic_load_n(&clock_set, __ATOMIC_ACQUIRE))
		vdso_update_clock();
	return __atomic_load_n(&vvar.data.coarse_ns, __ATOMIC_ACQUIRE);
}

u64 vdso_map(struct process *p)
{
	unsigned int n = (unsigned int)((vdso_image_end - vdso_image_start) / PAGE_SIZE);
	phys_addr_t pas[16], vvar_pa;
	u64 base;

	if (!n || n > ARRAY_SIZE(pas))
		return 0;
	if (!__atomic_load_n(&clock_set, __ATOMIC_ACQUIRE))
		vdso_update_clock();
	base = process_find_free(p, (n + 1) * PAGE_SIZE);
	if (!base)
		return 0;
	vvar_pa = arch_virt_to_phys(&init_mm, (u64)&vvar);
	for (unsigned int i = 0; i < n; i++)
		pas[i] = arch_virt_to_phys(&init_mm, (u64)vdso_image_start + i * PAGE_SIZE);
	if (process_map_kernel_pages(p, base, &vvar_pa, 1, 0, "[vvar]"))
		return 0;
	if (process_map_kernel_pages(p, base + PAGE_SIZE, pas, n, PROT_EXEC, "[vdso]")) {
		process_unmap(p, base, base + PAGE_SIZE);
		return 0;
	}
	p->vdso_base = base + PAGE_SIZE;
	return p->vdso_base;
}

/*
 * arch_prctl(ARCH_MAP_VDSO_64, addr): map the vDSO (and vvar, the page
 * below it) at addr instead of where exec put it, as checkpoint/restore
 * needs to put a process back exactly as it was. addr is where the vDSO
 * image starts; the old mapping goes, if there is one.
 */
long vdso_remap(struct process *p, u64 addr)
{
	unsigned int n = (unsigned int)((vdso_image_end - vdso_image_start) / PAGE_SIZE);
	phys_addr_t pas[16], vvar_pa;

	if (!n || n > ARRAY_SIZE(pas) || (addr & (PAGE_SIZE - 1)) || addr < PAGE_SIZE ||
	    addr + n * PAGE_SIZE > TASK_SIZE)
		return -EINVAL;
	for (struct vm_area *v = p->vmas; v; v = v->next)
		if (!v->name && v->start < addr + n * PAGE_SIZE && v->end > addr - PAGE_SIZE)
			return -EEXIST; /* would land on the program's own memory */
	if (p->vdso_base)
		process_unmap(p, p->vdso_base - PAGE_SIZE,
			      p->vdso_base + n * PAGE_SIZE);
	p->vdso_base = 0;
	vvar_pa = arch_virt_to_phys(&init_mm, (u64)&vvar);
	for (unsigned int i = 0; i < n; i++)
		pas[i] = arch_virt_to_phys(&init_mm, (u64)vdso_image_start + i * PAGE_SIZE);
	if (process_map_kernel_pages(p, addr - PAGE_SIZE, &vvar_pa, 1, 0, "[vvar]"))
		return -ENOMEM;
	if (process_map_kernel_pages(p, addr, pas, n, PROT_EXEC, "[vdso]")) {
		process_unmap(p, addr - PAGE_SIZE, addr);
		return -ENOMEM;
	}
	p->vdso_base = addr;
	return n * PAGE_SIZE; /* Linux returns the size mapped */
}

/*
 * bench vdso: the clock calls through the vDSO against the system call, in
 * one process (user/vdsobench.c does the timing in user mode).
 */
static void bench_vdso(void)
{
	static const char *const argv[] = { "/bin/vdsobench", VDSO_VERSION, VDSO_SYMBOLS };
	const char *why;
	int status;

	status = process_run("/bin/vdsobench", 4, argv, &why);
	if (status)
		pr_err("bench vdso: /bin/vdsobench: %s (status %d)\n", why, status);
}
KBENCH(vdso, "clock_gettime and gettimeofday through the vDSO against the syscall; getpid",
       bench_vdso);
