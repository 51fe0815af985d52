// SPDX-License-Identifier: MIT
/*
 * start_kernel(): the portable half of boot. The arch has already turned its
 * loader's information into struct boot_info, set up a console, exceptions
 * and page tables. From here on nothing is architecture-specific.
 *
 * Two command-line parameters make a boot non-interactive, which is how the
 * test harness and `make bench` drive QEMU:
 *   test=all | test=suite,...   run in-kernel test suites, then exit
 *   bench=all | bench=name,...  run benchmarks, then exit
 */
#include <pagoda/arch.h>
#include <pagoda/bench.h>
#include <pagoda/cr.h>
#include <pagoda/blkdev.h>
#include <pagoda/boot_info.h>
#include <pagoda/drivers.h>
#include <pagoda/init.h>
#include <pagoda/ktest.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/process.h>
#include <pagoda/dma-debug.h>
#include <pagoda/swiotlb.h>
#include <pagoda/random.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/slab.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/suspend.h>
#include <pagoda/time.h>
#include <pagoda/timer.h>
#include <pagoda/workqueue.h>

#define PAGODA_VERSION "0.1"

static char test_list[256];
PARAM_STRING_CHECKED("test", test_list, ktest_check_list,
		     "run these test suites at boot (all, a,b,c, or all,-a to leave a out), then exit");
static char bench_list[256];
PARAM_STRING_CHECKED("bench", bench_list, bench_check_list,
		     "run these benchmarks at boot (all, or a,b), then exit");

struct boot_step boot_steps[MAX_BOOT_STEPS];
int nr_boot_steps;

void boot_mark(const char *step)
{
	if (nr_boot_steps < MAX_BOOT_STEPS)
		boot_steps[nr_boot_steps++] = (struct boot_step){ step, arch_cycles() };
}

static void print_boot_info(void)
{
	pr_info("Pagoda %s on %s/%s, booted by %s, accelerator %s\n", PAGODA_VERSION,
		arch_name, arch_platform(), boot_info.loader ? boot_info.loader : "?",
		arch_accelerator());
	pr_info("command line: %s\n", boot_info.cmdline[0] ? boot_info.cmdline :
		"(empty: every parameter has its default; `params` lists them)");
	pr_info("memory: %llu MiB usable in %u regions, kernel at %llx-%llx\n",
		(unsigned long long)(boot_info_mem_total(&boot_info, BOOT_MEM_USABLE) >> 20),
		boot_info.nr_mem, (unsigned long long)boot_info.kernel_start,
		(unsigned long long)boot_info.kernel_end);
	if (boot_info.truncated)
		pr_warn("boot: the loader gave more regions or modules than fit; some were dropped\n");
}

/* Non-interactive runs end by telling the emulator how they went. */
static __noreturn void finish(int failures)
{
	kprintf("pagoda: %s\n", failures ? "FAILED" : "done");
	arch_emulator_exit(failures ? 1 : 0);
	arch_poweroff();
}

void start_kernel(void)
{
	int problems;

	print_boot_info();
	problems = parse_params(boot_info.cmdline);
	if (problems)
		pr_warn("params: %d problem(s) on the command line; defaults kept\n", problems);
	spinlock_mode_init();
	boot_mark("params");

	random_init();
	pr_info("random: seeded from %s\n", random_sources());
	boot_mark("random");
	mm_init();
	kmem_cache_init();
	boot_mark("memory");

	/* Threads, time and interrupts, then the other CPUs. */
	arch_irq_init();
	sched_init();
	time_init();
	arch_irq_enable();
	smp_init();
	workqueue_init();
	swiotlb_init();
	dma_debug_init();
	arch_late_init();
	boot_mark("smp");

	/* The block layer, then its drivers (docs/block.md). */
	blk_dev_init();
	null_init();
	brd_init();
	boot_mark("block");

	/* Buses and devices: PCI, virtio, SD hosts (drivers/). */
	drivers_init();
	swiotlb_restricted_report_unmatched();
	boot_mark("devices");
	cr_init(); /* the vDSO's symbol table for restore, read once (kernel/cr/) */

	/* Ready for the prompt: what `bench boot` measures up to. */
	boot_mark("shell");
	/* A scripted run whose list was refused fails now, rather than wait at a prompt. */
	if (param_find("test")->refused || param_find("bench")->refused) {
		pr_err("init: test= or bench= named something that does not exist (see above)\n");
		finish(1);
	}
	/* The struct pages boot did not need are written in a thread now. */
	page_alloc_init_late();
	/* resume=: if it holds a hibernation image, this boot ends here (kernel/power/). */
	software_resume();
	/* hibernate: the tests' way to hibernate without a shell (kernel/power/). */
	hibernate_boot_request();
	if (test_list[0] || bench_list[0])
		page_alloc_wait_deferred(); /* tests and benchmarks want all of memory, still */
	if (test_list[0])
		finish(ktest_run(test_list) != 0);
	if (bench_list[0])
		finish(bench_run(bench_list) != 0);
	run_init_process();
	shell_run();
}
