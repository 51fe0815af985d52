// SPDX-License-Identifier: MIT
/* Shell commands that show what the kernel knows: memory, time, the log. */
#include <pagoda/arch.h>
#include <pagoda/boot_info.h>
#include <pagoda/printk.h>
#include <pagoda/shell.h>
#include <pagoda/time.h>

static int cmd_bootmem(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	kprintf("boot memory map (from %s):\n", boot_info.loader ? boot_info.loader : "?");
	for (u32 i = 0; i < boot_info.nr_mem; i++) {
		const struct boot_mem_region *r = &boot_info.mem[i];

		kprintf("  %016llx-%016llx %10llu KiB  %s\n", (unsigned long long)r->base,
			(unsigned long long)(r->base + r->size - 1),
			(unsigned long long)(r->size >> 10), boot_mem_type_name(r->type));
	}
	kprintf("usable: %llu KiB, reserved: %llu KiB, ACPI: %llu KiB\n",
		(unsigned long long)(boot_info_mem_total(&boot_info, BOOT_MEM_USABLE) >> 10),
		(unsigned long long)(boot_info_mem_total(&boot_info, BOOT_MEM_RESERVED) >> 10),
		(unsigned long long)((boot_info_mem_total(&boot_info, BOOT_MEM_ACPI) +
				      boot_info_mem_total(&boot_info, BOOT_MEM_NVS)) >> 10));
	kprintf("kernel image: %llx-%llx (%llu KiB)\n", (unsigned long long)boot_info.kernel_start,
		(unsigned long long)boot_info.kernel_end,
		(unsigned long long)((boot_info.kernel_end - boot_info.kernel_start) >> 10));
	for (u32 i = 0; i < boot_info.nr_modules; i++)
		kprintf("module: %llx-%llx %s\n", (unsigned long long)boot_info.modules[i].base,
			(unsigned long long)(boot_info.modules[i].base + boot_info.modules[i].size),
			boot_info.modules[i].name);
	return 0;
}
SHELL_CMD(bootmem, "bootmem", "the memory map the loader gave", cmd_bootmem);

static int cmd_uptime(int argc, char **argv)
{
	u64 ns = ktime_get_ns();

	(void)argc;
	(void)argv;
	kprintf("up %llu.%03llu s (counter at %llu Hz)\n",
		(unsigned long long)(ns / NSEC_PER_SEC),
		(unsigned long long)(ns / NSEC_PER_MSEC % 1000),
		(unsigned long long)arch_cycles_hz());
	return 0;
}
SHELL_CMD(uptime, "uptime", "time since the kernel's first instruction", cmd_uptime);

static int cmd_dmesg(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_replay(console_write);
	return 0;
}
SHELL_CMD(dmesg, "dmesg", "replay the kernel log, all levels", cmd_dmesg);
