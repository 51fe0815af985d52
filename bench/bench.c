// SPDX-License-Identifier: MIT
/*
 * Benchmarks: the registry, the `bench` command, and the boot benchmark,
 * which reports how long each init step took from the kernel's first
 * instruction to the shell prompt (steps are stamped by boot_mark()).
 */
#include <pagoda/arch.h>
#include <pagoda/bench.h>
#include <pagoda/boot_info.h>
#include <pagoda/init.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/string.h>
#include <pagoda/time.h>

extern const struct kbench *__start_kbenches[];
extern const struct kbench *__stop_kbenches[];

void bench_print_machine(void)
{
	kprintf("machine: %s/%s, accelerator %s, %llu MiB usable RAM%s\n", arch_name,
		arch_platform(), arch_accelerator(),
		(unsigned long long)(boot_info_mem_total(&boot_info, BOOT_MEM_USABLE) >> 20),
		strcmp(arch_accelerator(), "kvm") ? " (emulated: times are not hardware times)" : "");
}

static bool bench_exists(const char *name, size_t n)
{
	for (const struct kbench **b = __start_kbenches; b < __stop_kbenches; b++)
		if (strlen((*b)->name) == n && !strncmp((*b)->name, name, n))
			return true;
	return false;
}

const char *bench_check_list(const char *list)
{
	return param_check_names(list, bench_exists, "benchmark", "bench");
}

int bench_run(const char *list)
{
	int ran = 0;

	bench_print_machine();
	for (const struct kbench **b = __start_kbenches; b < __stop_kbenches; b++) {
		if (!strlist_has(list, (*b)->name))
			continue;
		if (shell_interrupted())
			return -EINTR;
		kprintf("== bench %s: %s\n", (*b)->name, (*b)->help);
		(*b)->run();
		ran++;
		if (shell_interrupted())
			return -EINTR;	/* the benchmark stopped early, or the next may not start */
	}
	if (!ran) {
		kprintf("bench: nothing matches '%s'; `bench` lists them\n", list);
		return -ENOENT;
	}
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	if (argc < 2) {
		for (const struct kbench **b = __start_kbenches; b < __stop_kbenches; b++)
			kprintf("  %-12s %s\n", (*b)->name, (*b)->help);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		int err = bench_run(argv[i]);

		if (err)
			return err;
	}
	return 0;
}
SHELL_CMD(bench, "bench [name|all]", "run benchmarks (no name: list them)", cmd_bench);

static void bench_boot(void)
{
	u64 prev = boot_entry_cycles, total;
	int last = nr_boot_steps - 1;

	if (last < 0)
		return;
	total = cycles_to_ns(boot_steps[last].cycles - boot_entry_cycles);
	kprintf("%-16s %12s %12s %7s\n", "step", "took (us)", "at (us)", "share");
	for (int i = 0; i <= last; i++) {
		u64 d = cycles_to_ns(boot_steps[i].cycles - prev);
		u64 at = cycles_to_ns(boot_steps[i].cycles - boot_entry_cycles);

		kprintf("%-16s %8llu.%03llu %8llu.%03llu %6llu%%\n", boot_steps[i].name,
			(unsigned long long)(d / 1000), (unsigned long long)(d % 1000),
			(unsigned long long)(at / 1000), (unsigned long long)(at % 1000),
			(unsigned long long)(total ? d * 100 / total : 0));
		prev = boot_steps[i].cycles;
	}
	kprintf("entry to %s: %llu.%03llu ms\n", boot_steps[last].name,
		(unsigned long long)(total / 1000000),
		(unsigned long long)(total / 1000 % 1000));
	prev = boot_entry_cycles;
	for (int i = 0; i <= last; i++) {
		kprintf("BENCH {\"bench\":\"boot\",\"arch\":\"%s\",\"accel\":\"%s\","
			"\"step\":\"%s\",\"ns\":%llu,\"at_ns\":%llu}\n",
			arch_name, arch_accelerator(), boot_steps[i].name,
			(unsigned long long)cycles_to_ns(boot_steps[i].cycles - prev),
			(unsigned long long)cycles_to_ns(boot_steps[i].cycles - boot_entry_cycles));
		prev = boot_steps[i].cycles;
	}
	kprintf("BENCH {\"bench\":\"boot\",\"arch\":\"%s\",\"accel\":\"%s\","
		"\"step\":\"total\",\"to\":\"%s\",\"ns\":%llu}\n", arch_name,
		arch_accelerator(), boot_steps[last].name, (unsigned long long)total);
}
KBENCH(boot, "time from kernel entry to the shell prompt, by init step", bench_boot);
