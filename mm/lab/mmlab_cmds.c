// SPDX-License-Identifier: MIT
/*
 * The shell's face of the allocator-policy lab (mm/lab/mmlab.c):
 *   mmlab info            the cache the lab models and where its size came from
 *   mmlab run [key=value ...]   one cell, printed as the host's mmlab-run prints it
 *
 * The cache size defaults to what ACPI HMAT describes (QEMU: -numa
 * hmat-cache), else to mmlab.cache=. node=real runs on node 0 under the
 * booted page_alloc.policy=; otherwise a simulated node is built under
 * policy=, and the line is the host's, number for number.
 */
#include <pagoda/boot_info.h>
#include <pagoda/mm.h>
#include <pagoda/params.h>
#include <pagoda/printk.h>
#include <pagoda/sched.h>
#include <pagoda/shell.h>
#include <pagoda/smp.h>
#include <pagoda/string.h>
#include <pagoda/time.h>
#include "../internal.h"
#include "mmlab.h"
#include "../policy.h"

static u64 mmlab_cache_param = 256ULL << 20;
PARAM_SIZE("mmlab.cache", mmlab_cache_param, 4096, 1ULL << 40,
	   "memory-side cache size the lab models when ACPI HMAT describes none");

static u64 lab_cache(const char **from)
{
	const struct boot_mem_side_cache *msc = &boot_info.mem_side_cache;

	if (msc->size && msc->associativity == 1) {
		*from = "ACPI HMAT (direct-mapped)";
		return msc->size;
	}
	*from = "mmlab.cache= (HMAT describes no direct-mapped memory-side cache)";
	return mmlab_cache_param;
}

static const char *node0_policy(void)
{
	return NODE_DATA(0)->policy->name;
}

static int cmd_info(void)
{
	const char *from;
	u64 size = lab_cache(&from);

	kprintf("cache: %llu MiB, %llu colours of %lu KiB, line 64 B; from %s\n",
		(unsigned long long)(size >> 20), (unsigned long long)(size / PAGE_SIZE),
		PAGE_SIZE / 1024, from);
	kprintf("node 0: policy %s, %lu MiB free\n", node0_policy(),
		nr_free_pages() >> (20 - PAGE_SHIFT));
	kprintf("workloads: fresh, aged, interleaved (node=real or a simulated node), "
		"contrived (two simulated cache-sized nodes)\n");
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	struct mmlab_config c;
	struct mmlab_result r;
	char why[256], line[512];
	const char *from;
	u64 old_mask, t0;
	int err;

	mmlab_defaults(&c);
	c.cache = lab_cache(&from);
	for (int i = 0; i < argc; i++) {
		if (mmlab_parse_arg(&c, argv[i], why, sizeof(why))) {
			kprintf("mmlab: %s: %s\n", argv[i], why);
			return -EINVAL;
		}
	}
	if (c.real)
		strlcpy(c.policy, node0_policy(), sizeof(c.policy));
	c.stop = shell_interrupted;
	/*
	 * Stay on this CPU: its per-CPU page lists are part of the
	 * allocator's state, and one CPU's view is what the host replays.
	 */
	old_mask = current->cpus_allowed;
	set_cpus_allowed(current, 1ULL << smp_processor_id());
	t0 = ktime_get_ns();
	err = mmlab_run(&c, &r, why, sizeof(why));
	set_cpus_allowed(current, old_mask);
	if (err) {
		kprintf("mmlab: %s\n", why);
		return err;
	}
	mmlab_format(line, sizeof(line), &c, &r);
	kprintf("%s time=%llums\n", line,
		(unsigned long long)((ktime_get_ns() - t0) / 1000000));
	return 0;
}

static int cmd_mmlab(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "info"))
		return cmd_info();
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	/* The shell adds the usage line; these are the keys it abbreviates. */
	kprintf("mmlab run keys: workload=fresh|aged|interleaved|contrived policy=NAME "
		"node=real|SIZE cache=SIZE ratio=PCT hot=PCT aging=N live=PCT order=N seed=N\n");
	return -EINVAL;
}
SHELL_CMD(mmlab, "mmlab info|run [key=value...]",
	  "the allocator-policy lab: cache conflicts of a working set", cmd_mmlab);
